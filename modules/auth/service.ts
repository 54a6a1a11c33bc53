import { sign, verify } from "hono/jwt";
import type { Config } from "../../lib/config.ts";
import { BizError } from "../../lib/errors.ts";
import type { Session } from "../../lib/http/env.ts";
import { RateLimiter } from "../../lib/http/rate_limiter.ts";
import type { AccountLookup, Md5VerifierWriter } from "../accounts/model.ts";
import type { Account } from "../accounts/model.ts";
import type { CaptchaService } from "./captcha.ts";
import { dummyPasswordHash, hashPassword, passwordMd5, verifyPassword } from "./password.ts";
import type { AuthStore, LoginLimits } from "./store.ts";

/**
 * Failed logins before a captcha is demanded (issue 14): 5 for an account from one address
 * (that address, for that account), 20 for an account from all addresses within 15 minutes
 * (everyone, for that account). Demanded even with CAPTCHA=off; never a lock: a solved
 * captcha with the right password always logs in.
 */
export const MAX_FAILURES = 5;
export const MAX_ACCOUNT_FAILURES = 20;
export const FAILURE_WINDOW_MS = 15 * 60_000;
const LIMITS: LoginLimits = {
  perAddress: MAX_FAILURES,
  perAccount: MAX_ACCOUNT_FAILURES,
  windowMs: FAILURE_WINDOW_MS,
};
/** Login attempts per address per minute ("request too often"). */
export const IP_LOGINS_PER_MINUTE = 30;

/** Token claims of spec §3, plus exp and the account's session version. */
export interface TokenClaims {
  accountId: string;
  iat: number;
  exp: number;
  jti: string;
  isUserFictitious: "true" | "false";
  userFictitiousParentId: string;
  cAccountId: string;
  sv: number;
  [key: string]: unknown;
}

export interface LoginInput {
  account: string;
  password: string;
  captchaId?: string;
  captchaCode?: string;
}

export interface ClientMeta {
  ip: string;
  userAgent: string;
}

export function isExpired(dateIso: string | null, now = new Date()): boolean {
  return !!dateIso && dateIso < now.toISOString().slice(0, 10);
}

export class AuthService {
  private readonly ipLimiter = new RateLimiter(IP_LOGINS_PER_MINUTE, 60_000);
  private readonly floodLogLimiter = new RateLimiter(1, 60_000);

  constructor(
    private readonly store: AuthStore,
    private readonly accounts: AccountLookup & Md5VerifierWriter,
    private readonly captcha: CaptchaService,
    private readonly config: Pick<Config, "CAPTCHA" | "SESSION_HOURS">,
  ) {}

  /** The caller's login log, newest first, a page at a time. */
  loginLog(session: Session, limit: number, cursor?: string) {
    return this.store.loginLog(session.accountId, limit, cursor);
  }

  async login(
    input: LoginInput,
    meta: ClientMeta,
  ): Promise<{ token: string; expiresAt: number; account: Account }> {
    /** Refusals before the account is loaded still belong in that account's log. */
    const log = async (success: boolean, reason: string, accountId?: string | null) =>
      this.store.appendLoginLog({
        time: new Date().toISOString(),
        account: input.account.slice(0, 100),
        accountId: accountId === undefined
          ? await this.accounts.findIdByLogin(input.account)
          : accountId,
        ip: meta.ip,
        userAgent: meta.userAgent.slice(0, 300),
        success,
        reason,
      });

    if (!this.ipLimiter.hit(meta.ip)) {
      // Only the first refusal per address and minute is written: a flood must not grow the
      // store one entry per request.
      if (this.floodLogLimiter.hit(meta.ip)) await log(false, "requestTooOften");
      throw new BizError("requestTooOften");
    }
    // A captcha sent along is checked (and used up) whether or not one is demanded yet.
    const solved = !!input.captchaId && !!input.captchaCode &&
      await this.captcha.consume(input.captchaId, input.captchaCode);
    if (this.config.CAPTCHA === "on" && !solved) {
      await log(false, "captchaIncorrect");
      throw new BizError("captchaIncorrect", {}, { captchaRequired: true });
    }
    // Counted before the password is checked, so a burst of parallel tries cannot exceed it.
    if (!await this.store.countLoginAttempt(input.account, meta.ip, LIMITS, solved)) {
      const reason = input.captchaId || input.captchaCode ? "captchaIncorrect" : "loginTooFrequent";
      await log(false, reason);
      // The console shows a captcha on this answer, even with CAPTCHA=off.
      throw new BizError(reason, {}, { captchaRequired: true });
    }
    const id = await this.accounts.findIdByLogin(input.account);
    const account = id ? await this.accounts.get(id) : null;
    // Always run the KDF so a missing account takes as long as a wrong password.
    const valid = await verifyPassword(
      input.password,
      account?.passwordHash ?? await dummyPasswordHash(),
    );
    if (!account || !valid) {
      await log(false, "wrongCredentials", account?.id ?? null);
      throw new BizError("wrongCredentials");
    }
    await this.store.refundLoginAttempt(input.account, meta.ip);
    await this.rememberMd5(account, input.password);
    const refusal = await this.loginRefusal(account);
    if (refusal) {
      await log(false, refusal, account.id);
      throw new BizError(refusal);
    }
    const issued = await this.issueToken(account, meta);
    await log(true, "success", account.id);
    return { ...issued, account };
  }

