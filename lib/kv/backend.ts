/**
 * The store a process runs on (issue 23): the embedded Deno KV file (single mode, the default)
 * or PostgreSQL (cluster mode, DATABASE_URL). Both are used through the same Deno.Kv-shaped
 * object, so every module's store file works unchanged on either; `lib/kv/pg` implements the
 * subset the stores use (get, getMany, set, delete, list, atomic with check/set/delete/sum and
 * expireIn) over one ordered key-value table per module schema, positions in daily partitions.
 */
export type StoreKind = "kv" | "postgres";

export interface StoreBackend {
  kind: StoreKind;
  /** The store: a real Deno.Kv, or lib/kv/pg's PgKv behind the same type. */
  kv: Deno.Kv;
  /** `up` when the store answers a trivial query now (cluster /health); always up for KV. */
  health(): Promise<"up" | "down">;
  close(): Promise<void>;
}
