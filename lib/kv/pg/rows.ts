/** Row shapes and small SQL fragments shared by the PostgreSQL store's files. */
import type { Buffer } from "node:buffer";

export interface Row {
  k: Buffer;
  v: Buffer;
  /** bigint arrives as a decimal string. */
  version: string;
}

/** An expired record reads as absent (Deno KV's expireIn). */
export const LIVE = "(expires_at IS NULL OR expires_at > now())";

/** Deno KV's versionstamp shape: 20 hex digits, increasing. */
export function toVersionstamp(version: string | bigint): string {
  return BigInt(version).toString(16).padStart(20, "0");
}
