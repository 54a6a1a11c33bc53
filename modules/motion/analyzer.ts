/**
 * One device's motion analysis: a synchronous state machine fed that device's positions in time
 * order, cutting them into trips, parking, idling, ignition intervals and overspeed streaks and
 * summing UTC days. No storage, no timers: the engine (modules/motion/engine.ts) feeds it,
 * checkpoints `state()` and stores what lands in a `MotionOutput`.
 *
 * Rules: docs/decisions.md "Motion analysis".
 */

import type { StoredPosition } from "../devices/model.ts";
import type { DaySummary, MotionRules, SegmentKinds } from "./types.ts";

type AnalyzedKind = "trip" | "parking" | "idling" | "ignition" | "overspeed";

/** A closed (or open) segment with its kind. */
export type AnySegment = { [K in AnalyzedKind]: { kind: K } & SegmentKinds[K] }[AnalyzedKind];

/** What one call produced; the caller reuses it (clear both lists after storing them). */
export interface MotionOutput {
  /** Segments closed by this call, in end order. */
  segments: AnySegment[];
  /** Day summaries that became final in this call (a day is final once no pending change can
   * reach it); the running day is read with `today()`. */
  days: DaySummary[];
}

export function newOutput(): MotionOutput {
  return { segments: [], days: [] };
}

/** JSON-serialisable checkpoint: everything needed to continue after a restart. */
export interface AnalyzerState {
  v: 1;
  [field: string]: unknown;
}

export class MotionAnalyzer {
  /** Points older than the latest pushed one, ignored (the engine recomputes their days). */
  late = 0;

  constructor(
    readonly imei: string,
    readonly rules: MotionRules,
    readonly overspeedKmh: number,
    state?: AnalyzerState,
  ) {
    void state;
  }

  push(p: StoredPosition, out: MotionOutput): void {
    void p, out;
  }

  tick(now: number, out: MotionOutput): void {
    void now, out;
  }

  open(now: number): AnySegment[] {
    void now;
    return [];
  }

  today(): DaySummary | null {
    return null;
  }

  state(): AnalyzerState {
    return { v: 1 };
  }
}
