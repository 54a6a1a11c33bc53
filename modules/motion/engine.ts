/**
 * The live motion analysis: one MotionAnalyzer per device fed the points each gateway commit
 * stored ("positionsCommitted"), online/offline intervals from the connection and status
 * events, fence visits from the alert engine's crossings. What closes is kept in memory and
 * written every FLUSH_MS in a few atomic commits (segments, final day summaries, day-end
 * states, late-upload marks), the analyzer checkpoints every CHECKPOINT_MS; never one write
 * per position. Still-open segments and the running day are read from memory (MotionReader).
 *
 * Late points (older than the device's newest) are not analysed live: their UTC days are
 * marked and recomputed by ./recompute.ts. Decisions: docs/decisions.md "Motion engine".
 */
import type { StoredPosition } from "../devices/model.ts";
import type { FenceCrossed } from "../alerts/events.ts";
import type {
  DeviceConnection,
  DeviceStatusChanged,
  PositionsCommitted,
} from "../gateway/events.ts";
import { log } from "../../lib/log.ts";
import { type AnySegment, MotionAnalyzer, type MotionOutput, newOutput } from "./analyzer.ts";
import { daySummary } from "./day_acc.ts";
import { DAY_MS, dayOf, dayStart } from "./days.ts";
import type { RulesBook } from "./rules.ts";
import {
  type Batch,
  type Checkpoint,
  type DayEnd,
  MotionStore,
  type SegmentWrite,
} from "./store.ts";
import type { DaySummary, SegmentKind, SegmentKinds } from "./types.ts";

const motionLog = log.area("motion");

/** Closed segments and final days are written this long after they close (at most). */
export const FLUSH_MS = 5_000;
/** Analyzer checkpoints are written this often (replay from the position store covers the rest). */
export const CHECKPOINT_MS = 60_000;
/** A restart replays devices silent since their checkpoint for at most this long. */
const REPLAY_MAX_MS = 7 * DAY_MS;

/** What the engine needs to know of devices (app/compose.ts builds it from the directory). */
export interface MotionDevices {
  /** The device's owner account, undefined for an unknown device. */
  owner(imei: string): string | undefined;
  /** The device's own overspeed threshold (its alert settings), null when it has none. */
  overspeedKmh(imei: string): number | null;
  /** Devices owned by an account. */
  imeisOf(userId: string): string[];
  /** Every device with a fix, and the time of its newest one. */
  fixTimes(): Iterable<{ imei: string; userId: string; gpsTime: number | null }>;
  /** When the device was last heard (an offline interval starts there). */
  lastHeard(imei: string): number | null;
}

/** Range reads of one device's points (modules/positions' store). */
export interface PointReader {
  range(imei: string, from: number, to: number): Promise<StoredPosition[]>;
}

/** One device's live analysis. */
export interface DeviceMotion {
  imei: string;
  userId: string;
  analyzer: MotionAnalyzer;
  /** Rules version the analyzer runs with. */
  rulesAt: number;
  /** Newest point pushed (-Infinity before the first). */
  lastTime: number;
  /** UTC day of that point and its last millisecond. */
  day: string | null;
  dayEndsAt: number;
  conn: { online: boolean; since: number } | null;
  fences: Map<string, { name: string; since: number }>;
  /** Points arriving while a rebuild replaces the analyzer (null: none runs). */
  buffer: StoredPosition[] | null;
}

/** What is waiting for the next flush. */
interface Pending {
  /** imei → closed segments, in the order they closed. */
  segments: Map<string, ClosedSegment[]>;
  days: DaySummary[];
  dayEnds: { imei: string; day: string; end: DayEnd }[];
  late: Map<string, { userId: string; days: Set<string> }>;
}

/** A closed segment with its kind (analyzed, connectivity or fence). */
export type ClosedSegment = { [K in SegmentKind]: { kind: K } & SegmentKinds[K] }[SegmentKind];

/**
 * What the analysis of one device holds beyond the store (cluster mode: asked of the instance
 * analysing it, or computed from its checkpoint): every still-open segment, segments closed but
 * not stored yet, and the day summaries not stored yet (see runningDays).
 */