  /**
   * Accounts created before the MD5 verifier existed get it at their next successful login
   * (issue 22), written only while the password that was just proved is still the account's.
   */
  private async rememberMd5(account: Account, password: string): Promise<void> {
    if (account.passwordMd5Hash) return;
    const verifier = await hashPassword(passwordMd5(password));
    await this.accounts.setMd5Verifier(account.id, account.passwordHash, verifier);
  }

  /**
   * The Open API's `jimi.oauth.token.get` check (issue 22): the login and the lower-case MD5
   * of its password, under the same limits as the login form (per address per minute, and
   * the failure counters per account and per account+address; no captcha can be solved
   * there, so past them it is refused until the window ends). Returns the account; throws
   * the login form's refusals (requestTooOften, loginTooFrequent, wrongCredentials,
   * loginDenied, accountExpired). Every attempt goes to the login log.
   */
  async checkMd5Login(login: string, md5: string, meta: ClientMeta): Promise<Account> {
    const log = (success: boolean, reason: string, accountId: string | null) =>
      this.store.appendLoginLog({
        time: new Date().toISOString(),
        account: login.slice(0, 100),
        accountId,
        ip: meta.ip,
        userAgent: meta.userAgent.slice(0, 300),
        success,
        reason,
      });
    if (!this.ipLimiter.hit(meta.ip)) {
      if (this.floodLogLimiter.hit(meta.ip)) {
        await log(false, "requestTooOften", await this.accounts.findIdByLogin(login));
      }
      throw new BizError("requestTooOften");
    }
    if (!await this.store.countLoginAttempt(login, meta.ip, LIMITS, false)) {
      await log(false, "loginTooFrequent", await this.accounts.findIdByLogin(login));
      throw new BizError("loginTooFrequent");
    }
    const id = await this.accounts.findIdByLogin(login);
    const account = id ? await this.accounts.get(id) : null;
    const valid = await verifyPassword(
      md5.toLowerCase(),
      account?.passwordMd5Hash ?? await dummyPasswordHash(),
    );
    if (!account || !valid) {
      await log(false, "wrongCredentials", account?.id ?? null);
      throw new BizError("wrongCredentials");
    }
    await this.store.refundLoginAttempt(login, meta.ip);
    const refusal = await this.loginRefusal(account);
    if (refusal) {
      await log(false, refusal, account.id);
      throw new BizError(refusal);
    }
    await log(true, "openApiToken", account.id);
    return account;
  }

  /**
   * Why an account with the right password may still not log in to the web console (also
   * asked of every Open API access token's account at each call).
   */
  async loginRefusal(account: Account): Promise<"loginDenied" | "accountExpired" | null> {
    const master = account.virtual ? await this.accounts.get(account.virtual.masterId) : account;
    if (!master) return "loginDenied";
    if (master.permissions.webLogin !== 1) return "loginDenied";
    if (isExpired(master.expiration) || isExpired(account.virtual?.expiration ?? null)) {
      return "accountExpired";
    }
    return null;
  }

  async issueToken(
    account: Account,
    meta: ClientMeta,
  ): Promise<{ token: string; expiresAt: number }> {
    const now = Math.floor(Date.now() / 1000);
    const exp = now + this.config.SESSION_HOURS * 3600;
    const jti = crypto.randomUUID();
    const isVirtual = !!account.virtual;
    const claims: TokenClaims = {
      accountId: account.id,
      iat: now,
      exp,
      jti,
      isUserFictitious: isVirtual ? "true" : "false",
      userFictitiousParentId: account.virtual?.masterId ?? "",
      cAccountId: account.virtual?.masterId ?? account.id,
      sv: account.sessionVersion,
    };
    const token = await sign(claims, await this.store.signingSecret(), "HS256");
    await this.store.saveSession(jti, {
      accountId: account.id,
      createdAt: Date.now(),
      expiresAt: exp * 1000,
      ip: meta.ip,
      userAgent: meta.userAgent.slice(0, 300),
    });
    return { token, expiresAt: exp * 1000 };
  }

  /** Resolves a token to a session; null when invalid, expired, revoked or superseded. */
  async authenticate(token: string, via: Session["via"]): Promise<Session | null> {
    let claims: TokenClaims;
    try {
      claims = await verify(token, await this.store.signingSecret(), "HS256") as TokenClaims;
    } catch {
      return null;
    }
    if (typeof claims.jti !== "string" || typeof claims.accountId !== "string") return null;
    if (!await this.store.getSession(claims.jti)) return null;
    const account = await this.accounts.get(claims.accountId);
    if (!account || account.sessionVersion !== claims.sv) return null;
    if (await this.loginRefusal(account)) return null;
    return {
      accountId: account.id,
      cAccountId: account.virtual?.masterId ?? account.id,
      isVirtual: !!account.virtual,
      jti: claims.jti,
      via,
    };
  }

  logout(jti: string): Promise<void> {
    return this.store.revokeSession(jti);
  }

  forceLogout(accountId: string): Promise<number> {
    return this.store.revokeAllSessions(accountId);
  }
}
