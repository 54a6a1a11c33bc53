import type { TFunction } from "i18next";
import type { Lang } from "../i18n/i18n.ts";

/** The authenticated caller, as the session middleware resolves it from the token. */
export interface Session {
  /** The account that logged in (a virtual account's own id for virtual users). */
  accountId: string;
  /** The account whose subtree the caller works in: accountId, or a virtual user's master. */
  cAccountId: string;
  isVirtual: boolean;
  jti: string;
  /** How the token arrived: cookie-authenticated changes must pass the CSRF check. */
  via: "cookie" | "bearer";
  /**
   * Set when the caller is an Open API access token (issue 22): the app key's scope, which
   * the access guard checks on top of the account's own permissions (modules/accounts/needs.ts).
   */
  scope?: readonly ("read" | "commands" | "manage")[];
}

export type AppEnv = {
  Variables: {
    lang: Lang;
    t: TFunction;
    session: Session;
    requestId: string;
    clientIp: string;
  };
};
