/** KV access of the auth area: signing secret, sessions, throttling counters, login log. */
export interface SessionRecord {
  accountId: string;
  createdAt: number;
  expiresAt: number;
  ip: string;
  userAgent: string;
}

export interface LoginLogEntry {
  time: string;
  account: string;
  accountId: string | null;
  ip: string;
  userAgent: string;
  success: boolean;
  reason: string;
}

/**
 * Login log entries are kept this long. Every attempt writes one (also for logins that do
 * not exist), so without a bound the log would grow for ever.
 */
export const LOGIN_LOG_RETENTION_MS = 180 * 24 * 3600_000;

const K = {
  secret: ["auth", "jwtSecret"],
  session: (jti: string) => ["auth", "session", jti],
  byAccount: (accountId: string, jti?: string) =>
    jti ? ["auth", "sessionByAccount", accountId, jti] : ["auth", "sessionByAccount", accountId],
  failures: (login: string) => ["auth", "loginFailures", login.toLowerCase()],
  log: (accountId: string, time: number, id: string) => ["auth", "loginLog", accountId, time, id],
  logPrefix: (accountId: string) => ["auth", "loginLog", accountId],
};

export class AuthStore {
  constructor(private readonly kv: Deno.Kv) {}

  /** The HMAC secret, created on first use and kept in the store. */
  async signingSecret(): Promise<string> {
    const existing = await this.kv.get<string>(K.secret);
    if (existing.value) return existing.value;
    const fresh = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(48))));
    await this.kv.atomic().check(existing).set(K.secret, fresh).commit();
    return (await this.kv.get<string>(K.secret)).value!;
  }

  async saveSession(jti: string, rec: SessionRecord): Promise<void> {
    const expireIn = Math.max(1000, rec.expiresAt - Date.now());
    await this.kv.atomic()
      .set(K.session(jti), rec, { expireIn })
      .set(K.byAccount(rec.accountId, jti), rec.expiresAt, { expireIn })
      .commit();
  }

  async getSession(jti: string): Promise<SessionRecord | null> {
    const rec = (await this.kv.get<SessionRecord>(K.session(jti))).value;
    return rec && rec.expiresAt > Date.now() ? rec : null;
  }

  async revokeSession(jti: string): Promise<void> {
    const rec = await this.getSession(jti);
    const op = this.kv.atomic().delete(K.session(jti));
    if (rec) op.delete(K.byAccount(rec.accountId, jti));
    await op.commit();
  }

  /** Forced logout: every session of the account. */
  async revokeAllSessions(accountId: string): Promise<number> {
    let n = 0;
    for await (const e of this.kv.list({ prefix: K.byAccount(accountId) })) {
      await this.kv.atomic().delete(e.key).delete(K.session(String(e.key.at(-1)))).commit();
      n++;
    }
    return n;
  }

  async failureCount(login: string, windowMs: number): Promise<number> {
    const v = (await this.kv.get<{ count: number; first: number }>(K.failures(login))).value;
    return v && Date.now() - v.first < windowMs ? v.count : 0;
  }

  async recordFailure(login: string, windowMs: number): Promise<void> {
    const entry = await this.kv.get<{ count: number; first: number }>(K.failures(login));
    const fresh = !entry.value || Date.now() - entry.value.first >= windowMs;
    const next = fresh
      ? { count: 1, first: Date.now() }
      : { ...entry.value!, count: entry.value!.count + 1 };
    await this.kv.set(K.failures(login), next, { expireIn: windowMs });
  }

  async clearFailures(login: string): Promise<void> {
    await this.kv.delete(K.failures(login));
  }

  async appendLoginLog(entry: LoginLogEntry): Promise<void> {
    const t = Date.parse(entry.time);
    await this.kv.set(K.log(entry.accountId ?? "-", t, crypto.randomUUID()), entry, {
      expireIn: LOGIN_LOG_RETENTION_MS,
    });
  }

  /** Newest first. */
  async loginLog(accountId: string, limit: number, cursor?: string) {
    const it = this.kv.list<LoginLogEntry>({ prefix: K.logPrefix(accountId) }, {
      reverse: true,
      limit,
      cursor,
    });
    const items: LoginLogEntry[] = [];
    for await (const e of it) items.push(e.value);
    return { items, cursor: items.length === limit ? it.cursor : null };
  }
}
