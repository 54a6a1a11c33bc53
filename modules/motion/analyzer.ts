/**
 * One device's motion analysis: a synchronous state machine fed that device's positions in time
 * order, cutting them into trips, parking, idling, ignition intervals and overspeed streaks and
 * summing UTC days. No storage, no timers: the engine (modules/motion/engine.ts) feeds it,
 * checkpoints `state()` and stores what lands in a `MotionOutput`.
 *
 * Rules (docs/decisions.md "Motion analysis"), all thresholds from MotionRules:
 * - Stopped, a candidate departure begins at the first fix moving at ≥ MOVING_SPEED_KMH or lying
 *   outside the stop radius (dated there, measured from the fix before); a slow fix back inside
 *   the radius cancels it. The trip starts, back-dated to the candidate, once a later fix is
 *   ≥ tripStartMeters from the stop point.
 * - Moving, the trip ends at the first fix of a window of ≥ stopSeconds whose fixes all lie within
 *   stopRadiusMeters of it; at once on ACC off (devices that report ACC); at a data gap.
 * - Contributions to days are confirmed up to that window's first fix, so drift after a stop
 *   never reaches a day; a departure that does not become a trip stays stopped time.
 * Allocation: none per point; objects only for closed segments and final days.
 */

import { MOVING_SPEED_KMH, type StoredPosition } from "../devices/model.ts";
import { type DayAcc, dayNumber, dayNumberStart, daySummary, newDayAcc } from "./day_acc.ts";
import { cosLat, isFix, metres } from "./geo.ts";
import type { DaySummary, MotionRules, SegmentKinds } from "./types.ts";

type AnalyzedKind = "trip" | "parking" | "idling" | "ignition" | "overspeed";

/** A closed (or open) segment with its kind. */
export type AnySegment = { [K in AnalyzedKind]: { kind: K } & SegmentKinds[K] }[AnalyzedKind];

/** What one call produced; the caller reuses it (clear both lists after storing them). */
export interface MotionOutput {
  /** Segments closed by this call, in the order they closed. */
  segments: AnySegment[];
  /** Day summaries that became final in this call (no in-order point can change them any more);
   * the running day is read with `today()`. */
  days: DaySummary[];
}

export function newOutput(): MotionOutput {
  return { segments: [], days: [] };
}

/** A remembered point, overwritten in place. */
export interface Mark {
  time: number;
  lat: number;
  lng: number;
  cos: number;
  /** Running track length (m) of the device at this point. */
  cum: number;
  odo: number | null;
  fuelCounter: number | null;
  fuelLevel: number | null;
  harshAcc: number;
  harshBrake: number;
}

/** JSON-serialisable checkpoint: everything needed to continue after a restart. */
export interface AnalyzerState {
  v: 1;
  started: boolean;
  lastTime: number;
  /** The silence before the next point was already handled (by tick). */
  gapClosed: boolean;
  late: number;
  cum: number;
  harshAcc: number;
  harshBrake: number;
  fuelCounter: number | null;
  fuelLevel: number | null;
  /** The device once said ACC on: from then on ACC off ends trips and ignition is tracked. */
  accReported: boolean;
  accLast: boolean | null;
  hasFix: boolean;
  fix: Mark;
  moving: boolean;
  tripStart: Mark;
  /** Moving: the trip is counted into days up to here; it is the still window's first fix. */
  confirmed: Mark;
  tripMax: number;
  /** Max speed since `confirmed` (or the candidate), split at midnight. */
  runMax: number;
  runMaxPrev: number;
  hasMidnight: boolean;
  midnight: Mark;
  hasAnchor: boolean;
  /** The stop point trips are measured from. */
  anchor: Mark;
  stopKind: "parking" | "idling" | null;
  stopStart: number;
  /** Where the stop is (set by its first fix when it began without one). */
  stopPlaced: boolean;
  stopLat: number;
  stopLng: number;
  /** Idling counted into days up to here. */
  idleCursor: number;
  hasCandidate: boolean;
  candidate: Mark;
  /** Fixes of the departure so far: one lone fix far away (a GPS jump) is not a trip. */
  candidateFixes: number;
  ignition: { open: boolean; on: boolean; start: number; lat: number; lng: number };
  overspeed: {
    open: boolean;
    start: number;
    last: number;
    lat: number;
    lng: number;
    max: number;
    sum: number;
    n: number;
  };
  cur: DayAcc | null;
  prev: DayAcc | null;
}