export interface MotionView {
  open: ClosedSegment[];
  unflushed: ClosedSegment[];
  days: DaySummary[];
}

function emptyPending(): Pending {
  return { segments: new Map(), days: [], dayEnds: [], late: new Map() };
}

export class MotionEngine {
  private readonly devices = new Map<string, DeviceMotion>();
  private pending = emptyPending();
  /** What the flush under way is writing (still read from here until it is stored). */
  private inFlight: Pending | null = null;
  /** Devices whose checkpoint is older than their analysis. */
  private unsaved = new Set<string>();
  /** When the last share of checkpoints was written (see dueCheckpoints). */
  private lastShareAt = Date.now();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private flushing: Promise<void> = Promise.resolve();
  private readonly out: MotionOutput = newOutput();
  /** Cluster mode: devices this instance holds (connected here, or whose points came here). */
  private readonly held = new Set<string>();
  /**
   * Cluster mode, the leader: devices no live instance holds, analysed here until their gap is
   * closed (./adoption.ts). Only held and adopted devices are ticked: another instance's memory
   * of a device is stale and would close its trip early.
   */
  private readonly adopted = new Set<string>();
  /** Cluster mode: checkpoint reads and replays under way (flush waits for them). */
  private readonly takingOver = new Set<Promise<void>>();
  /** The wall clock of gap closing and replays (a test moves one instance's forward in time). */
  clock: () => number = Date.now;
  /** Called after a flush that marked late days (the recompute worker). */
  onLate: () => void = () => {};
  /** Counted for GET /metrics (app/compose.ts) and the benchmarks. */
  readonly stats = {
    points: 0,
    late: 0,
    flushes: 0,
    segments: 0,
    replayed: 0,
    checkpoints: 0,
    flushSeconds: 0,
  };

  constructor(
    private readonly store: MotionStore,
    private readonly rules: RulesBook,
    private readonly known: MotionDevices,
    private readonly points: PointReader,
    /**
     * Cluster mode (issue 23): a device may have been analysed by another instance since this
     * one loaded its checkpoint, so it is read again (and the gap replayed) when the device
     * comes here, and written when its connection closes here. Single mode: no extra reads.
     */
    private readonly takeOver = false,
  ) {}

  // --- start-up ----------------------------------------------------------------------------------

  /**
   * Continues from the checkpoints: each device's analyzer as it was, then the points committed
   * after it (read back from the position store) pushed as if they had just arrived.
   */
  async load(now = Date.now()): Promise<number> {
    for await (const { imei, checkpoint } of this.store.checkpoints()) {
      this.devices.set(imei, this.fromCheckpoint(imei, checkpoint));
    }
    const stale: { imei: string; from: number }[] = [];
    for (const { imei, userId, gpsTime } of this.known.fixTimes()) {
      if (gpsTime === null) continue;
      const dm = this.devices.get(imei);
      if (dm && gpsTime > dm.lastTime) {
        stale.push({ imei, from: Math.max(dm.lastTime + 1, now - REPLAY_MAX_MS) });
      } else if (!dm && gpsTime > now - DAY_MS) {
        // Never analysed (motion analysis new on this store): start with today.
        this.device(imei, userId);
        stale.push({ imei, from: dayStart(dayOf(now)) });
      }
    }
    let replayed = 0;
    for (let i = 0; i < stale.length; i += 20) {
      await Promise.all(
        stale.slice(i, i + 20).map(async ({ imei, from }) => {
          replayed += await this.replay(this.devices.get(imei)!, from, now);
        }),
      );
    }
    if (replayed) this.schedule();
    return replayed;
  }

  /** Pushes the device's stored points from `from` to `now` (start-up and take-over). */
  private async replay(dm: DeviceMotion, from: number, now: number): Promise<number> {
    const points = await this.points.range(dm.imei, from, now);
    for (const p of points) this.pushPoint(dm, p);
    this.collect(dm);
    this.stats.replayed += points.length;
    return points.length;
  }

