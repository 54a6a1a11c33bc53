/**
 * KV access of the Open API frame (issue 22): app keys (their secrets sealed by SecretBox),
 * the per-account index, and access/refresh tokens kept under the SHA-256 of the token (a
 * leaked store does not hand out working tokens), expiring with KV's expireIn.
 */
import type { KeyScope } from "./types.ts";
import type { SealedSecret } from "./secret_box.ts";

export interface KeyRecord {
  appKey: string;
  accountId: string;
  name: string;
  scope: KeyScope[];
  sealed: SealedSecret;
  secretTail: string;
  createdAt: number;
  expiresAt: number | null;
  revokedAt: number | null;
  lastUsedAt: number | null;
}

export interface TokenRecord {
  appKey: string;
  /** The account the token acts as (user_id of token.get). */
  accountId: string;
  /** The account's session version when issued: a password change ends the token. */
  sv: number;
  expiresAt: number;
  /** Hash of the refresh token issued with it (a refresh ends this token). */
  refreshHash: string;
}

export interface RefreshRecord {
  appKey: string;
  accountId: string;
  accessHash: string;
  expiresAt: number;
}

const K = {
  key: (appKey: string) => ["openapi", "key", appKey],
  byAccount: (accountId: string, appKey?: string) =>
    appKey
      ? ["openapi", "keyByAccount", accountId, appKey]
      : ["openapi", "keyByAccount", accountId],
  /** How many keys an account made (revoked ones stay listed and count). */
  count: (accountId: string) => ["openapi", "keyCount", accountId],
  access: (hash: string) => ["openapi", "access", hash],
  refresh: (hash: string) => ["openapi", "refresh", hash],
};

export class OpenKeyStore {
  constructor(private readonly kv: Deno.Kv) {}

  /**
   * Inserts a key unless the account already keeps `max`; false then. The account's count is
   * checked in the same commit, so keys created at once never pass the limit together.
   */
  async insert(rec: KeyRecord, max: number): Promise<boolean> {
    for (;;) {
      const count = await this.kv.get<number>(K.count(rec.accountId));
      const n = count.value ?? (await this.listAppKeys(rec.accountId)).length;
      if (n >= max) return false;
      const res = await this.kv.atomic()
        .check(count)
        .check({ key: K.key(rec.appKey), versionstamp: null })
        .set(K.key(rec.appKey), rec)
        .set(K.byAccount(rec.accountId, rec.appKey), rec.createdAt)
        .set(K.count(rec.accountId), n + 1)
        .commit();
      if (res.ok) return true;
      // Another key of the account came first (count again), or this app key exists.
      if (await this.get(rec.appKey)) return false;
    }
  }

  async get(appKey: string): Promise<KeyRecord | null> {
    return (await this.kv.get<KeyRecord>(K.key(appKey))).value;
  }

  async listAppKeys(accountId: string): Promise<string[]> {
    const out: string[] = [];
    for await (const e of this.kv.list({ prefix: K.byAccount(accountId) })) {
      out.push(String(e.key.at(-1)));
    }
    return out;
  }

  async listByAccount(accountId: string): Promise<KeyRecord[]> {
    const keys = await this.listAppKeys(accountId);
    const out: KeyRecord[] = [];
    for (let i = 0; i < keys.length; i += 10) {
      const got = await this.kv.getMany<KeyRecord[]>(keys.slice(i, i + 10).map(K.key));
      for (const g of got) if (g.value) out.push(g.value);
    }
    return out;
  }

  /** Applies a change to a stored key (retried on conflicts); null when it does not exist. */
  async change(appKey: string, f: (rec: KeyRecord) => KeyRecord): Promise<KeyRecord | null> {
    for (;;) {
      const cur = await this.kv.get<KeyRecord>(K.key(appKey));
      if (!cur.value) return null;
      const next = f(cur.value);
      if ((await this.kv.atomic().check(cur).set(K.key(appKey), next).commit()).ok) return next;
    }
  }

  /** Stores a token pair; both expire from the store on their own. */
  async saveTokens(
    accessHash: string,
    access: TokenRecord,
    refreshHash: string,
    refresh: RefreshRecord,
  ): Promise<void> {
    const now = Date.now();
    await this.kv.atomic()
      .set(K.access(accessHash), access, { expireIn: Math.max(1, access.expiresAt - now) })
      .set(K.refresh(refreshHash), refresh, { expireIn: Math.max(1, refresh.expiresAt - now) })
      .commit();
  }

  async getAccess(hash: string): Promise<TokenRecord | null> {
    return (await this.kv.get<TokenRecord>(K.access(hash))).value;
  }

  /**
   * Takes a refresh token once: it and the access token it came with are deleted in the same
   * commit, so two parallel refreshes cannot both succeed. Null when unknown or already used.
   */
  async takeRefresh(hash: string): Promise<RefreshRecord | null> {
    for (;;) {
      const cur = await this.kv.get<RefreshRecord>(K.refresh(hash));
      if (!cur.value) return null;
      const ok = await this.kv.atomic().check(cur).delete(K.refresh(hash))
        .delete(K.access(cur.value.accessHash)).commit();
      if (ok.ok) return cur.value;
    }
  }
}
