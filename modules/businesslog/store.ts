/**
 * The business log's KV keys, the only file that touches them. An entry is written once per
 * audience account (the actor's owner and each ancestor), so a caller's list is one range
 * read of its own prefix and a sibling's entries are never read; ["businessLog", "all"]
 * lists each entry's audience for the removal of old entries. A counter per viewer and UTC
 * day gives a page's total without reading every entry of the range.
 */
import type { BusinessLogEntry } from "./model.ts";

const K = {
  seen: (viewerId: string, id: string) => ["businessLog", "seen", viewerId, id],
  seenAll: (viewerId: string) => ["businessLog", "seen", viewerId],
  all: (id: string) => ["businessLog", "all", id],
  day: (viewerId: string, day: string) => ["businessLog", "day", viewerId, day],
};

/** The UTC day of an id or ISO time ("2026-11-26"). */
const dayOf = (idOrTime: string) => idOrTime.slice(0, 10);
/** Sorts after every id of that day ("2026-11-26T…") and before the next day's. */
const afterDay = (day: string) => `${day}~`;

/** Keys per commit when removing (KV allows 1000 mutations per atomic operation). */
const DELETES_PER_COMMIT = 200;

export class BusinessLogStore {
  constructor(private readonly kv: Deno.Kv) {}

  /** Writes one entry for every audience account, in one commit. */
  async add(entry: BusinessLogEntry, audience: string[]): Promise<void> {
    const op = this.kv.atomic().set(K.all(entry.id), audience);
    for (const viewer of audience) {
      op.set(K.seen(viewer, entry.id), entry).sum(K.day(viewer, dayOf(entry.id)), 1n);
    }
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

  /**
   * How many entries a viewer has between two ids: whole days from the day counters, the
   * partial days at the ends by reading them.
   */
  async countBetween(viewerId: string, fromId: string, toId: string): Promise<number> {
    const firstDay = fromId ? dayOf(fromId) : null;
    const lastDay = toId.startsWith("9999") ? null : dayOf(toId);
    if (firstDay && firstDay === lastDay) return await this.countRange(viewerId, fromId, toId);
    let total = 0;
    const days = this.kv.list<Deno.KvU64>({
      start: K.day(viewerId, firstDay ? afterDay(firstDay) : ""),
      end: K.day(viewerId, lastDay ?? "~"),
    });
    for await (const e of days) total += Number(e.value.value);
    if (firstDay) total += await this.countRange(viewerId, fromId, afterDay(firstDay));
    if (lastDay) total += await this.countRange(viewerId, lastDay, toId);
    return total;
  }

  private async countRange(viewerId: string, fromId: string, toId: string): Promise<number> {
    let n = 0;
    const iter = this.kv.list({ start: K.seen(viewerId, fromId), end: K.seen(viewerId, toId) });
    for await (const _ of iter) n++;
    return n;
  }

  /** Removes every entry whose id is below `idBelow`; answers how many operations went. */
  async removeBefore(idBelow: string): Promise<number> {
    let removed = 0;
    let op = this.kv.atomic(), pending = 0;
    /** Viewer and day of each removed entry: their counters are redone at the end. */
    const touched = new Set<string>();
    const iter = this.kv.list<string[]>({ start: K.all(""), end: K.all(idBelow) });
    for await (const e of iter) {
      const id = e.key.at(-1) as string;
      for (const viewer of e.value) {
        op.delete(K.seen(viewer, id));
        touched.add(JSON.stringify([viewer, dayOf(id)]));
      }
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
    await this.recount(touched, dayOf(idBelow));
    return removed;
  }

  /** Days before the cut are gone with their counters; the cut's own day is counted again. */
  private async recount(touched: Set<string>, cutDay: string): Promise<void> {
    for (const pair of touched) {
      const [viewer, day] = JSON.parse(pair) as [string, string];
      if (day < cutDay) {
        await this.kv.delete(K.day(viewer, day));
        continue;
      }
      const left = await this.countRange(viewer, day, afterDay(day));
      if (left) await this.kv.set(K.day(viewer, day), new Deno.KvU64(BigInt(left)));
      else await this.kv.delete(K.day(viewer, day));
    }
  }
}