  // --- cluster mode: devices taken over from another instance ------------------------------------

  /**
   * The device came here: its points are held while its checkpoint is read again (another
   * instance may have gone further than what this one remembers) and the positions stored
   * after it are replayed, then the held points follow.
   */
  private holdAndReload(imei: string, userId: string, connectedAt: number | null): void {
    this.held.add(imei);
    this.adopted.delete(imei);
    void this.reloadFromStore(imei, userId, connectedAt);
  }

  /** Reads the device's checkpoint again and replays after it (its points held meanwhile). */
  private reloadFromStore(imei: string, userId: string, connectedAt: number | null): Promise<void> {
    const dm = this.device(imei, userId);
    // A rebuild or another take-over holds its points already.
    if (dm.buffer) return this.settled();
    dm.buffer = [];
    const run: Promise<void> = this.reload(dm, connectedAt)
      .catch((e) => motionLog.error("motion take-over failed", e))
      .finally(() => this.takingOver.delete(run));
    this.takingOver.add(run);
    return run;
  }

  /**
   * Cluster mode, the leader: analyses a device that no live instance holds (its holder
   * crashed, or its connection closed and it stayed silent) from its newest checkpoint and the
   * positions stored after it, so that the next flush closes its gap at its real last point.
   */
  adopt(imei: string, userId: string): Promise<void> {
    if (this.held.has(imei)) return Promise.resolve();
    this.adopted.add(imei);
    return this.reloadFromStore(imei, userId, null);
  }

  /** Another instance analyses the device now (or this one stopped leading): no more ticks. */
  unadopt(imei: string): void {
    this.adopted.delete(imei);
  }

  /** The devices adopted here. */
  adoptedDevices(): string[] {
    return [...this.adopted];
  }

  /** Adopted and done: its gap closed, written and checkpointed (nothing left to tick). */
  adoptionDone(imei: string): boolean {
    const dm = this.devices.get(imei);
    if (!dm) return true;
    return !dm.buffer && !dm.analyzer.waitingForGap && !this.unsaved.has(imei) &&
      !this.waiting().some((p) => p.segments.has(imei) || p.days.some((d) => d.imei === imei));
  }

  /**
   * Whether this instance's memory of the device is the one to read and tick: always in single
   * mode; in cluster mode when the device is held (connected, or its points came) or adopted here.
   */
  holds(imei: string): boolean {
    return !this.takeOver || this.held.has(imei) || this.adopted.has(imei);
  }

  /** The silence after which the device's analysis closes its gap (its owner's rules). */
  gapMsOf(userId: string): number {
    return this.rules.of(userId).rules.gapSeconds * 1000;
  }

  private async reload(dm: DeviceMotion, connectedAt: number | null): Promise<void> {
    try {
      const c = await this.store.checkpoint(dm.imei);
      // Further than memory, or rebuilt elsewhere with newer rules (./recompute.ts).
      if (c && (c.lastTime > dm.lastTime || c.rulesAt > dm.rulesAt)) {
        // The checkpoint's analysis in place (the owner as known now, the points held meanwhile).
        Object.assign(dm, this.fromCheckpoint(dm.imei, c), {
          userId: dm.userId,
          buffer: dm.buffer,
        });
      }
      const now = this.clock();
      // Never analysed anywhere (no checkpoint): today's points, as at start-up.
      const from = Number.isFinite(dm.lastTime)
        ? Math.max(dm.lastTime + 1, now - REPLAY_MAX_MS)
        : dayStart(dayOf(now));
      await this.replay(dm, from, now);
    } finally {
      // Held points already stored (and so replayed) are skipped; the rest follow in order.
      await this.store.exclusive(() => Promise.resolve(this.store.forget(dm.imei)));
      const held = (dm.buffer ?? []).sort((a, b) => a.time - b.time);
      dm.buffer = null;
      for (const p of held) if (p.time > dm.lastTime) this.pushPoint(dm, p);
      this.collect(dm);
      if (connectedAt !== null) this.goOnline(dm, connectedAt);
      this.schedule();
    }
  }

