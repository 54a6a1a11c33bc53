/**
 * Access and refresh tokens of `jimi.oauth.token.get/refresh` (issue 22). Opaque random
 * tokens (64 hex characters) kept by their SHA-256; an access token acts as the account
 * token.get named, limited to its app key's scope, and ends with its lifetime, a refresh, a
 * revoked or expired key, or a password change of the account. The REST API accepts it as
 * `Authorization: Bearer …` (app/app.ts asks `session()` for tokens of this form).
 */
import { createHash } from "node:crypto";
import type { Session } from "../../lib/http/env.ts";
import type { Account, AccountLookup } from "../accounts/model.ts";
import type { OpenKeyStore } from "./store_keys.ts";
import type { OpenKeys } from "./keys.ts";

/** A refresh token outlives its access token by this much (refresh shortly after expiry). */
const REFRESH_GRACE_MS = 3600_000;

const TOKEN_FORM = /^[0-9a-f]{64}$/;

/** Whether a bearer token has the form of an Open API access token (a JWT never does). */
export function isOpenToken(token: string): boolean {
  return TOKEN_FORM.test(token);
}

const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");
const randomToken = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(32)), (b) => b.toString(16).padStart(2, "0"))
    .join("");

export interface IssuedTokens {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
  /** When the access token was issued (ms). */
  issuedAt: number;
}

export class OpenTokens {
  constructor(
    private readonly store: OpenKeyStore,
    private readonly keys: OpenKeys,
    private readonly accounts: AccountLookup,
    /** Why the account may not log in now (expired, web login taken away), or null. */
    private readonly loginRefusal: (account: Account) => Promise<string | null>,
  ) {}

  async issue(appKey: string, account: Account, expiresIn: number): Promise<IssuedTokens> {
    const accessToken = randomToken(), refreshToken = randomToken();
    const issuedAt = Date.now();
    const expiresAt = issuedAt + expiresIn * 1000;
    const accessHash = sha256(accessToken), refreshHash = sha256(refreshToken);
    await this.store.saveTokens(
      accessHash,
      { appKey, accountId: account.id, sv: account.sessionVersion, expiresAt, refreshHash },
      refreshHash,
      { appKey, accountId: account.id, accessHash, expiresAt: expiresAt + REFRESH_GRACE_MS },
    );
    return { accessToken, refreshToken, expiresIn, issuedAt };
  }

  /**
   * A new pair for a refresh token of this app key (used once: the old pair ends); null when
   * unknown, used, expired, of another key, or its account is gone.
   */
  async refresh(appKey: string, refreshToken: string, expiresIn: number) {
    if (!TOKEN_FORM.test(refreshToken)) return null;
    const rec = await this.store.takeRefresh(sha256(refreshToken));
    if (!rec || rec.appKey !== appKey || rec.expiresAt <= Date.now()) return null;
    const account = await this.accounts.get(rec.accountId);
    if (!account || await this.loginRefusal(account)) return null;
    return { account, tokens: await this.issue(appKey, account, expiresIn) };
  }

  /**
   * The session an access token acts as, scoped by its key; null when the token is unknown,
   * expired, of another app key (when one is given), its key no longer active, or the account
   * gone, its password changed, or its login refused (expired, web login taken away).
   */
  async session(token: string, appKey?: string): Promise<Session | null> {
    if (!TOKEN_FORM.test(token)) return null;
    const rec = await this.store.getAccess(sha256(token));
    if (!rec || rec.expiresAt <= Date.now()) return null;
    if (appKey !== undefined && rec.appKey !== appKey) return null;
    const key = await this.keys.active(rec.appKey);
    if (!key) return null;
    const account = await this.accounts.get(rec.accountId);
    if (!account || account.sessionVersion !== rec.sv) return null;
    // Like a console session: an expired account or one without web login is out at once.
    if (await this.loginRefusal(account)) return null;
    void this.keys.touch(rec.appKey).catch(() => {});
    return keySession(account, key.record.scope, rec.appKey);
  }
}

const KEY_JTI = "openapi:";

/** The app key an Open API session came through (null for a console session). */
export function sessionAppKey(session: Session): string | null {
  return session.jti.startsWith(KEY_JTI) ? session.jti.slice(KEY_JTI.length) : null;
}

/** The session an app key acts as: an account, narrowed by the key's scope. */
export function keySession(
  account: Account,
  scope: Session["scope"],
  appKey: string,
): Session {
  return {
    accountId: account.id,
    cAccountId: account.virtual?.masterId ?? account.id,
    isVirtual: !!account.virtual,
    jti: `${KEY_JTI}${appKey}`,
    via: "bearer",
    scope,
  };
}
