/**
 * Positions per device and UTC day for the "fewer than 50 reports a day" reminder (spec §9),
 * counted in memory as the pipeline stores them and added to the store every minute (and at the
 * daily check and on shutdown), so every instance of a cluster, and a restarted process, count
 * into the same day.
 *
 * A day is judged only when counting covered all of it: the stored span runs from when counting
 * began to the last flush, and restarts when the product was stopped for longer than a gap (no
 * flush for GAP_MS before a process started). A crash loses at most the counts of the last minute.
 */
import type { CountingSpan, ReportCountStore } from "./store_report_counts.ts";

const DAY_MS = 86_400_000;
/** Flushes are a minute apart: a span whose last flush is older than this had a break. */
const GAP_MS = 5 * 60_000;

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export class ReportCounter {
  /** Counted and not yet stored: day → imei → positions. */
  private pending = new Map<string, Map<string, number>>();
  private flushed = false;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: ReportCountStore,
    /** When this process began counting. */
    private readonly startedAt = Date.now(),
  ) {}

  /** The day being counted and its counts: found once per day and flush, not per position. */
  private today: { from: number; to: number; counts: Map<string, number> } | null = null;

  count(imei: string, now = Date.now()): void {
    let t = this.today;
    if (!t || now < t.from || now >= t.to) {
      const from = Math.floor(now / DAY_MS) * DAY_MS;
      const day = isoDay(from);
      let counts = this.pending.get(day);
      if (!counts) this.pending.set(day, counts = new Map());
      t = this.today = { from, to: from + DAY_MS, counts };
    }
    t.counts.set(imei, (t.counts.get(imei) ?? 0) + 1);
  }

  private add(day: string, imei: string, n: number): void {
    let counts = this.pending.get(day);
    if (!counts) this.pending.set(day, counts = new Map());
    counts.set(imei, (counts.get(imei) ?? 0) + n);
  }

  /** Adds what was counted to the store and extends the span to `now`. */
  flush(now = Date.now()): Promise<void> {
    this.flushing = this.flushing.then(() => this.write(now));
    return this.flushing;
  }

  private async write(now: number): Promise<void> {
    const batch = this.pending;
    this.pending = new Map();
    this.today = null;
    try {
      for (const [day, counts] of batch) {
        await this.store.add(day, counts);
        batch.delete(day);
      }
      await this.store.updateSpan((span) => this.extended(span, now));
      this.flushed = true;
    } catch (e) {
      // Kept for the next flush: counted again, not lost.
      for (const [day, counts] of batch) {
        for (const [imei, n] of counts) this.add(day, imei, n);
      }
      throw e;
    }
  }

  /** This process's first flush after a break starts a new span at its start. */
  private extended(span: CountingSpan | null, now: number): CountingSpan {
    const broken = !span || (!this.flushed && span.until < this.startedAt - GAP_MS);
    return { since: broken ? this.startedAt : span.since, until: Math.max(now, span?.until ?? 0) };
  }

  /**
   * The counts of the UTC day before `now`, when counting covered all of it (null otherwise);
   * older days are deleted.
   */
  async lastDay(now = Date.now()): Promise<{ day: string; counts: Map<string, number> } | null> {
    await this.flush(now);
    const start = Math.floor(now / DAY_MS) * DAY_MS - DAY_MS;
    const day = isoDay(start);
    const span = await this.store.span();
    if (!span || span.since > start || span.until < start + DAY_MS) return null;
    const counts = await this.store.countsOf(day);
    await this.store.dropBefore(day);
    return { day, counts };
  }
}