const mark = (): Mark => ({
  time: 0,
  lat: 0,
  lng: 0,
  cos: 1,
  cum: 0,
  odo: null,
  fuelCounter: null,
  fuelLevel: null,
  harshAcc: 0,
  harshBrake: 0,
});

function initialState(): AnalyzerState {
  return {
    v: 1,
    started: false,
    lastTime: 0,
    gapClosed: false,
    late: 0,
    cum: 0,
    harshAcc: 0,
    harshBrake: 0,
    fuelCounter: null,
    fuelLevel: null,
    accReported: false,
    accLast: null,
    hasFix: false,
    fix: mark(),
    moving: false,
    tripStart: mark(),
    confirmed: mark(),
    tripMax: 0,
    runMax: 0,
    runMaxPrev: 0,
    hasMidnight: false,
    midnight: mark(),
    hasAnchor: false,
    anchor: mark(),
    stopKind: null,
    stopStart: 0,
    stopPlaced: false,
    stopLat: 0,
    stopLng: 0,
    idleCursor: 0,
    hasCandidate: false,
    candidate: mark(),
    candidateFixes: 0,
    ignition: { open: false, on: false, start: 0, lat: 0, lng: 0 },
    overspeed: { open: false, start: 0, last: 0, lat: 0, lng: 0, max: 0, sum: 0, n: 0 },
    cur: null,
    prev: null,
  };
}

function copyMark(to: Mark, from: Mark): void {
  to.time = from.time;
  to.lat = from.lat;
  to.lng = from.lng;
  to.cos = from.cos;
  to.cum = from.cum;
  to.odo = from.odo;
  to.fuelCounter = from.fuelCounter;
  to.fuelLevel = from.fuelLevel;
  to.harshAcc = from.harshAcc;
  to.harshBrake = from.harshBrake;
}

/** Fastest plausible odometer advance (km/h) before the track is trusted instead. */
const MAX_ODOMETER_KMH = 300;
/** Largest fuel counter step (l) taken as consumption rather than a reset or a glitch. */
const MAX_FUEL_STEP = 500;

/** Metres between two marks: the odometer when both have a plausible one, else the track. */
function between(a: Mark, b: Mark): number {
  if (a.odo !== null && b.odo !== null) {
    const km = b.odo - a.odo;
    if (km >= 0 && km <= ((b.time - a.time) / 3_600_000) * MAX_ODOMETER_KMH + 0.2) return km * 1000;
  }
  return b.cum - a.cum;
}

export class MotionAnalyzer {
  private s: AnalyzerState;
  /** Where a trip ends on ACC off (scratch, not state). */
  private readonly endMark = mark();
  /** Stopped: the fix before this one, where a departure is measured from (scratch). */
  private readonly before = mark();
  private readonly gapMs: number;
  private readonly stopMs: number;
  private readonly overspeedMinMs: number;

  constructor(
    readonly imei: string,
    readonly rules: MotionRules,
    readonly overspeedKmh: number,
    state?: AnalyzerState,
  ) {
    this.s = state ? structuredClone(state) : initialState();
    this.gapMs = rules.gapSeconds * 1000;
    this.stopMs = rules.stopSeconds * 1000;
    this.overspeedMinMs = rules.overspeedMinSeconds * 1000;
  }

  /** Started and its last silence not closed yet: a tick after gapSeconds closes something. */
  get waitingForGap(): boolean {
    return this.s.started && !this.s.gapClosed;
  }

  /** Points older than the latest pushed one, ignored (the engine recomputes their days). */
  get late(): number {
    return this.s.late;
  }

  push(p: StoredPosition, out: MotionOutput): void {
    const s = this.s;
    if (!s.started) {
      s.started = true;
      s.lastTime = p.time;
      s.cur = newDayAcc(dayNumber(p.time));
    } else if (p.time < s.lastTime) {
      s.late++;
      return;
    } else if (!s.gapClosed && p.time - s.lastTime > this.gapMs) {
      this.closeForGap(out);
    }
    if (p.time >= dayNumberStart(s.cur!.day + 1)) this.rollDay(p.time, out);
    const acc = this.readAttributes(p);
    this.ignition(p, out);
    // ACC switching while stopped is known before where the point lies (a departure may begin).
    if (!s.moving) this.applyStopKind(p.time, out);
    if (isFix(p)) this.position(p, out);
    if (s.moving && acc === false) this.endTripNow(p, out);
    const alarm = p.attributes.alarm;
    if (alarm === "harshAcceleration") s.harshAcc++;
    else if (alarm === "harshBraking") s.harshBrake++;
    if (s.stopKind === "idling" && !s.hasCandidate) this.countIdle(p.time);
    s.lastTime = p.time;
    s.gapClosed = false;
    if (s.prev !== null && !this.pendingBefore(dayNumberStart(s.cur!.day))) {
      out.days.push(daySummary(this.imei, s.prev));
      s.prev = null;
    }
  }

