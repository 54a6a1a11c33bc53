/**
 * The MotionReader the report area reads (modules/motion/types.ts): stored segments and day
 * summaries, with what is only in memory yet — the still-open segments, segments closed in the
 * last FLUSH_MS, the running day (and the day before while a trip over midnight may add to it).
 * Nothing is computed from raw points here.
 */
import { dayOf, daysBetween, monthOf } from "./days.ts";
import type { MotionEngine } from "./engine.ts";
import { type MotionStore, segmentId } from "./store.ts";
import type { DaySummary, MotionReader, Open, SegmentKind, SegmentKinds } from "./types.ts";

export class MotionReads implements MotionReader {
  constructor(
    private readonly store: MotionStore,
    /** Null when the live analysis is off (MOTION_ANALYSIS=off): the store alone. */
    private readonly engine: MotionEngine | null,
  ) {}

  async segments<K extends SegmentKind>(
    kind: K,
    imei: string,
    from: number,
    to: number,
  ): Promise<Array<SegmentKinds[K] | Open<SegmentKinds[K]>>> {
    const stored = await this.store.segments(imei, kind, dayOf(from), dayOf(to));
    const list: Array<SegmentKinds[K] | Open<SegmentKinds[K]>> = [];
    for (const s of stored) if (s.end >= from && s.start <= to) list.push(s);
    if (!this.engine) return list;
    const recent = this.engine.unflushed(imei, kind);
    const open = this.engine.openSegments(imei, kind, Date.now());
    if (!recent.length && !open.length) return list;
    const byId = new Map<string, SegmentKinds[K] | Open<SegmentKinds[K]>>();
    for (const s of list) byId.set(segmentId(s), s);
    for (const s of recent) if (s.end >= from && s.start <= to) byId.set(segmentId(s), plain(s));
    for (const s of open) {
      if (s.end >= from && s.start <= to) byId.set(segmentId(s), { ...plain(s), open: true });
    }
    return [...byId.values()].sort((a, b) => a.start - b.start);
  }

  async days(imei: string, from: number, to: number): Promise<DaySummary[]> {
    const dates = daysBetween(from, to);
    if (!dates.length) return [];
    const first = dates[0], last = dates[dates.length - 1];
    const months = [...new Set(dates.map(monthOf))];
    const stored = await this.store.months(imei, months);
    const running = this.engine?.runningDays(imei) ?? [];
    if (!running.length) return stored.filter((d) => d.date >= first && d.date <= last);
    const byDate = new Map<string, DaySummary>();
    for (const d of stored) byDate.set(d.date, d);
    for (const d of running) byDate.set(d.date, d);
    return [...byDate.values()].filter((d) => d.date >= first && d.date <= last)
      .sort((a, b) => a.date < b.date ? -1 : a.date > b.date ? 1 : 0);
  }
}

/** A segment without the analyzer's `kind` tag (the reader answers one kind). */
function plain<T>(s: T): T {
  if (typeof s === "object" && s !== null && "kind" in s) {
    const { kind: _kind, ...rest } = s as T & { kind: string };
    return rest as T;
  }
  return s;
}
