/**
 * kv.atomic() over PostgreSQL with Deno KV's check semantics. In one transaction: lock every
 * key the commit touches (its hash bucket's row in tp_meta.key_locks, FOR UPDATE in bucket
 * order, in one statement, so concurrent commits on overlapping keys queue instead of
 * deadlocking; an absent key is locked as well as an existing one), read the checked keys'
 * versions (READ COMMITTED: this statement sees every commit that held those locks before),
 * fail if any differs, then write every mutation with one versionstamp from the sequence.
 * Plain kv.set/delete commit through here too, so no write slips between a check and its write.
 */
import { Buffer } from "node:buffer";
import type pg from "pg";
import { encodeKey } from "./key_codec.ts";
import { decodeValue, encodeValue } from "./value_codec.ts";
import { blockDay, type KeyTable, tableOf } from "./schemas.ts";
import { LIVE, type Row, toVersionstamp } from "./rows.ts";
import type { Partitions } from "./partitions.ts";
import { KEY_LOCK_BUCKETS } from "./migrations.ts";

type Mutation =
  | { type: "set"; key: Deno.KvKey; value: unknown; expireIn?: number }
  | { type: "delete"; key: Deno.KvKey }
  | { type: "sum" | "min" | "max"; key: Deno.KvKey; value: Deno.KvU64 };

/** What a key ends up as after the commit's mutations, in order. */
interface Final {
  key: Deno.KvKey;
  enc: Buffer;
  table: KeyTable;
  /** undefined = deleted. */
  value?: unknown;
  expireIn?: number;
}

/** The key's lock bucket: 32-bit FNV-1a of the encoded key, modulo the bucket count. */
function keyBucket(bytes: Uint8Array): number {
  let h = 0x811c9dc5;
  for (const b of bytes) h = Math.imul(h ^ b, 0x01000193);
  return (h >>> 0) % KEY_LOCK_BUCKETS;
}

export class PgAtomicOperation {
  #checks: Deno.AtomicCheck[] = [];
  #mutations: Mutation[] = [];

  constructor(private readonly pool: pg.Pool, private readonly partitions: Partitions) {}

  check(...checks: Deno.AtomicCheck[]): this {
    for (const c of checks) {
      tableOf(c.key);
      this.#checks.push(c);
    }
    return this;
  }

  set(key: Deno.KvKey, value: unknown, options?: { expireIn?: number }): this {
    return this.#add({ type: "set", key, value, expireIn: options?.expireIn });
  }

  delete(key: Deno.KvKey): this {
    return this.#add({ type: "delete", key });
  }

  sum(key: Deno.KvKey, n: bigint): this {
    return this.#add({ type: "sum", key, value: new Deno.KvU64(n) });
  }

  min(key: Deno.KvKey, n: bigint): this {
    return this.#add({ type: "min", key, value: new Deno.KvU64(n) });
  }

  max(key: Deno.KvKey, n: bigint): this {
    return this.#add({ type: "max", key, value: new Deno.KvU64(n) });
  }

  mutate(...mutations: Deno.KvMutation[]): this {
    for (const m of mutations) {
      if (m.type === "set") this.set(m.key, m.value, { expireIn: m.expireIn });
      else if (m.type === "delete") this.delete(m.key);
      else this.#add({ type: m.type, key: m.key, value: m.value });
    }
    return this;
  }

  enqueue(): this {
    throw new Error("PostgreSQL store: queues (enqueue) are not supported");
  }

  #add(m: Mutation): this {
    if (!m.key.length) throw new TypeError("Key cannot be empty");
    tableOf(m.key);
    this.#mutations.push(m);
    return this;
  }

  async commit(): Promise<Deno.KvCommitResult | Deno.KvCommitError> {
    const days = this.#mutations.filter((m) => m.type !== "delete" && tableOf(m.key).partitioned)
      .map((m) => blockDay(m.key));
    await this.partitions.ensure(days);
    for (let attempt = 0;; attempt++) {
      try {
        return await this.#commitOnce();
      } catch (e) {
        const code = (e as { code?: string }).code;
        // A partition dropped by another instance's retention job: re-create it once.
        if (code === "23514" && attempt === 0) {
          for (const d of days) this.partitions.forget(d);
          await this.partitions.ensure(days);
          continue;
        }
        if (code === "40P01" && attempt < 5) continue; // deadlock victim: try again
        throw e;
      }
    }
  }

  async #commitOnce(): Promise<Deno.KvCommitResult | Deno.KvCommitError> {
    const encoded = new Map<string, { key: Deno.KvKey; enc: Buffer }>();
    const encode = (key: Deno.KvKey) => {
      const enc = Buffer.from(encodeKey(key));
      const id = enc.toString("hex");
      if (!encoded.has(id)) encoded.set(id, { key, enc });
      return id;
    };
    for (const c of this.#checks) encode(c.key);
    for (const m of this.#mutations) encode(m.key);
    const buckets = [...new Set([...encoded.values()].map((e) => keyBucket(e.enc)))];
    const needValues = new Set(
      this.#mutations.filter((m) => m.type !== "set" && m.type !== "delete").map((m) =>
        encode(m.key)
      ),
    );
    const client = await this.pool.connect();
    try {
      await client.query("BEGIN");
      await client.query(
        "SELECT bucket FROM tp_meta.key_locks WHERE bucket = ANY($1::int[]) ORDER BY bucket FOR UPDATE",
        [buckets],
      );
      const checkedOrSummed = new Set([...this.#checks.map((c) => encode(c.key)), ...needValues]);
      const current = await readCurrent(client, [...checkedOrSummed].map((id) => encoded.get(id)!));
      for (const c of this.#checks) {
        const row = current.get(encode(c.key));
        const stamp = row ? toVersionstamp(row.version) : null;
        if (stamp !== (c.versionstamp ?? null)) {
          await client.query("ROLLBACK");
          return { ok: false };
        }
      }
      const finals = this.#apply(encode, encoded, current);
      const { rows } = await client.query<{ v: string }>(
        "SELECT nextval('tp_meta.versionstamp') AS v",
      );
      await writeFinals(client, finals, rows[0].v);
      await client.query("COMMIT");
      return { ok: true, versionstamp: toVersionstamp(rows[0].v) };
    } catch (e) {
      await client.query("ROLLBACK").catch(() => {});
      throw e;
    } finally {
      client.release();
    }
  }

  /** Folds the mutations, in order, into each key's final state (sum/min/max on KvU64). */
  #apply(
    encode: (key: Deno.KvKey) => string,
    encoded: Map<string, { key: Deno.KvKey; enc: Buffer }>,
    current: Map<string, Row>,
  ): Final[] {
    const finals = new Map<string, Final>();
    for (const m of this.#mutations) {
      const id = encode(m.key);
      const { key, enc } = encoded.get(id)!;
      const base = { key, enc, table: tableOf(key) };
      if (m.type === "set") finals.set(id, { ...base, value: m.value, expireIn: m.expireIn });
      else if (m.type === "delete") finals.set(id, base);
      else {
        const prior = finals.has(id)
          ? finals.get(id)!.value
          : current.has(id)
          ? decodeValue(current.get(id)!.v)
          : undefined;
        finals.set(id, { ...base, value: combine(m.type, prior, m.value.value) });
      }
    }
    return [...finals.values()];
  }
}