  /** Silence: once the device has said nothing for over gapSeconds, the gap is a stop. */
  tick(now: number, out: MotionOutput): void {
    const s = this.s;
    if (s.started && !s.gapClosed && now - s.lastTime > this.gapMs) this.closeForGap(out);
  }

  /** The still-open segments, ended at the latest point (parking and ignition off: at `now`). */
  open(now: number): AnySegment[] {
    const s = this.s;
    const list: AnySegment[] = [];
    if (!s.started) return list;
    const until = Math.max(now, s.lastTime);
    if (s.moving) {
      const end = { ...s.fix, time: s.lastTime };
      list.push(this.trip(end, Math.max(s.tripMax, s.runMax, s.runMaxPrev)));
    } else if (s.stopKind !== null) {
      const end = s.stopKind === "parking" ? until : s.lastTime;
      const stop = this.stopSegment(end);
      if (stop) list.push(stop);
    }
    const ign = s.ignition;
    if (ign.open) {
      const end = ign.on ? s.lastTime : until;
      list.push({
        kind: "ignition",
        imei: this.imei,
        start: ign.start,
        end,
        on: ign.on,
        lat: ign.lat,
        lng: ign.lng,
      });
    }
    const os = s.overspeed;
    if (os.open && os.last - os.start >= this.overspeedMinMs) list.push(this.overspeedSegment());
    return list.sort((a, b) => a.start - b.start);
  }

  /** The running summary of the latest day (confirmed figures: a departure not yet a trip and
   * the still window of a trip that may be ending are not in it yet). */
  today(): DaySummary | null {
    return this.s.cur ? daySummary(this.imei, this.s.cur) : null;
  }

  /** The days not final yet, oldest first: the day before while a departure or a trip's still
   * window reaches back into it, and the latest day. */
  runningDays(): DaySummary[] {
    const s = this.s;
    const list: DaySummary[] = [];
    if (s.prev) list.push(daySummary(this.imei, s.prev));
    if (s.cur) list.push(daySummary(this.imei, s.cur));
    return list;
  }

  state(): AnalyzerState {
    return structuredClone(this.s);
  }

  // --- per point -------------------------------------------------------------------------------

  /** Odometer and fuel readings; answers the ACC state to act on (null: unknown). */
  private readAttributes(p: StoredPosition): boolean | null {
    const s = this.s;
    const cur = s.cur!;
    const odo = p.mileage;
    if (typeof odo === "number") {
      if (cur.firstOdo === null) cur.firstOdo = odo;
      cur.lastOdo = odo;
    }
    const counter = p.attributes.fuelUsed;
    if (typeof counter === "number" && counter === counter) {
      const step = s.fuelCounter === null ? 0 : counter - s.fuelCounter;
      cur.fuelCounter = (cur.fuelCounter ?? 0) + (step > 0 && step < MAX_FUEL_STEP ? step : 0);
      s.fuelCounter = counter;
    }
    const level = p.attributes.fuel;
    if (typeof level === "number" && level === level) s.fuelLevel = level;
    // A device whose ACC line is not wired says "off" for ever: ACC counts from its first "on".
    if (p.acc === true) s.accReported = true;
    if (p.acc === true || p.acc === false) s.accLast = p.acc;
    return s.accReported ? s.accLast : null;
  }

  private ignition(p: StoredPosition, out: MotionOutput): void {
    const ign = this.s.ignition;
    const said = p.acc;
    if (!this.s.accReported || typeof said !== "boolean" || (ign.open && ign.on === said)) return;
    const fix = isFix(p);
    const lat = fix ? p.lat : this.s.fix.lat;
    const lng = fix ? p.lng : this.s.fix.lng;
    if (ign.open && p.time > ign.start) {
      out.segments.push({
        kind: "ignition",
        imei: this.imei,
        start: ign.start,
        end: p.time,
        on: ign.on,
        lat: ign.lat,
        lng: ign.lng,
      });
    }
    ign.open = true;
    ign.on = said;
    ign.start = p.time;
    ign.lat = lat;
    ign.lng = lng;
  }

