/**
 * Versioned schema migrations, applied at start-up under a session advisory lock so several
 * instances starting at once apply each exactly once (the others wait, then find it done).
 * Append new migrations at the end; never edit an applied one.
 */
import type pg from "pg";
import { MODULE_PREFIXES, schemaName } from "./schemas.ts";

export interface Migration {
  id: string;
  sql: string;
}

/** Arbitrary constant: the advisory lock key that serializes migrations. */
const MIGRATION_LOCK = 7_230_001;

const META = `
CREATE SCHEMA IF NOT EXISTS tp_meta;
CREATE SEQUENCE IF NOT EXISTS tp_meta.versionstamp;`;

function recordsTable(module: string): string {
  const schema = schemaName(module);
  return `CREATE SCHEMA IF NOT EXISTS ${schema};
CREATE TABLE IF NOT EXISTS ${schema}.records (
  k bytea PRIMARY KEY,
  v bytea NOT NULL,
  version bigint NOT NULL,
  expires_at timestamptz NULL
);
CREATE INDEX IF NOT EXISTS records_expiring ON ${schema}.records (expires_at)
  WHERE expires_at IS NOT NULL;`;
}

const BLOCKS = `CREATE TABLE IF NOT EXISTS tp_positions.blocks (
  k bytea NOT NULL,
  day date NOT NULL,
  v bytea NOT NULL,
  version bigint NOT NULL,
  expires_at timestamptz NULL,
  PRIMARY KEY (k, day)
) PARTITION BY RANGE (day);`;

/**
 * Commits lock the keys they touch as rows of this table (FOR UPDATE, in bucket order): row
 * locks live in the tuples, not in the shared lock table, so a commit of thousands of keys
 * cannot exhaust max_locks_per_transaction as that many advisory locks would.
 */
export const KEY_LOCK_BUCKETS = 65_536;
const KEY_LOCKS = `CREATE TABLE IF NOT EXISTS tp_meta.key_locks (bucket int PRIMARY KEY);
INSERT INTO tp_meta.key_locks SELECT generate_series(0, ${KEY_LOCK_BUCKETS - 1})
  ON CONFLICT DO NOTHING;`;

/** Every migration, in order. A module added later gets a new migration appended. */
export const MIGRATIONS: readonly Migration[] = [
  { id: "0001_meta", sql: META },
  ...Object.keys(MODULE_PREFIXES).sort().map((module) => ({
    id: `0002_${module}_records`,
    sql: recordsTable(module),
  })),
  { id: "0003_positions_blocks", sql: BLOCKS },
  { id: "0004_key_locks", sql: KEY_LOCKS },
];

/** Applies the migrations not yet recorded in tp_meta.migrations; returns the ids applied. */
export async function migrate(pool: pg.Pool): Promise<string[]> {
  const client = await pool.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
    try {
      await client.query(`CREATE SCHEMA IF NOT EXISTS tp_meta;
        CREATE TABLE IF NOT EXISTS tp_meta.migrations (
          id text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
      const done = new Set(
        (await client.query<{ id: string }>("SELECT id FROM tp_meta.migrations")).rows
          .map((r: { id: string }) => r.id),
      );
      const applied: string[] = [];
      for (const m of MIGRATIONS) {
        if (done.has(m.id)) continue;
        await client.query("BEGIN");
        try {
          await client.query(m.sql);
          await client.query("INSERT INTO tp_meta.migrations (id) VALUES ($1)", [m.id]);
          await client.query("COMMIT");
        } catch (e) {
          await client.query("ROLLBACK");
          throw e;
        }
        applied.push(m.id);
      }
      return applied;
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK]);
    }
  } finally {
    client.release();
  }
}
