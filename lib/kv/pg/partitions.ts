/**
 * Daily partitions of tp_positions.blocks: created on demand before a commit writes a block
 * of a new day, dropped whole by the retention job (POSITION_RETENTION_DAYS).
 */
import type pg from "pg";

const PARENT = "tp_positions.blocks";
/** Arbitrary constant: serializes partition DDL between instances. */
const PARTITION_LOCK = 7_230_003;

const partitionName = (day: string) => `blocks_${day.replaceAll("-", "")}`;

function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

/** Creates the partitions of the given days that do not exist yet; remembers known ones. */
export class Partitions {
  #known = new Set<string>();

  constructor(private readonly pool: pg.Pool) {}

  async ensure(days: Iterable<string>): Promise<void> {
    const missing = [...new Set(days)].filter((d) => !this.#known.has(d));
    if (!missing.length) return;
    const client = await this.pool.connect();
    try {
      await client.query("BEGIN");
      await client.query("SELECT pg_advisory_xact_lock($1)", [PARTITION_LOCK]);
      for (const day of missing) {
        if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) throw new Error(`bad partition day ${day}`);
        await client.query(
          `CREATE TABLE IF NOT EXISTS tp_positions.${partitionName(day)} PARTITION OF ${PARENT}
           FOR VALUES FROM ('${day}') TO ('${nextDay(day)}')`,
        );
      }
      await client.query("COMMIT");
      for (const day of missing) this.#known.add(day);
    } catch (e) {
      await client.query("ROLLBACK").catch(() => {});
      throw e;
    } finally {
      client.release();
    }
  }

  /** Forgets a dropped day so a late write re-creates it. */
  forget(day: string): void {
    this.#known.delete(day);
  }
}

/** The days that have a partition, oldest first. */
export async function partitionDays(pool: pg.Pool): Promise<string[]> {
  const { rows } = await pool.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_inherits i
       JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = '${PARENT}'::regclass ORDER BY 1`,
  );
  return rows.map((r: { name: string }) =>
    r.name.replace(/^blocks_(\d{4})(\d{2})(\d{2})$/, "$1-$2-$3")
  );
}

/**
 * Drops the positions partitions whose whole day is older than `retentionDays` before `now`
 * (the leader's daily job calls this when POSITION_RETENTION_DAYS is set). Returns the days
 * dropped. A block stays readable until its day is dropped, so a track is never cut mid-day.
 */
export async function dropExpiredPositionPartitions(
  pool: pg.Pool,
  retentionDays: number,
  now = Date.now(),
): Promise<string[]> {
  if (!(retentionDays > 0)) return [];
  const cutoff = new Date(Math.floor(now / 86_400_000 - retentionDays) * 86_400_000)
    .toISOString().slice(0, 10);
  const dropped: string[] = [];
  for (const day of await partitionDays(pool)) {
    if (day >= cutoff) continue;
    await pool.query(`DROP TABLE IF EXISTS tp_positions.${partitionName(day)}`);
    dropped.push(day);
  }
  return dropped;
}
