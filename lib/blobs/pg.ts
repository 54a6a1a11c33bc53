/**
 * Cluster mode's blob store: blobs in PostgreSQL, so every instance reads what any wrote. The
 * schema `blobs` is this store's own (lib/kv/pg keeps its per-module schemas apart): one row per
 * blob in `blobs.objects` and its bytes in 1 MB rows of `blobs.chunks`, written and read one
 * chunk at a time, so a video download never sits whole in memory.
 *
 * A put writes a new version's chunks and switches the object row to it in one transaction,
 * so a reader sees the old bytes or the new ones, never a mix, and a writer that dies leaves
 * nothing behind. A reader that loses its version mid-stream (replaced, deleted) gets an error.
 */
import pg from "pg";
import { Buffer } from "node:buffer";
import {
  type BlobInfo,
  type BlobStore,
  checkKey,
  checkPrefix,
  type StoredBlob,
  typeOfKey,
} from "./types.ts";

/** Bytes per chunk row. */
export const CHUNK_BYTES = 1024 * 1024;

/** The migration's advisory lock ("tp_blob" in ASCII); other locks use other keys. */
export const BLOBS_LOCK_KEY = BigInt("0x74705f626c6f62").toString();

const MIGRATION = `
CREATE SCHEMA IF NOT EXISTS blobs;
CREATE TABLE IF NOT EXISTS blobs.objects (
  key text COLLATE "C" PRIMARY KEY,
  version uuid NOT NULL,
  size bigint NOT NULL,
  type text NOT NULL,
  chunks integer NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS blobs.chunks (
  version uuid NOT NULL,
  seq integer NOT NULL,
  data bytea NOT NULL,
  PRIMARY KEY (version, seq)
);`;

export class PgBlobStore implements BlobStore {
  readonly kind = "postgres";
  private readonly pool: pg.Pool;
  private ready?: Promise<void>;

  constructor(url: string, opts: { max?: number } = {}) {
    // Idle connections never keep the process alive; a few suffice (uploads are rare).
    this.pool = new pg.Pool({ connectionString: url, max: opts.max ?? 4, allowExitOnIdle: true });
    this.pool.on("error", () => {}); // an idle client's lost connection: the next query reconnects
  }

  /** Creates the schema once per process (under the advisory lock: instances start together). */
  private migrate(): Promise<void> {
    this.ready ??= (async () => {
      const client = await this.pool.connect();
      try {
        await client.query("BEGIN");
        await client.query(`SELECT pg_advisory_xact_lock(${BLOBS_LOCK_KEY})`);
        await client.query(MIGRATION);
        await client.query("COMMIT");
      } catch (e) {
        await client.query("ROLLBACK").catch(() => {});
        throw e;
      } finally {
        client.release();
      }
    })().catch((e) => {
      this.ready = undefined; // retried by the next call
      throw e;
    });
    return this.ready;
  }

  async put(
    key: string,
    body: Uint8Array | ReadableStream<Uint8Array>,
    meta: { type?: string } = {},
  ): Promise<number> {
    checkKey(key);
    await this.migrate();
    const client = await this.pool.connect();
    const version = crypto.randomUUID();
    try {
      await client.query("BEGIN");
      let seq = 0, size = 0;
      const insert = async (bytes: Uint8Array) => {
        await client.query("INSERT INTO blobs.chunks (version, seq, data) VALUES ($1, $2, $3)", [
          version,
          seq++,
          Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
        ]);
        size += bytes.byteLength;
      };
      for await (const chunk of rechunk(body)) await insert(chunk);
      // The row lock orders two puts of one key; the loser's old version is the winner's.
      const old = await client.query<{ version: string }>(
        "SELECT version FROM blobs.objects WHERE key = $1 FOR UPDATE",
        [key],
      );
      await client.query(
        `INSERT INTO blobs.objects (key, version, size, type, chunks) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (key) DO UPDATE SET version = $2, size = $3, type = $4, chunks = $5,
           updated_at = now()`,
        [key, version, size, meta.type ?? typeOfKey(key), seq],
      );
      const previous = old.rows[0]?.version;
      if (previous) await client.query("DELETE FROM blobs.chunks WHERE version = $1", [previous]);
      await client.query("COMMIT");
      return size;
    } catch (e) {
      await client.query("ROLLBACK").catch(() => {});
      throw e;
    } finally {
      client.release();
    }
  }

