/**
 * Open API app keys as the console shows them (issue 22). Browser-safe: shapes and limits only.
 */
export { KEY_SCOPES, type KeyScope } from "./types.ts";
import type { KeyScope } from "./types.ts";

/** App keys one account may keep (revoked ones included until deleted with the account). */
export const MAX_KEYS_PER_ACCOUNT = 20;

/** An app key in the list: the secret masked (shown in full only in the create answer). */
export interface KeyRow {
  appKey: string;
  name: string;
  scope: KeyScope[];
  /** `••••` and the secret's last 4 characters. */
  secretMasked: string;
  createdAt: string;
  /** ISO time, or null for no expiry. */
  expiresAt: string | null;
  revokedAt: string | null;
  /** Last signed call or Bearer use (written at most once a minute), or null. */
  lastUsedAt: string | null;
  status: "active" | "expired" | "revoked";
}

/** The create answer: the only time the secret is shown in full. */
export interface CreatedKey {
  appKey: string;
  appSecret: string;
}

/** The access token lifetimes `jimi.oauth.token.get` accepts, in seconds. */
export const TOKEN_SECONDS = { min: 60, max: 7200 } as const;
