/**
 * App keys (issue 22): an account creates keys that act as itself (with its visibility and
 * its permissions, narrowed by the key's scope), lists them with the secret masked, revokes
 * them. The dispatcher resolves a key and its secret here; secrets are kept decrypted in
 * memory once used, so a signed call costs no decryption.
 */
import { BizError } from "../../lib/errors.ts";
import type { Session } from "../../lib/http/env.ts";
import type { AccessGuard } from "../accounts/access.ts";
import type { KeyRecord, OpenKeyStore } from "./store_keys.ts";
import { type CreatedKey, type KeyRow, MAX_KEYS_PER_ACCOUNT } from "./model.ts";
import type { SecretBox } from "./secret_box.ts";
import type { KeyScope } from "./types.ts";

/** Last use is written at most this often per key (not a store write per call). */
const LAST_USE_EVERY_MS = 60_000;

export interface ActiveKey {
  record: KeyRecord;
  secret: string;
}

const hex = (bytes: number) =>
  Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, "0"))
    .join("");

export class OpenKeys {
  private readonly secrets = new Map<string, string>();
  private readonly lastWritten = new Map<string, number>();

  constructor(
    private readonly store: OpenKeyStore,
    private readonly box: SecretBox,
    private readonly access: AccessGuard,
  ) {}

  async create(
    session: Session,
    input: { name: string; scope: KeyScope[]; expiresAt?: string | null },
  ): Promise<CreatedKey> {
    const { self } = await this.access.caller(session);
    const expiresAt = input.expiresAt ? Date.parse(input.expiresAt) : null;
    if (expiresAt !== null && expiresAt <= Date.now()) throw new BizError("openKeyExpiryPast");
    const appKey = hex(16).toUpperCase();
    const appSecret = hex(16);
    const rec: KeyRecord = {
      appKey,
      accountId: self.id,
      name: input.name,
      scope: [...new Set(input.scope)],
      sealed: await this.box.seal(appKey, appSecret),
      secretTail: appSecret.slice(-4),
      createdAt: Date.now(),
      expiresAt,
      revokedAt: null,
      lastUsedAt: null,
    };
    if (!await this.store.insert(rec, MAX_KEYS_PER_ACCOUNT)) {
      throw new BizError("openKeyLimit", { max: MAX_KEYS_PER_ACCOUNT });
    }
    return { appKey, appSecret };
  }

  async list(session: Session): Promise<KeyRow[]> {
    const { self } = await this.access.caller(session);
    const list = await this.store.listByAccount(self.id);
    return list.sort((a, b) => b.createdAt - a.createdAt).map(toRow);
  }

  async revoke(session: Session, appKey: string): Promise<void> {
    const { self } = await this.access.caller(session);
    const rec = await this.store.get(appKey);
    if (!rec || rec.accountId !== self.id) throw new BizError("openKeyNotFound");
    await this.store.change(appKey, (r) => ({ ...r, revokedAt: r.revokedAt ?? Date.now() }));
    this.secrets.delete(appKey);
  }

  /** A key that may sign calls now (not revoked, not expired), with its secret; else null. */
  async active(appKey: string): Promise<ActiveKey | null> {
    const record = await this.store.get(appKey);
    if (!record || statusOf(record) !== "active") return null;
    let secret = this.secrets.get(appKey);
    if (secret === undefined) {
      secret = await this.box.open(appKey, record.sealed);
      this.secrets.set(appKey, secret);
    }
    return { record, secret };
  }

  /** Notes a use of the key (at most one write a minute per key). */
  async touch(appKey: string): Promise<void> {
    const now = Date.now();
    if (now - (this.lastWritten.get(appKey) ?? 0) < LAST_USE_EVERY_MS) return;
    this.lastWritten.set(appKey, now);
    await this.store.change(appKey, (r) => ({ ...r, lastUsedAt: now }));
  }
}

export function statusOf(r: KeyRecord, now = Date.now()): KeyRow["status"] {
  if (r.revokedAt !== null) return "revoked";
  if (r.expiresAt !== null && r.expiresAt <= now) return "expired";
  return "active";
}

const iso = (ms: number | null) => ms === null ? null : new Date(ms).toISOString();

function toRow(r: KeyRecord): KeyRow {
  return {
    appKey: r.appKey,
    name: r.name,
    scope: r.scope,
    secretMasked: `••••••••${r.secretTail}`,
    createdAt: new Date(r.createdAt).toISOString(),
    expiresAt: iso(r.expiresAt),
    revokedAt: iso(r.revokedAt),
    lastUsedAt: iso(r.lastUsedAt),
    status: statusOf(r),
  };
}
