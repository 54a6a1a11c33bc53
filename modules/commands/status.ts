/** The command status page: an account's commands filtered, and their xlsx / CSV export. */
import type { TFunction } from "i18next";
import type { CommandRecord, CommandStore } from "./store.ts";
import { book } from "../devices/sheets.ts";

export interface StatusFilter {
  imei?: string;
  status?: string;
  sendType?: "online" | "offline";
  batchNo?: string;
  startTime?: string;
  endTime?: string;
}

/** Default look-back when no start is given (spec: look-back default 6 months). */
const LOOKBACK_MS = 183 * 86_400_000;

export async function findCommands(
  store: CommandStore,
  ownerId: string,
  f: StatusFilter,
  limit = Infinity,
): Promise<{ total: number; list: CommandRecord[] }> {
  const to = f.endTime ? Date.parse(f.endTime) : Date.now();
  const from = f.startTime ? Date.parse(f.startTime) : to - LOOKBACK_MS;
  const list: CommandRecord[] = [];
  let total = 0;
  for await (const c of store.forOwner(ownerId, from, to)) {
    if (f.imei && !c.imei.includes(f.imei)) continue;
    if (f.status && c.status !== f.status) continue;
    if (f.sendType && c.sendType !== f.sendType) continue;
    if (f.batchNo && c.batchNo !== f.batchNo) continue;
    total++;
    if (list.length < limit) list.push(c);
  }
  return { total, list };
}

/** Dates as ISO strings for JSON. */
export function commandJson(c: CommandRecord) {
  const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());
  return {
    id: c.id,
    imei: c.imei,
    name: c.name ?? null,
    content: c.content,
    sendType: c.sendType,
    status: c.status,
    platform: c.platform,
    batchNo: c.batchNo,
    senderAccount: c.senderAccount,
    createdAt: iso(c.createdAt),
    sentAt: iso(c.sentAt),
    repliedAt: iso(c.repliedAt),
    reply: c.reply,
    phases: (c.phases ?? []).map((p) => ({ status: p.status, at: iso(p.at) })),
  };
}

function cell(v: unknown): string {
  const s = v === null || v === undefined ? "" : String(v);
  // Quote always; a leading = + - @ would be run as a formula by spreadsheet programs.
  return `"${(/^[=+\-@]/.test(s) ? `'${s}` : s).replaceAll('"', '""')}"`;
}

/** Header and one row per command, translated: what both export formats hold. */
export function commandsTable(list: CommandRecord[], t: TFunction): string[][] {
  const head = [
    "imei",
    "name",
    "content",
    "sendType",
    "status",
    "platform",
    "sentAt",
    "batchNo",
    "sender",
    "reply",
  ].map((k) => t(`commands.columns.${k}`));
  const rows = list.map((c) => [
    c.imei,
    c.name ? t(`commands.instructions.${c.name}`) : t("commands.instructions.raw"),
    c.content,
    t(`commands.sendTypes.${c.sendType}`),
    t(`commands.statuses.${c.status}`),
    c.platform,
    new Date(c.sentAt ?? c.createdAt).toISOString(),
    c.batchNo ?? "",
    c.senderAccount,
    (c.reply && /^[a-z][A-Za-z]+$/.test(c.reply) ? t(`errors.${c.reply}`) : c.reply) ?? "",
  ]);
  return [head, ...rows];
}

/** CSV (UTF-8 with BOM so spreadsheet programs read Chinese correctly). */
export function commandsCsv(list: CommandRecord[], t: TFunction): string {
  return "\ufeff" + commandsTable(list, t).map((r) => r.map(cell).join(",")).join("\r\n") +
    "\r\n";
}

/** xlsx, one sheet; the devices area's workbook helper (IMEI column kept as text). */
export async function commandsXlsx(
  list: CommandRecord[],
  t: TFunction,
): Promise<Uint8Array<ArrayBuffer>> {
  return await book("Commands", commandsTable(list, t));
}
