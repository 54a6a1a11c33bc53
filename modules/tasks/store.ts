/**
 * The task centre's KV keys — the only file that touches them. A result file is kept as
 * chunks of at most 60 KiB (KV values are capped at 64 KiB), written a few per commit, so the
 * same layout works on a SQL store later (one row per chunk) without a file system.
 */
import type { TaskRecord } from "./model.ts";

/** Bytes of one stored chunk. */
export const CHUNK_BYTES = 60 * 1024;
/** Chunks per commit: 10 × 60 KiB stays under KV's 800 KiB per atomic operation. */
const CHUNKS_PER_COMMIT = 10;

const K = {
  record: (id: string) => ["tasks", "record", id],
  records: ["tasks", "record"],
  owned: (ownerId: string, id?: string) =>
    id === undefined ? ["tasks", "owner", ownerId] : ["tasks", "owner", ownerId, id],
  chunk: (id: string, n: number) => ["tasks", "chunk", id, n],
  chunks: (id: string) => ["tasks", "chunk", id],
};

export class TaskStore {
  constructor(private readonly kv: Deno.Kv) {}

  /** Creates or replaces a record (the owner index is written with it). */
  async save(t: TaskRecord): Promise<void> {
    const res = await this.kv.atomic().set(K.record(t.id), t).set(K.owned(t.ownerId, t.id), 1)
      .commit();
    if (!res.ok) throw new Error("task commit failed");
  }

  async get(id: string): Promise<TaskRecord | null> {
    return (await this.kv.get<TaskRecord>(K.record(id))).value;
  }

  /** The owner's task ids, newest first. */
  async idsOf(ownerId: string): Promise<string[]> {
    const ids: string[] = [];
    for await (const e of this.kv.list({ prefix: K.owned(ownerId) }, { reverse: true })) {
      ids.push(e.key.at(-1) as string);
    }
    return ids;
  }

  /** Records by id, in the order asked (missing ones left out). */
  async many(ids: string[]): Promise<TaskRecord[]> {
    const out: TaskRecord[] = [];
    for (let i = 0; i < ids.length; i += 10) {
      const got = await this.kv.getMany<TaskRecord[]>(ids.slice(i, i + 10).map(K.record));
      for (const e of got) if (e.value) out.push(e.value);
    }
    return out;
  }

  /** Every record whose id is below `idBelow` (created before that time), oldest first. */
  async *olderThan(idBelow: string): AsyncGenerator<TaskRecord> {
    const iter = this.kv.list<TaskRecord>({ start: K.record(""), end: K.record(idBelow) });
    for await (const e of iter) yield e.value;
  }

  /** Every record (start-up recovery of interrupted tasks). */
  async *all(): AsyncGenerator<TaskRecord> {
    for await (const e of this.kv.list<TaskRecord>({ prefix: K.records })) yield e.value;
  }

  /** Stores a file as chunks; answers how many. */
  async writeFile(id: string, bytes: Uint8Array): Promise<number> {
    const count = Math.ceil(bytes.length / CHUNK_BYTES);
    for (let first = 0; first < count; first += CHUNKS_PER_COMMIT) {
      const op = this.kv.atomic();
      for (let n = first; n < Math.min(count, first + CHUNKS_PER_COMMIT); n++) {
        op.set(K.chunk(id, n), bytes.subarray(n * CHUNK_BYTES, (n + 1) * CHUNK_BYTES));
      }
      const res = await op.commit();
      if (!res.ok) throw new Error("task file commit failed");
    }
    return count;
  }

  /** The file's chunks in order, read a few at a time (never the whole file in memory). */
  readFile(id: string): ReadableStream<Uint8Array> {
    const iter = this.kv.list<Uint8Array>({ prefix: K.chunks(id) }, { batchSize: 8 });
    return new ReadableStream({
      async pull(controller) {
        const next = await iter.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value.value);
      },
    });
  }

  /** Removes a task: its chunks, its record and its owner index entry. */
  async delete(t: Pick<TaskRecord, "id" | "ownerId">): Promise<void> {
    let op = this.kv.atomic(), pending = 0;
    for await (const e of this.kv.list({ prefix: K.chunks(t.id) })) {
      op.delete(e.key);
      if (++pending === 100) {
        await op.commit();
        op = this.kv.atomic();
        pending = 0;
      }
    }
    op.delete(K.record(t.id)).delete(K.owned(t.ownerId, t.id));
    await op.commit();
  }
}