  private position(p: StoredPosition, out: MotionOutput): void {
    const s = this.s;
    const fix = s.fix;
    if (s.hasFix) {
      if (!s.moving) copyMark(this.before, fix);
      const step = metres(fix.lat, fix.lng, fix.cos, p.lat, p.lng);
      const midnight = dayNumberStart(s.cur!.day);
      if (fix.time < midnight && (s.moving || s.hasCandidate)) this.markMidnight(p, step, midnight);
      s.cum += step;
    }
    s.hasFix = true;
    fix.time = p.time;
    fix.lat = p.lat;
    fix.lng = p.lng;
    fix.cos = cosLat(p.lat);
    fix.cum = s.cum;
    fix.odo = p.mileage ?? null;
    fix.fuelCounter = s.fuelCounter;
    fix.fuelLevel = s.fuelLevel;
    fix.harshAcc = s.harshAcc;
    fix.harshBrake = s.harshBrake;
    this.overspeed(p, out);
    if (s.moving) this.whileMoving(p, out);
    else this.whileStopped(p, out);
  }

  /** The track's state at midnight between the last fix and `p`, to split the day there. */
  private markMidnight(p: StoredPosition, step: number, midnight: number): void {
    const s = this.s;
    const from = s.fix;
    const f = (midnight - from.time) / (p.time - from.time);
    const m = s.midnight;
    copyMark(m, from);
    m.time = midnight;
    m.cum = s.cum + step * f;
    const odo = p.mileage ?? null;
    m.odo = from.odo !== null && odo !== null ? from.odo + (odo - from.odo) * f : null;
    s.hasMidnight = true;
    s.runMaxPrev = Math.max(s.runMaxPrev, s.runMax);
    s.runMax = 0;
  }

  private whileMoving(p: StoredPosition, out: MotionOutput): void {
    const s = this.s;
    const c = s.confirmed;
    if (p.speed > s.runMax) s.runMax = p.speed;
    if (metres(c.lat, c.lng, c.cos, p.lat, p.lng) > this.rules.stopRadiusMeters) {
      this.confirmTo(s.fix);
    } else if (p.time - c.time >= this.stopMs) {
      // Every fix since `confirmed` lay within the radius for stopSeconds: stopped there.
      this.closeTrip(c, out);
    }
  }

  private whileStopped(p: StoredPosition, out: MotionOutput): void {
    const s = this.s;
    if (!s.hasAnchor) {
      s.hasAnchor = true;
      copyMark(s.anchor, s.fix);
      if (!s.stopPlaced) this.placeStop(p.lat, p.lng);
      return;
    }
    // Moving with the ignition reported off (towed, on a ferry) is not a trip.
    if (s.accReported && s.accLast === false) {
      s.hasCandidate = false;
      return;
    }
    const a = s.anchor;
    const away = metres(a.lat, a.lng, a.cos, p.lat, p.lng);
    const leaving = p.speed >= MOVING_SPEED_KMH || away > this.rules.stopRadiusMeters ||
      away >= this.rules.tripStartMeters;
    if (!s.hasCandidate) {
      if (!leaving) return;
      s.hasCandidate = true;
      // Dated at the first moving fix, measured from the last standing one: the first step's
      // distance is driven, and the trip starts where the vehicle stood.
      copyMark(s.candidate, this.before);
      s.candidate.time = p.time;
      s.candidateFixes = 0;
      s.hasMidnight = false;
      s.runMax = p.speed;
      s.runMaxPrev = 0;
    } else if (!leaving) {
      s.hasCandidate = false;
      return;
    } else if (p.speed > s.runMax) s.runMax = p.speed;
    s.candidateFixes++;
    if (away >= this.rules.tripStartMeters && s.candidateFixes >= 2) this.startTrip(out);
  }

  /** The candidate departure became a trip: the stop ends where it began moving. */
  private startTrip(out: MotionOutput): void {
    const s = this.s;
    const c = s.candidate;
    this.closeStop(c.time, out);
    s.moving = true;
    s.hasCandidate = false;
    copyMark(s.tripStart, c);
    copyMark(s.confirmed, c);
    s.tripMax = 0;
    this.dayAt(c.time).trips++;
    this.confirmTo(s.fix);
  }

