/**
 * Recomputes marked device-days in the background (one device at a time):
 * - a day touched by late points (older than the live analysis) is replayed alone from the
 *   position store, through a fresh analyzer started from the end state of the previous day
 *   with points, continued into the next day only until the day's summary is final; its
 *   analysed segments and summary are replaced, the rest of the history is left alone;
 * - a rules change (or late points into the live day) rebuilds from a day up to now and puts
 *   the rebuilt analyzer in place of the live one (points arriving meanwhile are buffered).
 * Marks are KV records (./store.ts), so a restart finishes what was left.
 *
 * Cluster mode (issue 23): a mark is worked off only where the device is analysed (held here,
 * or adopted here), so the rebuilt analyzer is the one that runs; the others leave it in the
 * store. The leader adopts a device no live instance holds (once silent past its gap, as
 * ./adoption.ts does) and works its marks. After a rebuild the device's checkpoint is written.
 * Marks are looked at on start, after late points, when an account's rules change on any
 * instance (./service.ts), and every LOOK_MS (a mark left by an instance that crashed before
 * working it, for a device that moved here since; a sync message lost).
 */
import type { StoredPosition } from "../devices/model.ts";
import type { Leadership } from "../../lib/cluster/types.ts";
import { log } from "../../lib/log.ts";
import { MotionAnalyzer, type MotionOutput, newOutput } from "./analyzer.ts";
import { addDays, DAY_MS, dayEnd, daysBetween, dayStart } from "./days.ts";
import {
  type ClosedSegment,
  type MotionDevices,
  type MotionEngine,
  type PointReader,
  segmentWrites,
} from "./engine.ts";
import type { MotionHolders } from "./relay.ts";
import type { MotionRulesService, RulesBook } from "./rules.ts";
import type { DayEnd, MotionStore, RecomputeMark, SegmentWrite } from "./store.ts";
import type { DaySummary, SegmentKind } from "./types.ts";

const recomputeLog = log.area("motion");

/** The kinds the analyzer makes from points (connectivity and fences come from events). */
const ANALYZED: SegmentKind[] = ["trip", "parking", "idling", "ignition", "overspeed"];
/** A replay starts from a day-end state at most this many days before the day, else fresh. */
const START_LOOKBACK_DAYS = 7;
/** A replayed day is continued into at most this many following days to become final. */
const FINAL_LOOKAHEAD_DAYS = 2;
/** Cluster mode: how often every instance looks at the marks (one list of the mark prefix,
 * usually empty; plus one batch of session reads while some are of devices not analysed here). */
export const LOOK_MS = 60_000;

export interface RecomputeDeps {
  store: MotionStore;
  engine: MotionEngine;
  book: RulesBook;
  rules: MotionRulesService;
  known: MotionDevices;
  points: PointReader;
  /** Cluster mode: who analyses a device (absent in single mode: every mark is worked here). */
  cluster?: RecomputeCluster;
}

export interface RecomputeCluster {
  holders: Pick<MotionHolders, "instanceId" | "liveHolders">;
  leader: Pick<Leadership, "isLeader">;
}

type Marked = { imei: string; mark: RecomputeMark; stamp: string };

/** A replay's products. */
interface Replay {
  analyzer: MotionAnalyzer;
  lastTime: number;
  segments: ClosedSegment[];
  days: DaySummary[];
  dayEnds: { day: string; end: DayEnd }[];
}

export class Recomputer {
  private running: Promise<void> | null = null;
  private again = false;
  private looking: ReturnType<typeof setInterval> | undefined;
  private stopped = false;
  /** Counted for GET /metrics and the tests: days, rebuilds, marks left for another instance
   * (cluster mode), devices the leader adopted to work their marks. */
  readonly stats = { days: 0, rebuilds: 0, left: 0, adopted: 0 };

  constructor(private readonly d: RecomputeDeps) {}

  /** Counts unfinished rules recomputes left by a previous run (progress), then starts. */
  async start(): Promise<void> {
    if (this.d.cluster) {
      this.looking = setInterval(this.kick, LOOK_MS);
      Deno.unrefTimer(this.looking);
    }
    let marks = 0;
    for await (const { mark } of this.d.store.marks()) {
      marks++;
      // Cluster mode reads the progress from the marks in the store (any instance works them).
      if (!mark.from || this.d.cluster) continue;
      const p = this.d.rules.progress.get(mark.userId) ?? { done: 0, total: 0 };
      p.total++;
      this.d.rules.progress.set(mark.userId, p);
    }
    if (marks) this.kick();
  }

