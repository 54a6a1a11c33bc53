import { join } from "node:path";
import type { Config } from "../config.ts";
import type { StoreBackend } from "./backend.ts";
import { isConnectionFailure, UnreachableError, withoutPassword } from "../net/unreachable.ts";

/** Opens the embedded store file under dataDir (created when missing). */
export async function openStore(dataDir: string): Promise<Deno.Kv> {
  await Deno.mkdir(dataDir, { recursive: true });
  return await Deno.openKv(join(dataDir, "tracking.kv"));
}

/**
 * The process's store (issue 23): the KV file under DATA_DIR (single mode, as always), or
 * PostgreSQL when DATABASE_URL is set (cluster mode; lib/kv/pg creates the schemas). A
 * database that cannot be reached at start-up is an UnreachableError.
 */
export async function openBackend(
  config: Pick<Config, "DATA_DIR" | "DATABASE_URL" | "POSITION_RETENTION_DAYS">,
): Promise<StoreBackend> {
  if (config.DATABASE_URL) return await openPostgresBackend(config.DATABASE_URL);
  const kv = await openStore(config.DATA_DIR);
  return {
    kind: "kv",
    kv,
    health: () => Promise.resolve("up"),
    close: () => Promise.resolve(kv.close()),
  };
}

async function openPostgresBackend(url: string): Promise<StoreBackend> {
  // Loaded only here: single mode starts without the pg client.
  const { openPostgresStore } = await import("./pg/store.ts");
  try {
    return await openPostgresStore(url);
  } catch (e) {
    if (isConnectionFailure(e)) throw new UnreachableError("PostgreSQL", withoutPassword(url), e);
    throw e;
  }
}

/** Allocates the next number of a named sequence; safe under concurrent callers. */
export async function nextSequence(kv: Deno.Kv, key: Deno.KvKey): Promise<number> {
  for (;;) {
    const current = await kv.get<number>(key);
    const next = (current.value ?? 0) + 1;
    const res = await kv.atomic().check(current).set(key, next).commit();
    if (res.ok) return next;
  }
}
