/**
 * The MotionReader the report area reads (modules/motion/types.ts): stored segments and day
 * summaries, with what is only in memory yet — the still-open segments, segments closed in the
 * last FLUSH_MS, the running day (and the day before while a trip over midnight may add to it).
 * Nothing is computed from raw points here. Cluster mode: a device analysed on another instance
 * (or by none) is read through the relay (./relay.ts), never from this instance's stale memory.
 */
import { dayOf, daysBetween, monthOf } from "./days.ts";
import type { ClosedSegment, MotionEngine, MotionView } from "./engine.ts";
import type { MotionRelay } from "./relay.ts";
import { type MotionStore, segmentId } from "./store.ts";
import type { DaySummary, MotionReader, Open, SegmentKind, SegmentKinds } from "./types.ts";

export class MotionReads implements MotionReader {
  constructor(
    private readonly store: MotionStore,
    /** Null when the live analysis is off (MOTION_ANALYSIS=off): the store alone. */
    private readonly engine: MotionEngine | null,
    /** Cluster mode: where devices not analysed here are read. */
    private readonly relay: MotionRelay | null = null,
  ) {}

  /** The device's view from where it is analysed, or null: read this engine's memory. */
  private elsewhere(imei: string, now: number): Promise<MotionView> | null {
    if (!this.relay || !this.engine || this.engine.holds(imei)) return null;
    return this.relay.view(imei, now);
  }

  async segments<K extends SegmentKind>(
    kind: K,
    imei: string,
    from: number,
    to: number,
  ): Promise<Array<SegmentKinds[K] | Open<SegmentKinds[K]>>> {
    const now = Date.now();
    const remote = this.elsewhere(imei, now);
    // Asked before the store is read: a segment its holder flushes meanwhile is then stored.
    const view = remote && await remote;
    const stored = await this.store.segments(imei, kind, dayOf(from), dayOf(to));
    const list: Array<SegmentKinds[K] | Open<SegmentKinds[K]>> = [];
    for (const s of stored) if (s.end >= from && s.start <= to) list.push(s);
    if (!this.engine) return list;
    const recent = view ? ofKind(view.unflushed, kind) : this.engine.unflushed(imei, kind);
    const open = view ? ofKind(view.open, kind) : this.engine.openSegments(imei, kind, now);
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
    const remote = this.elsewhere(imei, Date.now());
    const view = remote && await remote;
    const stored = await this.store.months(imei, months);
    const running = view ? view.days : this.engine?.runningDays(imei) ?? [];
    if (!running.length) return stored.filter((d) => d.date >= first && d.date <= last);
    const byDate = new Map<string, DaySummary>();
    for (const d of stored) byDate.set(d.date, d);
    for (const d of running) byDate.set(d.date, d);
    return [...byDate.values()].filter((d) => d.date >= first && d.date <= last)
      .sort((a, b) => a.date < b.date ? -1 : a.date > b.date ? 1 : 0);
  }
}

function ofKind<K extends SegmentKind>(list: ClosedSegment[], kind: K): SegmentKinds[K][] {
  return list.filter((s) => s.kind === kind) as unknown as SegmentKinds[K][];
}

/** A segment without the analyzer's `kind` tag (the reader answers one kind). */
function plain<T>(s: T): T {
  if (typeof s === "object" && s !== null && "kind" in s) {
    const { kind: _kind, ...rest } = s as T & { kind: string };
    return rest as T;
  }
  return s;
}