  /** Works off the marks (again, if some arrive while it runs). */
  kick = (): void => {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.run().catch((e) => recomputeLog.error("motion recompute failed", e))
      .finally(() => {
        this.running = null;
      });
  };

  /** Resolves once no recompute runs (tests, exit). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Process exit: no more runs (the one under way finishes). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.looking);
    this.looking = undefined;
    await this.idle();
  }

  private async run(): Promise<void> {
    do {
      this.again = false;
      const marks: Marked[] = [];
      for await (const m of this.d.store.marks()) marks.push(m);
      const c = this.d.cluster;
      const holders = c && marks.length ? await this.holdersElsewhere(marks, c) : null;
      for (const { imei, mark, stamp } of marks) {
        if (c && !(await this.analysedHere(imei, mark, holders!, c))) {
          this.stats.left++;
          continue;
        }
        try {
          await this.process(imei, mark);
        } catch (e) {
          recomputeLog.error(`recompute of ${imei} failed`, e);
          continue;
        }
        if (!(await this.d.store.clearMark(imei, stamp))) this.again = true;
        if (mark.from) this.d.rules.deviceDone(mark.userId);
      }
    } while (this.again);
  }

  /** Cluster mode: the live holders of the marked devices not analysed here (one read). */
  private holdersElsewhere(marks: Marked[], c: RecomputeCluster): Promise<Map<string, string>> {
    const elsewhere = marks.filter((m) => !this.d.engine.holds(m.imei)).map((m) => m.imei);
    return elsewhere.length ? c.holders.liveHolders(elsewhere) : Promise.resolve(new Map());
  }

  /**
   * Cluster mode: whether this instance works off the device's mark (asked right before, as
   * the previous device's recompute may have taken a while). Yes when it analyses the device.
   * A device no live instance holds is adopted by the leader first (its checkpoint read again
   * and the positions after it replayed), once silent past its gap: a device heard lately may
   * be sending to an instance over HTTP (no session), and adopting it then would analyse it in
   * two places. Otherwise the mark is left in the store for the instance analysing the device.
   */
  private async analysedHere(
    imei: string,
    mark: RecomputeMark,
    holders: Map<string, string>,
    c: RecomputeCluster,
  ): Promise<boolean> {
    const engine = this.d.engine;
    if (engine.holds(imei)) return true;
    const holder = holders.get(imei);
    if (holder !== undefined && holder !== c.holders.instanceId) return false;
    const userId = this.d.known.owner(imei) ?? mark.userId;
    if (holder === undefined && !(c.leader.isLeader() && this.silent(imei, userId))) return false;
    await engine.adopt(imei, userId);
    this.stats.adopted++;
    return true;
  }

  /** Not heard for longer than its gap (by this instance's clock). */
  private silent(imei: string, userId: string): boolean {
    const heard = this.d.known.lastHeard(imei);
    return heard === null || this.d.engine.clock() - heard > this.d.engine.gapMsOf(userId);
  }

  private async process(imei: string, mark: RecomputeMark): Promise<void> {
    const userId = this.d.known.owner(imei) ?? mark.userId;
    const live = this.d.engine.has(imei);
    let from = mark.from;
    const singles: string[] = [];
    for (const day of mark.days) {
      // Late points into the day the live analysis is in: only a rebuild can take them.
      if (live?.day && day >= live.day) from = from && from < day ? from : day;
      else singles.push(day);
    }
    for (const day of singles) {
      if (from && day >= from) continue;
      await this.recomputeDay(imei, userId, day);
    }
    if (from) await this.rebuild(imei, userId, from);
  }

  /** Replays one closed day and replaces its analysed segments and summary. */
  async recomputeDay(imei: string, userId: string, day: string): Promise<void> {
    this.stats.days++;
    const live = this.d.engine.has(imei);
    const end = dayEnd(day);
    const r = await this.startAt(imei, userId, day);
    await this.replay(r, imei, r.lastTime + 1, end);
    this.noteDayEnd(r, day);
    let summary = r.days.find((s) => s.date === day) ?? null;
    // Continue until the day is final (a trip over midnight adds to it), within reason.
    for (let k = 1; !summary && k <= FINAL_LOOKAHEAD_DAYS; k++) {
      if (live && end + (k - 1) * DAY_MS >= live.lastTime) break;
      await this.replay(r, imei, end + (k - 1) * DAY_MS + 1, end + k * DAY_MS);
      summary = r.days.find((s) => s.date === day) ?? null;
    }
    summary ??= [r.analyzer.today()].find((s) => s?.date === day) ?? null;
    // Still open at the end of the replay: stored as they stand; the live analysis (or a later
    // recompute) replaces them by identity when they close.
    const open = r.analyzer.open(Math.min(Date.now(), end)) as ClosedSegment[];
    const all = [...r.segments, ...open].filter((s) => s.end >= dayStart(day) && s.start <= end);
    await this.d.store.exclusive(async () => {
      const batch = this.d.store.newBatch();
      await this.d.store.writeSegments(replaceDays(imei, [day], all), batch);
      if (summary) await this.d.store.saveDays([summary], batch);
      const dayEndOf = r.dayEnds.find((e) => e.day === day);
      if (dayEndOf) this.d.store.setDayEnd(batch, imei, day, dayEndOf.end);
      await batch.commit();
    });
  }