  /**
   * The device's connection closed here: what it closed and its checkpoint are written now,
   * unless another instance's checkpoint is further already (it took the device over).
   */
  private async releaseDevice(imei: string): Promise<void> {
    this.held.delete(imei);
    await this.flush();
    await this.store.exclusive(async () => {
      const dm = this.devices.get(imei);
      this.store.forget(imei);
      if (!dm || dm.buffer || this.held.has(imei)) return;
      const stored = await this.store.checkpoint(imei);
      if (stored && stored.lastTime > dm.lastTime) return;
      const batch = this.store.newBatch();
      this.addCheckpoint(batch, imei);
      await batch.commit();
      this.unsaved.delete(imei);
      this.stats.checkpoints++;
    });
  }

  /** Resolves once the take-overs under way are done (flush, tests). */
  async settled(): Promise<void> {
    while (this.takingOver.size) await Promise.all([...this.takingOver]);
  }

  private fromCheckpoint(imei: string, c: Checkpoint): DeviceMotion {
    const rules = this.rules.of(c.userId);
    return {
      imei,
      userId: c.userId,
      analyzer: new MotionAnalyzer(imei, rules.rules, this.limitOf(imei), c.analyzer),
      rulesAt: c.rulesAt,
      lastTime: c.lastTime,
      day: c.day,
      dayEndsAt: c.day ? dayStart(c.day) + DAY_MS - 1 : -Infinity,
      conn: c.conn,
      fences: new Map(Object.entries(c.fences)),
      buffer: null,
    };
  }

  /** The overspeed limit the device's analysis cuts streaks at. */
  limitOf(imei: string): number {
    const own = this.known.overspeedKmh(imei);
    return own ?? this.rules.of(this.known.owner(imei) ?? "").rules.overspeedKmh;
  }

  /** The device's analysis, started fresh with its owner's rules when it has none yet. */
  device(imei: string, userId: string): DeviceMotion {
    let dm = this.devices.get(imei);
    if (!dm) {
      const rules = this.rules.of(userId);
      dm = {
        imei,
        userId,
        analyzer: new MotionAnalyzer(imei, rules.rules, this.limitOf(imei)),
        rulesAt: rules.changedAt,
        lastTime: -Infinity,
        day: null,
        dayEndsAt: -Infinity,
        conn: null,
        fences: new Map(),
        buffer: null,
      };
      this.devices.set(imei, dm);
    }
    return dm;
  }

  // --- the pipeline's handlers -------------------------------------------------------------------

  /** Every located point a commit stored for one device, in the order the device sent them. */
  onCommitted = (e: PositionsCommitted): void => {
    if (this.takeOver && !this.held.has(e.imei)) this.holdAndReload(e.imei, e.userId, null);
    const dm = this.device(e.imei, e.userId);
    if (dm.buffer) {
      for (const p of e.points) dm.buffer.push(p);
      return;
    }
    // Devices often upload a buffer newest first: in time order, those are not late points.
    for (const p of inOrder(e.points)) this.pushPoint(dm, p);
    this.collect(dm);
    this.schedule();
  };

  /**
   * Cluster mode: a status change of a device analysed elsewhere (the leader's offline sweep
   * covers every device), handed to ./relay.ts. Null: applied here.
   */
  unheldStatus: ((e: DeviceStatusChanged) => void) | null = null;

  /** Offline is the derived status going offline; it ends when the device is heard again. */
  onStatus = (e: DeviceStatusChanged): void => {
    if (this.unheldStatus && !this.holds(e.imei)) return this.unheldStatus(e);
    const dm = this.device(e.imei, e.userId);
    const now = Date.now();
    if (e.status === "offline") this.goOffline(dm, this.known.lastHeard(e.imei) ?? now);
    else if (e.previous === "offline" || dm.conn === null) this.goOnline(dm, now);
    this.schedule();
  };

