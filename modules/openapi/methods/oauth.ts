/**
 * `jimi.oauth.token.get` and `jimi.oauth.token.refresh` (issue 22). token.get takes the key
 * owner's account or one of its subtree (`user_id`, the login name) and the lower-case MD5 of
 * its password, checked against the account's MD5 verifier under the login form's attempt
 * limits. Both run without an access token (the key's signature is the proof).
 */
import { z } from "zod";
import { BizError } from "../../../lib/errors.ts";
import type { AccessGuard } from "../../accounts/access.ts";
import type { Account, AccountLookup } from "../../accounts/model.ts";
import type { ClientMeta } from "../../auth/service.ts";
import { TOKEN_SECONDS } from "../model.ts";
import type { IssuedTokens, OpenTokens } from "../tokens.ts";
import { OPEN_CODES, OpenApiError, type OpenMethod } from "../types.ts";
import { formatOpenTime, intParam } from "./common.ts";

export interface OauthDeps {
  auth: { checkMd5Login(login: string, md5: string, meta: ClientMeta): Promise<Account> };
  tokens: OpenTokens;
  access: AccessGuard;
  accounts: AccountLookup;
}

const expiresIn = intParam(TOKEN_SECONDS.min, TOKEN_SECONDS.max);

const tokenGetParams = z.object({
  user_id: z.string().trim().min(1).max(50),
  user_pwd_md5: z.string().trim().regex(/^[0-9a-fA-F]{32}$/, "32 hex digits (MD5)"),
  expires_in: expiresIn,
}).strict();

const tokenRefreshParams = z.object({
  refresh_token: z.string().trim().min(1).max(100),
  expires_in: expiresIn,
}).strict();

/** The answer of both methods, as the public example gives it. */
function tokenResult(appKey: string, account: Account, t: IssuedTokens) {
  return {
    result: {
      appKey,
      account: account.account,
      accessToken: t.accessToken,
      expiresIn: t.expiresIn,
      refreshToken: t.refreshToken,
      time: formatOpenTime(t.issuedAt),
    },
  };
}

/** The login form's refusals as Open API codes. */
function loginRefusal(e: unknown): never {
  if (e instanceof BizError) {
    if (e.key === "loginTooFrequent" || e.key === "requestTooOften") {
      throw new OpenApiError(OPEN_CODES.tooFrequent, "too many failed attempts; try again later");
    }
    if (e.key === "loginDenied" || e.key === "accountExpired") {
      throw new OpenApiError(OPEN_CODES.noPermission, "the account may not log in");
    }
    if (e.key === "wrongCredentials") {
      throw new OpenApiError(
        OPEN_CODES.illegalUserOrDevice,
        "illegal user: user_id or user_pwd_md5",
      );
    }
  }
  throw e;
}

export function oauthMethods(d: OauthDeps): OpenMethod[] {
  const tokenGet: OpenMethod<typeof tokenGetParams> = {
    name: "jimi.oauth.token.get",
    need: "public",
    tokenRequired: false,
    params: tokenGetParams,
    run: async ({ session, appKey, params, client }) => {
      // Only the key owner's account or its subtree; unknown and outside are alike (1002).
      const id = await d.accounts.findIdByLogin(params.user_id);
      try {
        if (!id) throw new BizError("permissionDenied");
        await d.access.visibleAccount(session, id);
      } catch {
        throw new OpenApiError(OPEN_CODES.illegalUserOrDevice, "illegal user: user_id");
      }
      const meta = client ?? { ip: "unknown", userAgent: "" };
      const account = await d.auth.checkMd5Login(params.user_id, params.user_pwd_md5, meta)
        .catch(loginRefusal);
      return tokenResult(appKey, account, await d.tokens.issue(appKey, account, params.expires_in));
    },
  };
  const tokenRefresh: OpenMethod<typeof tokenRefreshParams> = {
    name: "jimi.oauth.token.refresh",
    need: "public",
    tokenRequired: false,
    params: tokenRefreshParams,
    run: async ({ appKey, params }) => {
      const renewed = await d.tokens.refresh(appKey, params.refresh_token, params.expires_in);
      if (!renewed) throw new OpenApiError(OPEN_CODES.token, "illegal refresh_token");
      return tokenResult(appKey, renewed.account, renewed.tokens);
    },
  };
  return [tokenGet, tokenRefresh];
}
