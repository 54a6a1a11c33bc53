/**
 * Which PostgreSQL schema holds each key's module prefix (the key's first element). Every
 * module gets its own schema with one ordered `records` table; positions blocks
 * (["pos","blk",imei,firstMs]) live in `tp_positions.blocks`, partitioned by day.
 * A key whose prefix is not listed here is refused with an error naming the prefix
 * (schemas_test.ts walks the store sources so a new prefix is caught by the tests).
 */
export const MODULE_PREFIXES: Readonly<Record<string, readonly string[]>> = {
  accountinfo: ["accountInfo"],
  accounts: ["accounts", "loginLog"],
  alerts: ["alerts", "alertSettings", "alertBroadcast"],
  announcements: ["announcement"],
  auth: ["auth"],
  autoreports: ["autoReports"],
  businesslog: ["businessLog"],
  commands: ["commands"],
  commonaddress: ["commonAddress"],
  credits: ["credits"],
  demo: ["demo"],
  devices: ["devices"],
  domains: ["domains", "domainImages"],
  embed: ["embed"],
  fleet: ["fleet", "fleetPaths", "fleetReminders"],
  gateway: ["gateway"],
  geocoder: ["geocoder"],
  geofences: ["geofences"],
  manual: ["manual"],
  monitor: ["monitor"],
  motion: ["motion"],
  notifications: ["notifications", "messages", "messageOnce", "messagePrefs"],
  openapi: ["openapi"],
  packages: ["packages"],
  positions: ["pos"],
  reports: ["myReports"],
  sensors: ["sensors"],
  system: ["health", "system", "jobs"],
  tasks: ["tasks"],
  video: [
    "video",
    "videoCameras",
    "videoDownload",
    "videoDownloadBy",
    "videoEvent",
    "videoEventAt",
    "videoEventLabel",
    "videoEventTime",
    "videoPlays",
    "videoSettings",
    "videoShare",
    "videoShareBy",
    "videoShareToken",
  ],
  wallet: ["wallet"],
  workmodes: ["workmodes"],
};

/** A table keys can live in. */
export interface KeyTable {
  /** Schema-qualified name, safe to splice into SQL. */
  name: string;
  /** Positions blocks: partitioned by the day of the key's time element. */
  partitioned: boolean;
}

const BY_PREFIX = new Map<string, string>();
for (const [module, prefixes] of Object.entries(MODULE_PREFIXES)) {
  for (const prefix of prefixes) BY_PREFIX.set(prefix, module);
}

export const schemaName = (module: string) => `tp_${module}`;
export const BLOCKS_TABLE: KeyTable = { name: "tp_positions.blocks", partitioned: true };

/** The module schema of a key prefix; throws, naming the prefix, when none is mapped. */
export function moduleOf(prefix: Deno.KvKeyPart | undefined): string {
  const module = typeof prefix === "string" ? BY_PREFIX.get(prefix) : undefined;
  if (!module) {
    throw new Error(
      `PostgreSQL store: no module schema for key prefix ${JSON.stringify(String(prefix))}; ` +
        `add it to MODULE_PREFIXES in lib/kv/pg/schemas.ts`,
    );
  }
  return module;
}

/** Whether a key is a positions block (kept in the day-partitioned table). */
export function isBlockKey(key: Deno.KvKey): boolean {
  return key[0] === "pos" && key[1] === "blk";
}

/** The table a full key is stored in. */
export function tableOf(key: Deno.KvKey): KeyTable {
  if (isBlockKey(key)) return BLOCKS_TABLE;
  return { name: `${schemaName(moduleOf(key[0]))}.records`, partitioned: false };
}

/** The UTC day (YYYY-MM-DD) a block key belongs to, from its time element (epoch ms). */
export function blockDay(key: Deno.KvKey): string {
  const ms = key[3];
  if (typeof ms !== "number" || !Number.isFinite(ms)) {
    throw new Error(`PostgreSQL store: a positions block key needs a time element: ${String(ms)}`);
  }
  return new Date(Math.floor(ms / 86_400_000) * 86_400_000).toISOString().slice(0, 10);
}