  async putNew(key: string, bytes: Uint8Array, meta: { type?: string } = {}): Promise<boolean> {
    checkKey(key);
    if (bytes.length > CHUNK_BYTES) throw new Error("putNew takes at most one chunk");
    await this.migrate();
    const client = await this.pool.connect();
    const version = crypto.randomUUID();
    try {
      await client.query("BEGIN");
      const won = await client.query(
        `INSERT INTO blobs.objects (key, version, size, type, chunks) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (key) DO NOTHING`,
        [key, version, bytes.length, meta.type ?? typeOfKey(key), bytes.length ? 1 : 0],
      );
      if (won.rowCount && bytes.length) {
        await client.query("INSERT INTO blobs.chunks (version, seq, data) VALUES ($1, 0, $2)", [
          version,
          Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
        ]);
      }
      await client.query("COMMIT");
      return Boolean(won.rowCount);
    } catch (e) {
      await client.query("ROLLBACK").catch(() => {});
      throw e;
    } finally {
      client.release();
    }
  }

  async putFile(key: string, path: string, meta?: { type?: string }): Promise<number> {
    const file = await Deno.open(path);
    const size = await this.put(key, file.readable, meta);
    await Deno.remove(path).catch(() => {});
    return size;
  }

  async get(key: string): Promise<StoredBlob | null> {
    checkKey(key);
    await this.migrate();
    const { rows } = await this.pool.query<
      { version: string; size: string; type: string; chunks: number }
    >("SELECT version, size, type, chunks FROM blobs.objects WHERE key = $1", [key]);
    const row = rows[0];
    if (!row) return null;
    let seq = 0;
    const pool = this.pool;
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (seq >= row.chunks) return controller.close();
        const r = await pool.query<{ data: Buffer }>(
          "SELECT data FROM blobs.chunks WHERE version = $1 AND seq = $2",
          [row.version, seq++],
        );
        if (!r.rows[0]) return controller.error(new Error(`blob ${key} changed while read`));
        const data = r.rows[0].data;
        controller.enqueue(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
      },
    }, { highWaterMark: 0 });
    return { size: Number(row.size), type: row.type, stream };
  }

  async bytes(key: string): Promise<Uint8Array<ArrayBuffer> | null> {
    const blob = await this.get(key);
    if (!blob) return null;
    return new Uint8Array(await new Response(blob.stream).arrayBuffer());
  }

  async delete(key: string): Promise<void> {
    checkKey(key);
    await this.migrate();
    await this.pool.query(
      `WITH gone AS (DELETE FROM blobs.objects WHERE key = $1 RETURNING version)
       DELETE FROM blobs.chunks WHERE version IN (SELECT version FROM gone)`,
      [key],
    );
  }

  async list(prefix: string): Promise<BlobInfo[]> {
    checkPrefix(prefix);
    await this.migrate();
    const { rows } = await this.pool.query<{ key: string; size: string }>(
      "SELECT key, size FROM blobs.objects WHERE starts_with(key, $1) ORDER BY key",
      [prefix],
    );
    return rows.map((r: { key: string; size: string }) => ({ key: r.key, size: Number(r.size) }));
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

/** The body in CHUNK_BYTES pieces (the last one shorter); nothing more than a chunk is held. */
async function* rechunk(body: Uint8Array | ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  if (body instanceof Uint8Array) {
    for (let at = 0; at < body.length; at += CHUNK_BYTES) {
      yield body.subarray(at, at + CHUNK_BYTES);
    }
    return;
  }
  let buffer = new Uint8Array(CHUNK_BYTES), filled = 0;
  for await (const piece of body) {
    let at = 0;
    while (at < piece.length) {
      const n = Math.min(piece.length - at, CHUNK_BYTES - filled);
      buffer.set(piece.subarray(at, at + n), filled);
      filled += n;
      at += n;
      if (filled === CHUNK_BYTES) {
        yield buffer;
        buffer = new Uint8Array(CHUNK_BYTES);
        filled = 0;
      }
    }
  }
  if (filled) yield buffer.subarray(0, filled);
}
