import { BizError } from "../../lib/errors.ts";

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
 * Failures (logins, checks of a signed-in account's password) counted in one window. `until`
 * is when the record stops counting: a window (15 minutes) after the first failure, or a
 * whole window after the failure that reached the limit (so a captcha demanded, or a check
 * refused, at the limit stays so for the whole window).
 */
interface FailureCounter {
  count: number;
  since: number;
  until: number;
}

/** The two login-failure counters: per account+address and per account (issue 14). */
export interface LoginLimits {
  perAddress: number;
  perAccount: number;
  windowMs: number;
}

/** Checks of a signed-in account's password (issue 14): at most `max` per `windowMs`. */
export interface PasswordCheckLimits {
  max: number;
  windowMs: number;
}

/** Conflicting writers retry this often before the attempt is refused as "system busy". */
const MAX_COMMIT_TRIES = 200;

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
  failuresFrom: (login: string, ip?: string) =>
    ip === undefined
      ? ["auth", "loginFailuresFrom", login.toLowerCase()]
      : ["auth", "loginFailuresFrom", login.toLowerCase(), ip],
  passwordChecks: (accountId: string) => ["auth", "passwordChecks", accountId],
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

  /**
   * Counts one login attempt for `login` from `ip` BEFORE its password is checked, in one
   * commit of both counters (see countAttempt). Returns false, counting nothing, when a
   * captcha is required: this address has `perAddress` failures for the login, or all
   * addresses together `perAccount`. With `solved` (a captcha was solved) the attempt is
   * always counted and allowed: there is no lock that refuses the owner.
   */
  countLoginAttempt(
    login: string,
    ip: string,
    limits: LoginLimits,
    solved: boolean,
  ): Promise<boolean> {
    return countAttempt(
      this.kv,
      [
        { key: K.failuresFrom(login, ip), cap: limits.perAddress },
        { key: K.failures(login), cap: limits.perAccount },
      ],
      limits.windowMs,
      solved,
    );
  }

  /**
   * The password was right: the attempt counted by countLoginAttempt was no failure. This
   * address's counter for the login is cleared; the account's counter gives the one back
   * (other addresses' failures still count towards the captcha for everyone).
   */
  async refundLoginAttempt(login: string, ip: string): Promise<void> {
    await this.kv.delete(K.failuresFrom(login, ip));
    await refundAttempt(this.kv, K.failures(login));
  }

  /**
   * Counts one check of a signed-in account's password (the old password on change, the
   * confirmation of a protected command) BEFORE it is verified, with the same atomic counter
   * as logins. False, counting nothing, once `limits.max` checks are counted in the window.
   */
  countPasswordCheck(accountId: string, limits: PasswordCheckLimits): Promise<boolean> {
    return countAttempt(
      this.kv,
      [{ key: K.passwordChecks(accountId), cap: limits.max }],
      limits.windowMs,
      false,
    );
  }

  /** The password was right: the account's checks start again from zero. */
  async clearPasswordChecks(accountId: string): Promise<void> {
    await this.kv.delete(K.passwordChecks(accountId));
  }

  /** Forgets every failure counted for a login (from all addresses). */
  async clearFailures(login: string): Promise<void> {
    await this.kv.delete(K.failures(login));
    for await (const e of this.kv.list({ prefix: K.failuresFrom(login) })) {
      await this.kv.delete(e.key);
    }
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

/** One failure counter (a KV key) and the count at which it refuses. */
interface AttemptCounter {
  key: Deno.KvKey;
  cap: number;
}

/**
 * Counts one attempt on every counter BEFORE the secret it guards is checked, in one
 * versionstamp-checked commit, so parallel requests cannot all pass a limit that each read
 * before the others wrote. Returns false, counting nothing, when a counter already stands
 * at its cap, unless `force` (the attempt is then counted and allowed). Each counter runs
 * `windowMs` from its first attempt, and a full `windowMs` again from the one reaching its cap.
 */
async function countAttempt(
  kv: Deno.Kv,
  counters: AttemptCounter[],
  windowMs: number,
  force: boolean,
): Promise<boolean> {
  const keys = counters.map((c) => c.key);
  for (let i = 0; i < MAX_COMMIT_TRIES; i++) {
    const now = Date.now();
    const entries = await kv.getMany<FailureCounter[]>(keys);
    const live = entries.map((e) => liveCounter(e.value, now, windowMs));
    if (!force && live.some((c, j) => c.count >= counters[j].cap)) return false;
    const op = kv.atomic();
    entries.forEach((e, j) => {
      const next = bump(live[j], counters[j].cap, now, windowMs);
      op.check(e).set(keys[j], next, { expireIn: next.until - now });
    });
    if ((await op.commit()).ok) return true;
    await backOff();
  }
  throw new BizError("systemBusy");
}

/** Gives one counted attempt back (it turned out no failure); the window stays. */
async function refundAttempt(kv: Deno.Kv, key: Deno.KvKey): Promise<void> {
  for (let i = 0; i < MAX_COMMIT_TRIES; i++) {
    const entry = await kv.get<FailureCounter>(key);
    const v = entry.value;
    if (!v || v.count === 0 || Date.now() >= v.until) return;
    const next = { ...v, count: v.count - 1 };
    const expireIn = Math.max(1, v.until - Date.now());
    if ((await kv.atomic().check(entry).set(key, next, { expireIn }).commit()).ok) return;
    await backOff();
  }
}

/** The counter as it stands at `now`: a record past its window starts again from zero. */
function liveCounter(v: FailureCounter | null, now: number, windowMs: number): FailureCounter {
  return v && now < v.until ? v : { count: 0, since: now, until: now + windowMs };
}

/** One more failure; reaching (or staying at) the limit keeps the record a full window. */
function bump(c: FailureCounter, cap: number, now: number, windowMs: number): FailureCounter {
  const count = c.count + 1;
  return { count, since: c.since, until: count >= cap ? now + windowMs : c.until };
}

/** A short random pause so writers that collided do not collide again in lockstep. */
function backOff(): Promise<void> {
  return new Promise((r) => setTimeout(r, Math.random() * 4));
}
