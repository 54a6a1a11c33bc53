/**
 * The PostgreSQL store's housekeeping in cluster mode (issue 23), on the leader when it becomes
 * leader and then every hour (only one instance runs DDL and the big deletes):
 * - POSITION_RETENTION_DAYS: drops the positions partitions of days past the retention
 *   (lib/kv/pg/partitions.ts), so a day goes within an hour of expiring; unset: none dropped;
 * - records written with expireIn whose time has passed are deleted (reads already hide them;
 *   Deno KV deletes its own in the background).
 */
import type pg from "pg";
import { log } from "../log.ts";
import type { Leadership } from "../cluster/types.ts";
import type { StoreBackend } from "./backend.ts";
import { dropExpiredPositionPartitions } from "./pg/partitions.ts";

const retentionLog = log.area("store");

export interface PositionRetention {
  /** One pass now (when leading); the days dropped. */
  runOnce(now?: number): Promise<string[]>;
  stop(): void;
}

export function startPositionRetention(
  pool: pg.Pool,
  leader: Leadership,
  retentionDays: number | undefined,
  everyMs = 3_600_000,
  purgeExpired: () => Promise<number> = () => Promise.resolve(0),
): PositionRetention {
  let running: Promise<string[]> | undefined;
  const runOnce = async (now = Date.now()): Promise<string[]> => {
    if (!leader.isLeader()) return [];
    if (running) return await running; // one pass at a time
    running = (async () => {
      const purged = await purgeExpired();
      if (purged) retentionLog.info(`${purged} expired records deleted`);
      return retentionDays ? await dropExpiredPositionPartitions(pool, retentionDays, now) : [];
    })();
    try {
      const dropped = await running;
      if (dropped.length) {
        retentionLog.info(
          `positions of ${dropped.join(", ")} dropped (${retentionDays} days kept)`,
        );
      }
      return dropped;
    } catch (e) {
      retentionLog.error("dropping expired positions failed", e);
      return [];
    } finally {
      running = undefined;
    }
  };
  const timer = setInterval(() => void runOnce(), everyMs);
  Deno.unrefTimer(timer);
  const unlisten = leader.onChange((leading) => {
    if (leading) void runOnce();
  });
  if (leader.isLeader()) void runOnce();
  return {
    runOnce,
    stop() {
      clearInterval(timer);
      unlisten();
    },
  };
}

/**
 * main.ts's entry: the housekeeping job for a PostgreSQL backend; undefined on the KV file
 * (there the scheduled jobs delete expired blocks and Deno KV its expired records).
 */
export async function retainPositions(
  backend: StoreBackend,
  leader: Leadership,
  retentionDays: number | undefined,
): Promise<PositionRetention | undefined> {
  // The KV file: a daily job deletes the expired blocks instead (modules/system/jobs.ts).
  if (backend.kind !== "postgres") return undefined;
  const { pgPool } = await import("./pg/store.ts");
  const pgKv = (backend as { pgKv?: { purgeExpired(): Promise<number> } }).pgKv;
  return startPositionRetention(
    pgPool(backend),
    leader,
    retentionDays,
    3_600_000,
    () => pgKv?.purgeExpired() ?? Promise.resolve(0),
  );
}