  onConnection = (e: DeviceConnection): void => {
    if (this.takeOver) return this.connectionHere(e);
    if (!e.connected) return; // silence decides offline, not a closed socket
    const dm = this.device(e.imei, e.userId);
    if (dm.conn === null || !dm.conn.online) this.goOnline(dm, Date.now());
    this.schedule();
  };

  /** Cluster mode: a connection here reads the device again; one closing writes it. */
  private connectionHere(e: DeviceConnection): void {
    if (e.connected) return this.holdAndReload(e.imei, e.userId, Date.now());
    this.releaseDevice(e.imei).catch((err) => motionLog.error("motion checkpoint failed", err));
  }

  /** Fence crossings pair into visits (enter … exit). */
  onFenceCrossed = (e: FenceCrossed): void => {
    const dm = this.device(e.imei, e.userId);
    const inside = dm.fences.get(e.fenceId);
    if (e.dir === "enter") {
      if (!inside) dm.fences.set(e.fenceId, { name: e.fenceName, since: e.time });
    } else if (inside) {
      dm.fences.delete(e.fenceId);
      this.closeSegment(dm.imei, {
        kind: "fence",
        imei: dm.imei,
        start: inside.since,
        end: e.time,
        fenceId: e.fenceId,
        fenceName: inside.name,
      });
    }
    this.unsaved.add(dm.imei);
    this.schedule();
  };

  private goOffline(dm: DeviceMotion, at: number): void {
    if (dm.conn && !dm.conn.online) return;
    if (dm.conn) {
      this.closeSegment(dm.imei, {
        kind: "connectivity",
        imei: dm.imei,
        start: dm.conn.since,
        end: Math.max(at, dm.conn.since),
        online: true,
      });
    }
    dm.conn = { online: false, since: at };
    this.unsaved.add(dm.imei);
  }

  private goOnline(dm: DeviceMotion, at: number): void {
    if (dm.conn?.online) return;
    if (dm.conn) {
      this.closeSegment(dm.imei, {
        kind: "connectivity",
        imei: dm.imei,
        start: dm.conn.since,
        end: Math.max(at, dm.conn.since),
        online: false,
      });
    }
    dm.conn = { online: true, since: at };
    this.unsaved.add(dm.imei);
  }

  // --- analysis ----------------------------------------------------------------------------------

  /** Pushes one point in time order; an older one marks its day for recompute instead. */
  pushPoint(dm: DeviceMotion, p: StoredPosition): void {
    this.stats.points++;
    if (p.time < dm.lastTime) {
      this.stats.late++;
      this.markLate(dm, dayOf(p.time));
      return;
    }
    if (p.time > dm.dayEndsAt) {
      // The first point of a later day: keep the state at the end of the previous one, where a
      // recompute of the next day starts.
      if (dm.day !== null) {
        this.pending.dayEnds.push({
          imei: dm.imei,
          day: dm.day,
          end: { state: dm.analyzer.state(), lastTime: dm.lastTime },
        });
      }
      dm.day = dayOf(p.time);
      dm.dayEndsAt = dayStart(dm.day) + DAY_MS - 1;
    }
    dm.lastTime = p.time;
    dm.analyzer.push(p, this.out);
  }

  markLate(dm: DeviceMotion, day: string): void {
    const m = this.pending.late.get(dm.imei) ?? { userId: dm.userId, days: new Set<string>() };
    m.days.add(day);
    this.pending.late.set(dm.imei, m);
  }

  /** Moves what the analyzer produced into the pending writes. */
  private collect(dm: DeviceMotion): void {
    const out = this.out;
    for (const s of out.segments) this.closeSegment(dm.imei, s);
    for (const d of out.days) this.pending.days.push(d);
    out.segments.length = 0;
    out.days.length = 0;
    this.unsaved.add(dm.imei);
  }

  private closeSegment(imei: string, s: ClosedSegment): void {
    const list = this.pending.segments.get(imei);
    if (list) list.push(s);
    else this.pending.segments.set(imei, [s]);
    this.stats.segments++;
  }

  // --- what readers see from memory --------------------------------------------------------------

