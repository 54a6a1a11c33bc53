/**
 * openPostgresStore: the cluster mode's StoreBackend. Opens a pg.Pool (sslmode and the rest
 * of the URL honoured by pg), applies the migrations (under an advisory lock, so instances
 * starting together are safe) and hands out a PgKv typed as Deno.Kv.
 *
 * Other parts needing a PostgreSQL client (Leadership in lib/cluster/pg_leader.ts, the blob
 * store) take the pool from `pgPool(backend)` or `backend.pool`; they must not end it.
 */
import pg from "pg";
import type { StoreBackend } from "../backend.ts";
import { migrate } from "./migrations.ts";
import { PgKv } from "./pg_kv.ts";

export interface PostgresStoreOptions {
  /** Connections in the pool (default 10). */
  poolSize?: number;
  /** health() answers `down` when the trivial query takes longer (default 2000 ms). */
  healthTimeoutMs?: number;
  /** Receives the ids of the migrations applied at open (scripts/migrate.ts prints them). */
  onMigrated?: (applied: string[]) => void;
}

export interface PostgresStore extends StoreBackend {
  kind: "postgres";
  pool: pg.Pool;
  pgKv: PgKv;
}

export async function openPostgresStore(
  url: string,
  opts: PostgresStoreOptions = {},
): Promise<PostgresStore> {
  const pool = new pg.Pool({ connectionString: url, max: opts.poolSize ?? 10 });
  // An idle client losing its connection must not crash the process; the next query reports it.
  pool.on("error", () => {});
  try {
    const applied = await migrate(pool);
    opts.onMigrated?.(applied);
  } catch (e) {
    await pool.end().catch(() => {});
    throw e;
  }
  const pgKv = new PgKv(pool);
  const timeout = opts.healthTimeoutMs ?? 2000;
  return {
    kind: "postgres",
    kv: pgKv.asDenoKv(),
    pool,
    pgKv,
    health: () => health(pool, timeout),
    close: () => pool.end(),
  };
}

/** The pool behind a postgres StoreBackend (for Leadership and other direct SQL users). */
export function pgPool(backend: StoreBackend): pg.Pool {
  const pool = (backend as Partial<PostgresStore>).pool;
  if (!pool) throw new Error("not a PostgreSQL store backend");
  return pool;
}

async function health(pool: pg.Pool, timeoutMs: number): Promise<"up" | "down"> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<"down">((resolve) => {
    timer = setTimeout(() => resolve("down"), timeoutMs);
  });
  const query = pool.query("SELECT 1").then(() => "up" as const, () => "down" as const);
  try {
    return await Promise.race([query, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
