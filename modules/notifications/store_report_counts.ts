/**
 * Positions counted per device and UTC day, for the few-reports reminder (report_counts.ts).
 * Every instance adds what it counted since its last flush (atomic sums), so in cluster mode the
 * day's count is the cluster's, whichever instance took the positions.
 *
 * Keys: ["notifications", "reportCounts", day (YYYY-MM-DD), imei] Deno.KvU64,
 *       ["notifications", "reportCounting"] CountingSpan.
 */

/** The time counting has covered without a break: from `since` to the last flush `until`. */
export interface CountingSpan {
  since: number;
  until: number;
}

const SPAN_KEY: Deno.KvKey = ["notifications", "reportCounting"];
const dayPrefix = (day: string): Deno.KvKey => ["notifications", "reportCounts", day];
/** Sums per atomic operation (Deno KV takes at most 1,000 mutations). */
const SUMS_PER_COMMIT = 500;
/** Concurrent span updates (instances flushing together) retry this often. */
const SPAN_TRIES = 20;

export class ReportCountStore {
  constructor(private readonly kv: Deno.Kv) {}

  /** Adds one day's counts to what is stored. */
  async add(day: string, counts: ReadonlyMap<string, number>): Promise<void> {
    const entries = [...counts];
    for (let i = 0; i < entries.length; i += SUMS_PER_COMMIT) {
      const op = this.kv.atomic();
      for (const [imei, n] of entries.slice(i, i + SUMS_PER_COMMIT)) {
        op.sum([...dayPrefix(day), imei], BigInt(n));
      }
      const res = await op.commit();
      if (!res.ok) throw new Error("report counts not written");
    }
  }

  /** The day's counts by device. */
  async countsOf(day: string): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    for await (const e of this.kv.list<Deno.KvU64>({ prefix: dayPrefix(day) })) {
      out.set(String(e.key[3]), Number(e.value.value));
    }
    return out;
  }

  /** Deletes the counts of every day before `day`. */
  async dropBefore(day: string): Promise<void> {
    const prefix: Deno.KvKey = ["notifications", "reportCounts"];
    const old = this.kv.list({ start: prefix, end: dayPrefix(day) });
    let op = this.kv.atomic(), n = 0;
    for await (const e of old) {
      op.delete(e.key);
      if (++n % SUMS_PER_COMMIT === 0) {
        await op.commit();
        op = this.kv.atomic();
      }
    }
    if (n % SUMS_PER_COMMIT) await op.commit();
  }

  async span(): Promise<CountingSpan | null> {
    return (await this.kv.get<CountingSpan>(SPAN_KEY)).value;
  }

  /** Replaces the span with `next(current)`, checked against concurrent flushes. */
  async updateSpan(next: (current: CountingSpan | null) => CountingSpan): Promise<CountingSpan> {
    for (let i = 0; i < SPAN_TRIES; i++) {
      const got = await this.kv.get<CountingSpan>(SPAN_KEY);
      const value = next(got.value);
      if ((await this.kv.atomic().check(got).set(SPAN_KEY, value).commit()).ok) return value;
    }
    throw new Error("report counting span not written (too many concurrent updates)");
  }
}