  /** The device's still-open segments of one kind (the trip under way, the current stop…). */
  openSegments<K extends SegmentKind>(imei: string, kind: K, now: number): SegmentKinds[K][] {
    const dm = this.devices.get(imei);
    if (!dm) return [];
    return openOf(dm, now, kind) as unknown as SegmentKinds[K][];
  }

  /** Everything memory holds of the device beyond the store (cluster mode: ./relay.ts). */
  view(imei: string, now: number): MotionView {
    const dm = this.devices.get(imei);
    return {
      open: dm ? openOf(dm, now, null) : [],
      unflushed: this.waiting().flatMap((p) => p.segments.get(imei) ?? []),
      days: this.runningDays(imei),
    };
  }

  /**
   * Cluster mode: the device's view when no live instance analyses it, from the truth in the
   * store: its checkpoint, the positions stored after it, and a tick at `now` (what the leader
   * adopting it computes). Memory here is not used: it may be hours old.
   */
  async checkpointView(imei: string, now: number): Promise<MotionView> {
    const c = await this.store.checkpoint(imei);
    if (!c) return { open: [], unflushed: [], days: [] };
    const dm = this.fromCheckpoint(imei, c);
    const out = newOutput();
    if (Number.isFinite(dm.lastTime)) {
      const from = Math.max(dm.lastTime + 1, now - REPLAY_MAX_MS);
      for (const p of await this.points.range(imei, from, now)) {
        if (p.time < dm.lastTime) continue;
        dm.lastTime = p.time;
        dm.analyzer.push(p, out);
      }
    }
    dm.analyzer.tick(now, out);
    return {
      open: openOf(dm, now, null),
      unflushed: out.segments,
      days: [...out.days, ...dm.analyzer.runningDays()],
    };
  }

  /** Segments closed but not stored yet (at most FLUSH_MS old). */
  unflushed<K extends SegmentKind>(imei: string, kind: K): SegmentKinds[K][] {
    const out: SegmentKinds[K][] = [];
    for (const p of this.waiting()) {
      for (const s of p.segments.get(imei) ?? []) {
        if (s.kind === kind) out.push(s as unknown as SegmentKinds[K]);
      }
    }
    return out;
  }

  private waiting(): Pending[] {
    return this.inFlight ? [this.inFlight, this.pending] : [this.pending];
  }

  /** Day summaries not in the store yet: the running day, the one before while it is not final,
   * and final ones waiting for the flush. */
  runningDays(imei: string): DaySummary[] {
    const out = this.waiting().flatMap((p) => p.days.filter((d) => d.imei === imei));
    const dm = this.devices.get(imei);
    if (!dm) return out;
    // The day before stays open while a trip over midnight may still add to it.
    const prev = dm.analyzer.state().prev;
    if (prev) out.push(daySummary(imei, prev));
    const today = dm.analyzer.today();
    if (today) out.push(today);
    return out;
  }

  has(imei: string): DeviceMotion | undefined {
    return this.devices.get(imei);
  }

  // --- writing -----------------------------------------------------------------------------------