  /** Counts the trip from `confirmed` to `to` into the days and moves `confirmed` there. */
  private confirmTo(to: Mark): void {
    const s = this.s;
    const from = s.confirmed;
    const cur = s.cur!;
    const midnight = dayNumberStart(cur.day);
    if (from.time < midnight && s.hasMidnight && s.prev !== null) {
      addDrive(s.prev, from, s.midnight, s.runMaxPrev);
      addDrive(cur, s.midnight, to, s.runMax);
    } else {
      addDrive(cur, from, to, Math.max(s.runMax, s.runMaxPrev));
    }
    s.tripMax = Math.max(s.tripMax, s.runMax, s.runMaxPrev);
    s.runMax = 0;
    s.runMaxPrev = 0;
    s.hasMidnight = false;
    if (from !== to) copyMark(from, to);
  }

  /** ACC off during a trip: it ends at this point. */
  private endTripNow(p: StoredPosition, out: MotionOutput): void {
    const s = this.s;
    const end = this.endMark;
    copyMark(end, s.fix);
    end.time = p.time;
    if (!isFix(p)) end.odo = p.mileage ?? null;
    this.confirmTo(end);
    this.closeTrip(s.confirmed, out);
  }

  /** The trip ends at `end` (its last counted point) and a stop begins there. */
  private closeTrip(end: Mark, out: MotionOutput): void {
    const s = this.s;
    const trip = this.trip(end, s.tripMax);
    out.segments.push(trip);
    const start = s.tripStart;
    if (trip.fuelUsed !== null && (start.fuelCounter === null || end.fuelCounter === null)) {
      const day = this.dayAt(end.time);
      day.fuelTrips = (day.fuelTrips ?? 0) + trip.fuelUsed;
    }
    this.beginStop(end);
  }

  private beginStop(at: Mark): void {
    const s = this.s;
    s.moving = false;
    s.hasCandidate = false;
    s.hasAnchor = true;
    copyMark(s.anchor, at);
    s.stopKind = s.accReported && s.accLast === true ? "idling" : "parking";
    s.stopStart = at.time;
    s.idleCursor = at.time;
    this.placeStop(at.lat, at.lng);
    s.runMax = 0;
    s.runMaxPrev = 0;
  }

  private placeStop(lat: number, lng: number): void {
    const s = this.s;
    s.stopPlaced = true;
    s.stopLat = lat;
    s.stopLng = lng;
  }

  /** Stopped: parking while ACC is off or unknown, idling while on. */
  private applyStopKind(time: number, out: MotionOutput): void {
    const s = this.s;
    const want = s.accReported && s.accLast === true ? "idling" : "parking";
    if (s.stopKind === want) return;
    if (s.stopKind !== null) this.closeStop(time, out);
    s.stopKind = want;
    s.stopStart = time;
    s.idleCursor = time;
    s.hasCandidate = false;
  }

  private closeStop(time: number, out: MotionOutput): void {
    const s = this.s;
    if (s.stopKind === "idling") this.countIdle(time);
    const stop = this.stopSegment(time);
    if (stop) out.segments.push(stop);
    s.stopKind = null;
  }

  private countIdle(to: number): void {
    const s = this.s;
    const from = s.idleCursor;
    if (to <= from) return;
    const cur = s.cur!;
    const midnight = dayNumberStart(cur.day);
    if (from < midnight && s.prev !== null) {
      s.prev.idleMs += midnight - from;
      cur.idleMs += to - midnight;
    } else cur.idleMs += to - from;
    s.idleCursor = to;
  }

  private overspeed(p: StoredPosition, out: MotionOutput): void {
    const os = this.s.overspeed;
    if (p.speed > this.overspeedKmh) {
      if (!os.open) {
        os.open = true;
        os.start = p.time;
        os.lat = p.lat;
        os.lng = p.lng;
        os.max = 0;
        os.sum = 0;
        os.n = 0;
      }
      os.last = p.time;
      if (p.speed > os.max) os.max = p.speed;
      os.sum += p.speed;
      os.n++;
    } else if (os.open) this.closeOverspeed(out);
  }

  private closeOverspeed(out: MotionOutput): void {
    const os = this.s.overspeed;
    if (os.last - os.start >= this.overspeedMinMs) out.segments.push(this.overspeedSegment());
    os.open = false;
  }

