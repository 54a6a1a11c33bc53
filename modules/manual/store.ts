/**
 * The help documents' KV keys, the only file that touches them. A document's bytes are kept
 * as chunks of at most 60 KiB (KV values are capped at 64 KiB), ten per commit, as the task
 * centre keeps its files.
 */
import type { HelpDocument } from "./model.ts";

const CHUNK_BYTES = 60 * 1024;
const CHUNKS_PER_COMMIT = 10;

const K = {
  doc: (id: string) => ["manual", "doc", id],
  docs: ["manual", "doc"],
  chunk: (id: string, n: number) => ["manual", "chunk", id, n],
  chunks: (id: string) => ["manual", "chunk", id],
};

export class ManualStore {
  constructor(private readonly kv: Deno.Kv) {}

  /** Stores the bytes, then the record: a document is listed only once it is complete. */
  async add(doc: HelpDocument, bytes: Uint8Array): Promise<void> {
    const count = Math.ceil(bytes.length / CHUNK_BYTES);
    for (let first = 0; first < count; first += CHUNKS_PER_COMMIT) {
      const op = this.kv.atomic();
      for (let n = first; n < Math.min(count, first + CHUNKS_PER_COMMIT); n++) {
        op.set(K.chunk(doc.id, n), bytes.subarray(n * CHUNK_BYTES, (n + 1) * CHUNK_BYTES));
      }
      if (!(await op.commit()).ok) throw new Error("manual chunk commit failed");
    }
    await this.kv.set(K.doc(doc.id), doc);
  }

  async get(id: string): Promise<HelpDocument | null> {
    return (await this.kv.get<HelpDocument>(K.doc(id))).value;
  }

  /** Every document, oldest first (ids are time-ordered). */
  async list(): Promise<HelpDocument[]> {
    const out: HelpDocument[] = [];
    for await (const e of this.kv.list<HelpDocument>({ prefix: K.docs })) out.push(e.value);
    return out;
  }

  /** The bytes in order, read a few chunks at a time. */
  read(id: string): ReadableStream<Uint8Array> {
    const iter = this.kv.list<Uint8Array>({ prefix: K.chunks(id) }, { batchSize: 8 });
    return new ReadableStream({
      async pull(controller) {
        const next = await iter.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value.value);
      },
    });
  }

  /** Removes the record first (the document disappears at once), then its chunks. */
  async delete(id: string): Promise<void> {
    await this.kv.delete(K.doc(id));
    let op = this.kv.atomic(), pending = 0;
    for await (const e of this.kv.list({ prefix: K.chunks(id) })) {
      op.delete(e.key);
      if (++pending === 200) {
        await op.commit();
        op = this.kv.atomic();
        pending = 0;
      }
    }
    if (pending) await op.commit();
  }
}
