/**
 * PgKv: the subset of Deno.Kv the module stores use, over PostgreSQL (cluster mode, issue 23).
 * Keys are stored order-preserving (key_codec.ts) in their module schema's table
 * (schemas.ts), so get/list/atomic behave as on Deno KV; callers hold it typed as Deno.Kv.
 */
import { Buffer } from "node:buffer";
import type pg from "pg";
import { encodeKey } from "./key_codec.ts";
import { decodeValue } from "./value_codec.ts";
import { blockDay, tableOf } from "./schemas.ts";
import { LIVE, type Row, toVersionstamp } from "./rows.ts";
import { PgAtomicOperation } from "./atomic.ts";
import { PgListIterator } from "./list.ts";
import { Partitions } from "./partitions.ts";

export class PgKv {
  readonly partitions: Partitions;

  constructor(readonly pool: pg.Pool) {
    this.partitions = new Partitions(pool);
  }

  async get<T = unknown>(key: Deno.KvKey, _options?: unknown): Promise<Deno.KvEntryMaybe<T>> {
    const [entry] = await this.getMany<[T]>([key]);
    return entry as Deno.KvEntryMaybe<T>;
  }

  async getMany<T extends readonly unknown[]>(
    keys: readonly [...{ [K in keyof T]: Deno.KvKey }],
    _options?: unknown,
  ): Promise<{ [K in keyof T]: Deno.KvEntryMaybe<T[K]> }> {
    const byTable = new Map<string, { enc: Buffer; day?: string }[]>();
    const encs = keys.map((key) => {
      const table = tableOf(key);
      const enc = Buffer.from(encodeKey(key));
      const list = byTable.get(table.name) ?? [];
      list.push({ enc, day: table.partitioned ? blockDay(key) : undefined });
      byTable.set(table.name, list);
      return enc.toString("hex");
    });
    const found = new Map<string, Row>();
    for (const [name, group] of byTable) {
      // Blocks: the days let PostgreSQL probe only those days' partitions.
      const days = group.flatMap((g) => g.day ? [g.day] : []);
      const { rows } = await this.pool.query<Row>(
        `SELECT k, v, version FROM ${name} WHERE k = ANY($1::bytea[]) AND ${LIVE}` +
          (days.length ? " AND day = ANY($2::date[])" : ""),
        days.length ? [group.map((g) => g.enc), days] : [group.map((g) => g.enc)],
      );
      for (const r of rows) found.set(r.k.toString("hex"), r);
    }
    return keys.map((key, i) => {
      const row = found.get(encs[i]);
      return row
        ? { key, value: decodeValue(row.v), versionstamp: toVersionstamp(row.version) }
        : { key, value: null, versionstamp: null };
    }) as { [K in keyof T]: Deno.KvEntryMaybe<T[K]> };
  }

  async set(
    key: Deno.KvKey,
    value: unknown,
    options?: { expireIn?: number },
  ): Promise<Deno.KvCommitResult> {
    const res = await this.atomic().set(key, value, options).commit();
    return res as Deno.KvCommitResult;
  }

  async delete(key: Deno.KvKey): Promise<void> {
    await this.atomic().delete(key).commit();
  }

  list<T = unknown>(
    selector: Deno.KvListSelector,
    options?: Deno.KvListOptions,
  ): Deno.KvListIterator<T> {
    return new PgListIterator<T>(this.pool, selector, options) as unknown as Deno.KvListIterator<
      T
    >;
  }

  atomic(): Deno.AtomicOperation {
    return new PgAtomicOperation(this.pool, this.partitions) as unknown as Deno.AtomicOperation;
  }

  /** Deletes expired records (reads already hide them); the leader runs this periodically. */
  async purgeExpired(): Promise<number> {
    const { rows } = await this.pool.query<{ name: string }>(
      `SELECT table_schema || '.' || table_name AS name FROM information_schema.tables
        WHERE table_schema LIKE 'tp\\_%' AND table_name IN ('records', 'blocks')`,
    );
    let purged = 0;
    for (const { name } of rows) {
      const res = await this.pool.query(
        `DELETE FROM ${name} WHERE expires_at IS NOT NULL AND expires_at <= now()`,
      );
      purged += res.rowCount ?? 0;
    }
    return purged;
  }

  close(): void {
    // The pool is ended by the StoreBackend's close(); nothing per-kv to release.
  }

  /** Typed as Deno.Kv for the stores (they use only the subset implemented here). */
  asDenoKv(): Deno.Kv {
    return this as unknown as Deno.Kv;
  }
}
