/**
 * The business log's KV keys, the only file that touches them. An entry is written once per
 * audience account (the actor's owner and each ancestor), so a caller's list is one range
 * read of its own prefix and a sibling's entries are never read; ["businessLog", "all"]
 * lists each entry's audience for the removal of old entries.
 */
import type { BusinessLogEntry } from "./model.ts";

const K = {
  seen: (viewerId: string, id: string) => ["businessLog", "seen", viewerId, id],
  seenAll: (viewerId: string) => ["businessLog", "seen", viewerId],
  all: (id: string) => ["businessLog", "all", id],
};

/** Keys per commit when removing (KV allows 1000 mutations per atomic operation). */
const DELETES_PER_COMMIT = 200;

export class BusinessLogStore {
  constructor(private readonly kv: Deno.Kv) {}

  /** Writes one entry for every audience account, in one commit. */
  async add(entry: BusinessLogEntry, audience: string[]): Promise<void> {
    const op = this.kv.atomic().set(K.all(entry.id), audience);
    for (const viewer of audience) op.set(K.seen(viewer, entry.id), entry);
    const res = await op.commit();
    if (!res.ok) throw new Error("business log commit failed");
  }

  /** The entries a viewer sees between two ids (time-ordered), newest first. */
  async *newestFirst(viewerId: string, fromId: string, toId: string) {
    const iter = this.kv.list<BusinessLogEntry>({
      start: K.seen(viewerId, fromId),
      end: K.seen(viewerId, toId),
    }, { reverse: true, batchSize: 200 });
    for await (const e of iter) yield e.value;
  }

  /** Removes every entry whose id is below `idBelow`; answers how many operations went. */
  async removeBefore(idBelow: string): Promise<number> {
    let removed = 0;
    let op = this.kv.atomic(), pending = 0;
    const iter = this.kv.list<string[]>({ start: K.all(""), end: K.all(idBelow) });
    for await (const e of iter) {
      const id = e.key.at(-1) as string;
      for (const viewer of e.value) op.delete(K.seen(viewer, id));
      op.delete(e.key);
      pending += e.value.length + 1;
      removed++;
      if (pending >= DELETES_PER_COMMIT) {
        await op.commit();
        op = this.kv.atomic();
        pending = 0;
      }
    }
    if (pending) await op.commit();
    return removed;
  }
}