  private schedule(): void {
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.flush().catch((e) => motionLog.error("motion flush failed", e));
    }, FLUSH_MS);
  }

  /** Writes what closed since the last flush; checkpoints too when due (or `checkpoint`). */
  flush(checkpoint = false): Promise<void> {
    this.flushing = this.flushing.then(() => this.settled()).then(() => this.flushNow(checkpoint));
    return this.flushing;
  }

  /**
   * Cluster mode, after a rebuild: a flush that writes this device's checkpoint too, so the
   * next instance to hold it (or a report computed from its checkpoint) starts from the rebuilt
   * analysis, not from one made with the old rules.
   */
  checkpointNow(imei: string): Promise<void> {
    this.flushing = this.flushing.then(() => this.settled()).then(() => this.flushNow(false, imei));
    return this.flushing;
  }

  private async flushNow(forceCheckpoint: boolean, alsoCheckpoint?: string): Promise<void> {
    const started = performance.now();
    const now = this.clock();
    for (const dm of this.devices.values()) {
      if (dm.buffer) continue;
      // Cluster mode: only the instance analysing a device closes its gap.
      if (this.takeOver && !this.held.has(dm.imei) && !this.adopted.has(dm.imei)) continue;
      dm.analyzer.tick(now, this.out);
      if (this.out.segments.length || this.out.days.length) this.collect(dm);
    }
    this.store.keepRecent(dayOf(now - DAY_MS));
    const p = this.pending;
    this.pending = emptyPending();
    this.inFlight = p;
    const imeis = this.dueCheckpoints(forceCheckpoint);
    if (alsoCheckpoint !== undefined && this.unsaved.delete(alsoCheckpoint)) {
      if (this.holds(alsoCheckpoint)) imeis.push(alsoCheckpoint);
    }
    try {
      await this.store.exclusive(async () => {
        const batch = this.store.newBatch();
        await this.store.writeSegments(segmentWrites(p.segments), batch);
        await this.store.saveDays(p.days, batch);
        for (const e of p.dayEnds) this.store.setDayEnd(batch, e.imei, e.day, e.end);
        if (p.late.size) await this.store.addMarkedDays(batch, p.late);
        for (let i = 0; i < imeis.length; i++) {
          if (i % 500 === 499) await new Promise((r) => setTimeout(r, 0));
          this.addCheckpoint(batch, imeis[i]);
        }
        await batch.commit();
      });
    } catch (e) {
      this.requeue(p, imeis);
      throw e;
    } finally {
      this.inFlight = null;
    }
    this.stats.flushes++;
    this.stats.checkpoints += imeis.length;
    this.stats.flushSeconds += (performance.now() - started) / 1000;
    if (p.late.size) this.onLate();
    if (this.unsaved.size || this.pending.segments.size) this.schedule();
  }

  /**
   * The devices whose checkpoint this flush writes: all when forced, else the share of the
   * devices unsaved longest that keeps each one within about CHECKPOINT_MS. Spread over the
   * flushes, a fleet's checkpoints never come as one burst that holds up the journal's commits
   * (10,000 devices at once took 1.3-2.4 s of KV writes every minute).
   */
  private dueCheckpoints(all: boolean): string[] {
    // In proportion to the time since the last share: extra flushes (rebuilds) add no writes.
    const now = Date.now();
    const elapsed = Math.min(now - this.lastShareAt, CHECKPOINT_MS);
    this.lastShareAt = now;
    const share = Math.ceil(this.unsaved.size * elapsed / CHECKPOINT_MS);
    const imeis: string[] = [];
    // A Set iterates in insertion order: a device joins it when it changes after its checkpoint.
    for (const imei of this.unsaved) {
      if (!all && imeis.length >= share) break;
      imeis.push(imei);
    }
    for (const imei of imeis) this.unsaved.delete(imei);
    // Cluster mode: only the instance analysing a device writes its checkpoint (another's is
    // stale: it would set the stored one back). Release writes its own (releaseDevice).
    return this.takeOver ? imeis.filter((imei) => this.holds(imei)) : imeis;
  }

  private addCheckpoint(batch: Batch, imei: string): void {
    const dm = this.devices.get(imei);
    if (!dm || dm.buffer) return;
    this.store.setCheckpoint(batch, imei, {
      v: 1,
      userId: dm.userId,
      lastTime: dm.lastTime,
      day: dm.day ?? "",
      analyzer: dm.analyzer.state(),
      rulesAt: dm.rulesAt,
      conn: dm.conn,
      fences: Object.fromEntries(dm.fences),
    });
  }

  /** A failed flush: its writes go into the next one. */
  private requeue(p: Pending, imeis: string[]): void {
    for (const [imei, list] of p.segments) {
      this.pending.segments.set(imei, [...list, ...(this.pending.segments.get(imei) ?? [])]);
    }
    this.pending.days.unshift(...p.days);
    this.pending.dayEnds.unshift(...p.dayEnds);
    for (const [imei, m] of p.late) {
      const cur = this.pending.late.get(imei);
      if (cur) { for (const d of m.days) cur.days.add(d); }
      else this.pending.late.set(imei, m);
    }
    for (const imei of imeis) this.unsaved.add(imei);
    this.schedule();
  }

  /** Process exit and tests: writes everything, checkpoints included. */
  async close(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.flush(true);
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Drops what is pending without writing it: a crash, for the restart tests. */
  abandon(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.pending = emptyPending();
    this.unsaved.clear();
  }

  // --- rebuilds (./recompute.ts) -----------------------------------------------------------------

  /** Stops feeding the device's analyzer (its points are buffered) while a rebuild runs. */
  async holdForRebuild(imei: string, userId: string): Promise<DeviceMotion> {
    const dm = this.device(imei, userId);
    dm.buffer ??= [];
    // What the old analyzer closed is written before the rebuild's writes.
    await this.flush();
    return dm;
  }

  /** Puts the rebuilt analyzer in place and feeds it the points that came meanwhile. */
  swapAnalyzer(
    dm: DeviceMotion,
    analyzer: MotionAnalyzer,
    lastTime: number,
    rulesAt: number,
  ): void {
    const buffered = dm.buffer ?? [];
    dm.buffer = null;
    dm.analyzer = analyzer;
    dm.rulesAt = rulesAt;
    dm.lastTime = lastTime;
    dm.day = Number.isFinite(lastTime) ? dayOf(lastTime) : null;
    dm.dayEndsAt = dm.day ? dayStart(dm.day) + DAY_MS - 1 : -Infinity;
    buffered.sort((a, b) => a.time - b.time);
    for (const p of buffered) {
      if (p.time > lastTime) this.pushPoint(dm, p);
    }
    this.collect(dm);
    this.schedule();
  }

  /** Gives up a rebuild: the old analyzer continues with the buffered points. */
  release(dm: DeviceMotion): void {
    const buffered = dm.buffer ?? [];
    dm.buffer = null;
    for (const p of buffered) this.pushPoint(dm, p);
    this.collect(dm);
    this.schedule();
  }
}