function combine(type: "sum" | "min" | "max", prior: unknown, n: bigint): Deno.KvU64 {
  if (prior === undefined) return new Deno.KvU64(n);
  if (!(prior instanceof Deno.KvU64)) {
    throw new TypeError(`Failed to perform '${type}' mutation on a non-U64 value in the database`);
  }
  const p = prior.value;
  if (type === "sum") return new Deno.KvU64((p + n) & 0xffffffffffffffffn);
  return new Deno.KvU64(type === "min" ? (p < n ? p : n) : (p > n ? p : n));
}

/** The live rows of the given keys, by hex id. */
async function readCurrent(
  client: pg.PoolClient,
  keys: { key: Deno.KvKey; enc: Buffer }[],
): Promise<Map<string, Row>> {
  const out = new Map<string, Row>();
  for (const [table, group] of groupByTable(keys)) {
    // Blocks: the days let PostgreSQL probe only those days' partitions.
    const days = tableOf(group[0].key).partitioned ? group.map((g) => blockDay(g.key)) : [];
    const { rows } = await client.query<Row>(
      `SELECT k, v, version FROM ${table} WHERE k = ANY($1::bytea[]) AND ${LIVE}` +
        (days.length ? " AND day = ANY($2::date[])" : ""),
      days.length ? [group.map((g) => g.enc), days] : [group.map((g) => g.enc)],
    );
    for (const r of rows) out.set(r.k.toString("hex"), r);
  }
  return out;
}

function groupByTable<T extends { key: Deno.KvKey }>(items: T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const name = tableOf(item.key).name;
    const list = groups.get(name) ?? [];
    list.push(item);
    groups.set(name, list);
  }
  return groups;
}

/** Batched writes: one INSERT … SELECT unnest(…) ON CONFLICT per table, one DELETE per table. */
async function writeFinals(client: pg.PoolClient, finals: Final[], version: string) {
  const now = Date.now();
  for (const [name, group] of groupByTable(finals)) {
    const partitioned = group[0].table.partitioned;
    const sets = group.filter((f) => f.value !== undefined);
    const deletes = group.filter((f) => f.value === undefined);
    if (sets.length) {
      const ks = sets.map((f) => f.enc);
      const vs = sets.map((f) => encodeValue(f.value));
      const es = sets.map((f) => f.expireIn ? new Date(now + f.expireIn).toISOString() : null);
      if (partitioned) {
        await client.query(
          `INSERT INTO ${name} (k, day, v, version, expires_at)
           SELECT k, d, v, $4, e FROM unnest($1::bytea[], $2::date[], $3::bytea[], $5::timestamptz[])
             AS u(k, d, v, e)
           ON CONFLICT (k, day) DO UPDATE
             SET v = excluded.v, version = excluded.version, expires_at = excluded.expires_at`,
          [ks, sets.map((f) => blockDay(f.key)), vs, version, es],
        );
      } else {
        await client.query(
          `INSERT INTO ${name} (k, v, version, expires_at)
           SELECT k, v, $3, e FROM unnest($1::bytea[], $2::bytea[], $4::timestamptz[]) AS u(k, v, e)
           ON CONFLICT (k) DO UPDATE
             SET v = excluded.v, version = excluded.version, expires_at = excluded.expires_at`,
          [ks, vs, version, es],
        );
      }
    }
    if (deletes.length) {
      await client.query(`DELETE FROM ${name} WHERE k = ANY($1::bytea[])`, [
        deletes.map((f) => f.enc),
      ]);
    }
  }
}