  /** A data gap over gapSeconds: a trip under way stopped where it last moved, idling and
   * ignition on are not assumed through the silence, an overspeed streak is cut. */
  private closeForGap(out: MotionOutput): void {
    const s = this.s;
    const last = s.lastTime;
    if (s.moving) this.closeTrip(s.confirmed, out);
    s.hasCandidate = false;
    // Where the device shows up after the silence is its new stop point, not a departure.
    s.hasAnchor = false;
    if (s.stopKind === "idling") {
      this.closeStop(last, out);
      s.stopKind = "parking";
      s.stopStart = last;
    }
    const ign = s.ignition;
    if (ign.open && ign.on) {
      if (last > ign.start) {
        out.segments.push({
          kind: "ignition",
          imei: this.imei,
          start: ign.start,
          end: last,
          on: true,
          lat: ign.lat,
          lng: ign.lng,
        });
      }
      ign.open = false;
    }
    if (s.overspeed.open) this.closeOverspeed(out);
    s.gapClosed = true;
  }

  // --- days ------------------------------------------------------------------------------------

  private rollDay(time: number, out: MotionOutput): void {
    const s = this.s;
    // A day still waiting on a departure or a still window from two days back is final now.
    if (s.prev !== null) out.days.push(daySummary(this.imei, s.prev));
    s.prev = s.cur;
    s.cur = newDayAcc(dayNumber(time));
  }

  private dayAt(time: number): DayAcc {
    const s = this.s;
    return time < dayNumberStart(s.cur!.day) && s.prev !== null ? s.prev : s.cur!;
  }

  /** Something not yet counted (a departure, a trip's still window, idling) began before `t`. */
  private pendingBefore(t: number): boolean {
    const s = this.s;
    return (s.hasCandidate && s.candidate.time < t) || (s.moving && s.confirmed.time < t) ||
      (s.stopKind === "idling" && s.idleCursor < t);
  }

  // --- segments --------------------------------------------------------------------------------

  private trip(end: Mark, maxSpeed: number): AnySegment & { kind: "trip" } {
    const start = this.s.tripStart;
    const distance = between(start, end) / 1000;
    const hours = (end.time - start.time) / 3_600_000;
    return {
      kind: "trip",
      imei: this.imei,
      start: start.time,
      end: end.time,
      startLat: start.lat,
      startLng: start.lng,
      endLat: end.lat,
      endLng: end.lng,
      distance: Math.round(distance * 1000) / 1000,
      maxSpeed,
      avgSpeed: hours > 0 ? Math.round((distance / hours) * 10) / 10 : 0,
      fuelUsed: tripFuel(start, end),
      harshAcceleration: end.harshAcc - start.harshAcc,
      harshBraking: end.harshBrake - start.harshBrake,
    };
  }

  private stopSegment(end: number): AnySegment | null {
    const s = this.s;
    if (end <= s.stopStart) return null;
    const span = { imei: this.imei, start: s.stopStart, end, lat: s.stopLat, lng: s.stopLng };
    if (s.stopKind === "idling") return { kind: "idling", ...span };
    return { kind: "parking", ...span, acc: s.accReported ? false : null };
  }

  private overspeedSegment(): AnySegment {
    const os = this.s.overspeed;
    return {
      kind: "overspeed",
      imei: this.imei,
      start: os.start,
      end: os.last,
      limit: this.overspeedKmh,
      maxSpeed: os.max,
      avgSpeed: Math.round((os.sum / os.n) * 10) / 10,
      lat: os.lat,
      lng: os.lng,
    };
  }
}

function addDrive(day: DayAcc, from: Mark, to: Mark, maxSpeed: number): void {
  day.distanceM += between(from, to);
  day.driveMs += to.time - from.time;
  if (maxSpeed > day.maxSpeed) day.maxSpeed = maxSpeed;
}

/** Litres: the fuel counter's advance, else the fall of the fuel level; null without either. */
function tripFuel(start: Mark, end: Mark): number | null {
  if (start.fuelCounter !== null && end.fuelCounter !== null) {
    const used = end.fuelCounter - start.fuelCounter;
    return used >= 0 && used < MAX_FUEL_STEP ? Math.round(used * 100) / 100 : null;
  }
  if (start.fuelLevel !== null && end.fuelLevel !== null) {
    return Math.round(Math.max(0, start.fuelLevel - end.fuelLevel) * 100) / 100;
  }
  return null;
}
