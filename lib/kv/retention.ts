/**
 * POSITION_RETENTION_DAYS in cluster mode (issue 23): the leader drops the positions
 * partitions of days past the retention (lib/kv/pg/partitions.ts), when it becomes leader and
 * then every hour, so a day goes within an hour of expiring and only one instance runs DDL.
 * Unset: nothing is dropped.
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
  retentionDays: number,
  everyMs = 3_600_000,
): PositionRetention {
  let running: Promise<string[]> | undefined;
  const runOnce = async (now = Date.now()): Promise<string[]> => {
    if (!leader.isLeader()) return [];
    if (running) return await running; // one pass at a time
    running = dropExpiredPositionPartitions(pool, retentionDays, now);
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
 * main.ts's entry: the retention job for a PostgreSQL backend when `retentionDays` is set;
 * undefined otherwise (on the KV file the scheduled jobs delete expired blocks).
 */
export async function retainPositions(
  backend: StoreBackend,
  leader: Leadership,
  retentionDays: number | undefined,
): Promise<PositionRetention | undefined> {
  if (retentionDays === undefined) return undefined;
  // The KV file: a daily job deletes the expired blocks instead (modules/system/jobs.ts).
  if (backend.kind !== "postgres") return undefined;
  const { pgPool } = await import("./pg/store.ts");
  return startPositionRetention(pgPool(backend), leader, retentionDays);
}