/** Each closed segment into every UTC day it overlaps (merged by identity there). */
export function segmentWrites(byImei: Map<string, ClosedSegment[]>): SegmentWrite[] {
  const writes = new Map<string, SegmentWrite>();
  for (const [imei, list] of byImei) {
    for (const s of list) {
      for (let t = dayStart(dayOf(s.start)); t <= s.end; t += DAY_MS) {
        const day = dayOf(t);
        const id = `${imei}/${s.kind}/${day}`;
        const w = writes.get(id);
        if (w) w.segments.push(s);
        else writes.set(id, { imei, kind: s.kind, day, segments: [s], replace: false });
      }
    }
  }
  return [...writes.values()];
}

/** The device's open segments (of one kind, or all), tagged with their kind. */
function openOf(dm: DeviceMotion, now: number, kind: SegmentKind | null): ClosedSegment[] {
  const out: ClosedSegment[] = [];
  const { imei } = dm;
  if ((kind === null || kind === "connectivity") && dm.conn) {
    const { since, online } = dm.conn;
    out.push({ kind: "connectivity", imei, start: since, end: Math.max(now, since), online });
  }
  if (kind === null || kind === "fence") {
    for (const [fenceId, v] of dm.fences) {
      const end = Math.max(now, v.since);
      out.push({ kind: "fence", imei, start: v.since, end, fenceId, fenceName: v.name });
    }
  }
  if (kind === "connectivity" || kind === "fence") return out;
  for (const s of dm.analyzer.open(now) as AnySegment[]) {
    if (kind === null || s.kind === kind) out.push(s);
  }
  return out;
}

/** The points in time order: the commit's own array when it is (the usual case), else a copy. */
function inOrder(points: readonly StoredPosition[]): readonly StoredPosition[] {
  for (let i = 1; i < points.length; i++) {
    if (points[i].time < points[i - 1].time) return [...points].sort((a, b) => a.time - b.time);
  }
  return points;
}
