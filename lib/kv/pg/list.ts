/**
 * kv.list over PostgreSQL: a selector becomes a byte range [lo, hi) over the encoded keys,
 * read in batches (keyset pagination, never OFFSET) from the table(s) that range touches.
 */
import { Buffer } from "node:buffer";
import type pg from "pg";
import { compareBytes, decodeKey, encodeKey, prefixEnd } from "./key_codec.ts";
import { decodeValue } from "./value_codec.ts";
import { BLOCKS_TABLE, type KeyTable, MODULE_PREFIXES, moduleOf, schemaName } from "./schemas.ts";
import { LIVE, type Row, toVersionstamp } from "./rows.ts";

const DEFAULT_BATCH = 100;
const MAX_BATCH = 1000;

export interface ByteRange {
  lo: Uint8Array;
  hi: Uint8Array;
}

/** One byte after a key: the smallest key that sorts after it (and its descendants' start). */
const after = (k: Uint8Array) => {
  const out = new Uint8Array(k.length + 1);
  out.set(k);
  return out;
};

/** The byte range a selector covers, as Deno KV defines it. */
export function selectorRange(selector: Deno.KvListSelector): ByteRange {
  const s = selector as { prefix?: Deno.KvKey; start?: Deno.KvKey; end?: Deno.KvKey };
  if (s.prefix) {
    const p = encodeKey(s.prefix);
    return {
      lo: s.start ? encodeKey(s.start) : after(p),
      hi: s.end ? encodeKey(s.end) : prefixEnd(p),
    };
  }
  if (!s.start || !s.end) throw new TypeError("A list selector needs a prefix, or start and end");
  return { lo: encodeKey(s.start), hi: encodeKey(s.end) };
}

/** The tables holding keys of a selector's range (positions may span records and blocks). */
export function selectorTables(selector: Deno.KvListSelector, range: ByteRange): KeyTable[] {
  const s = selector as { prefix?: Deno.KvKey; start?: Deno.KvKey; end?: Deno.KvKey };
  const first = s.prefix?.length ? s.prefix[0] : s.start?.[0];
  const withinOne = s.prefix?.length || (first !== undefined && s.end?.[0] === first);
  // A listing across modules (a whole-store dump, as some tests take) merges every table.
  if (!withinOne) return allTables();
  const module = moduleOf(first);
  const records = { name: `${schemaName(module)}.records`, partitioned: false };
  if (module !== "positions") return [records];
  const blocksLo = after(encodeKey(["pos", "blk"]));
  const blocksHi = prefixEnd(encodeKey(["pos", "blk"]));
  const inBlocks = compareBytes(range.lo, blocksLo) >= 0 && compareBytes(range.hi, blocksHi) <= 0;
  const touchesBlocks = compareBytes(range.lo, blocksHi) < 0 &&
    compareBytes(range.hi, blocksLo) > 0;
  if (inBlocks) return [BLOCKS_TABLE];
  return touchesBlocks ? [records, BLOCKS_TABLE] : [records];
}

function allTables(): KeyTable[] {
  return [
    ...Object.keys(MODULE_PREFIXES).map((m) => ({
      name: `${schemaName(m)}.records`,
      partitioned: false,
    })),
    BLOCKS_TABLE,
  ];
}

/**
 * The async iterator kv.list returns. Its `cursor` is Deno KV's: base64 of the last key
 * (relative to the prefix when listing by prefix), "" once the listing is exhausted.
 */
export class PgListIterator<T> implements AsyncIterableIterator<Deno.KvEntry<T>> {
  #range: ByteRange;
  #tables: KeyTable[];
  #reverse: boolean;
  #remaining: number;
  #batch: number;
  #buffer: Deno.KvEntry<T>[] = [];
  #exhausted = false;
  #last: Uint8Array | null = null;
  #started = false;
  #done = false;
  /** Encoded prefix a cursor is relative to (empty for start/end selectors). */
  #cursorBase: Uint8Array;

  constructor(
    private readonly pool: pg.Pool,
    selector: Deno.KvListSelector,
    options: Deno.KvListOptions = {},
  ) {
    this.#range = selectorRange(selector);
    this.#tables = selectorTables(selector, this.#range);
    this.#reverse = options.reverse ?? false;
    this.#remaining = options.limit ?? Infinity;
    this.#batch = Math.min(options.batchSize ?? options.limit ?? DEFAULT_BATCH, MAX_BATCH);
    const prefix = (selector as { prefix?: Deno.KvKey }).prefix;
    this.#cursorBase = prefix ? encodeKey(prefix) : new Uint8Array();
    if (options.cursor) {
      const tail = Buffer.from(options.cursor, "base64url");
      const k = new Uint8Array(this.#cursorBase.length + tail.length);
      k.set(this.#cursorBase);
      k.set(tail, this.#cursorBase.length);
      if (this.#reverse) this.#range.hi = k;
      else this.#range.lo = after(k);
    }
  }

  get cursor(): string {
    if (!this.#started) throw new Error("Cannot get cursor before first iteration");
    if (this.#done || !this.#last) return "";
    // Deno KV's cursors are URL-safe base64 with padding.
    const b64 = Buffer.from(this.#last.subarray(this.#cursorBase.length)).toString("base64url");
    return b64.padEnd(Math.ceil(b64.length / 4) * 4, "=");
  }

  async next(): Promise<IteratorResult<Deno.KvEntry<T>, undefined>> {
    this.#started = true;
    if (this.#remaining <= 0) return { done: true, value: undefined };
    if (!this.#buffer.length && !this.#exhausted) await this.#fetch();
    const entry = this.#buffer.shift();
    if (!entry) {
      this.#done = true;
      return { done: true, value: undefined };
    }
    this.#remaining--;
    this.#last = encodeKey(entry.key);
    return { done: false, value: entry };
  }

  async #fetch(): Promise<void> {
    const size = Math.max(1, Math.min(this.#batch, this.#remaining));
    const order = this.#reverse ? "DESC" : "ASC";
    const from = this.#tables.length === 1
      ? this.#tables[0].name
      : `(${
        this.#tables.map((t) => `SELECT k, v, version, expires_at FROM ${t.name}`)
          .join(" UNION ALL ")
      }) u`;
    const { rows } = await this.pool.query<Row>(
      `SELECT k, v, version FROM ${from} WHERE k >= $1 AND k < $2 AND ${LIVE}
       ORDER BY k ${order} LIMIT $3`,
      [Buffer.from(this.#range.lo), Buffer.from(this.#range.hi), size],
    );
    if (rows.length < size) this.#exhausted = true;
    for (const row of rows) {
      this.#buffer.push({
        key: decodeKey(row.k),
        value: decodeValue(row.v) as T,
        versionstamp: toVersionstamp(row.version),
      });
    }
    const last = rows.at(-1)?.k;
    if (last) {
      if (this.#reverse) this.#range.hi = new Uint8Array(last);
      else this.#range.lo = after(last);
    }
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<Deno.KvEntry<T>> {
    return this;
  }
}