  /** Replays from `fromDay` to now and puts the result in place of the live analysis. */
  async rebuild(imei: string, userId: string, fromDay: string): Promise<void> {
    this.stats.rebuilds++;
    const dm = await this.d.engine.holdForRebuild(imei, userId);
    try {
      const r = await this.startAt(imei, userId, fromDay);
      const now = Date.now();
      const days = daysBetween(dayStart(fromDay), now);
      let from = r.lastTime + 1;
      for (const day of days) {
        await this.replay(r, imei, from, dayEnd(day));
        this.noteDayEnd(r, day);
        from = dayEnd(day) + 1;
      }
      // Closed segments only: the still-open ones are the live analysis' (read from memory).
      const closed = r.segments;
      await this.d.store.exclusive(async () => {
        const batch = this.d.store.newBatch();
        await this.d.store.writeSegments(replaceDays(imei, days, closed), batch);
        await this.d.store.saveDays(r.days, batch);
        for (const e of r.dayEnds) this.d.store.setDayEnd(batch, imei, e.day, e.end);
        await batch.commit();
      });
      this.d.engine.swapAnalyzer(dm, r.analyzer, r.lastTime, this.d.book.of(userId).changedAt);
    } catch (e) {
      this.d.engine.release(dm);
      throw e;
    }
    if (this.d.cluster) await this.d.engine.checkpointNow(imei);
  }

  /** A fresh analyzer with the owner's rules, from the state at the end of an earlier day. */
  private async startAt(imei: string, userId: string, day: string): Promise<Replay> {
    const rules = this.d.book.of(userId).rules;
    const limit = this.d.engine.limitOf(imei);
    const before = await this.d.store.dayEndBefore(imei, day);
    const usable = before && before.day >= addDays(day, -START_LOOKBACK_DAYS);
    return {
      analyzer: new MotionAnalyzer(imei, rules, limit, usable ? before.end.state : undefined),
      lastTime: usable ? before.end.lastTime : dayStart(day) - 1,
      segments: [],
      days: [],
      dayEnds: [],
    };
  }

  /** Pushes the stored points of [from, to] (a day, or what is left of it). */
  private async replay(r: Replay, imei: string, from: number, to: number): Promise<void> {
    if (to < from) return;
    const points: StoredPosition[] = await this.d.points.range(imei, from, to);
    const out: MotionOutput = newOutput();
    for (const p of points) {
      if (p.time < r.lastTime) continue;
      r.analyzer.push(p, out);
      r.lastTime = p.time;
    }
    r.analyzer.tick(Math.min(Date.now(), to), out);
    r.segments.push(...(out.segments as ClosedSegment[]));
    r.days.push(...out.days);
  }

  /** Notes the state at the end of `day` when the replay saw points of it. */
  private noteDayEnd(r: Replay, day: string): void {
    if (r.lastTime < dayStart(day) || r.lastTime > dayEnd(day)) return;
    r.dayEnds.push({ day, end: { state: r.analyzer.state(), lastTime: r.lastTime } });
  }
}

/**
 * The writes of a replay: each given day's analysed kinds become exactly the segments
 * overlapping it; segments reaching into other days are merged there by identity.
 */
function replaceDays(imei: string, days: string[], segments: ClosedSegment[]): SegmentWrite[] {
  const writes: SegmentWrite[] = [];
  for (const day of days) {
    for (const kind of ANALYZED) writes.push({ imei, kind, day, segments: [], replace: true });
  }
  // Merged after the replacements of the same day (store.ts mergeWrites keeps `replace`).
  for (const w of segmentWrites(new Map([[imei, segments]]))) writes.push(w);
  return writes;
}
