/**
 * Refuels and drains found in a fuel level series (litres). Levels are noisy (a float sensor
 * jitters by a litre or two, a single bad reading jumps), slosh while the vehicle moves, and a
 * refuel spreads over several reports. So: samples taken while moving are left out and cut the
 * series (consumption over a drive is never a drain); each still stretch is smoothed by a
 * running median of 5; a change is followed while the level keeps going the same way (dips
 * within the noise allowed), and counts when it reaches the threshold. Pure.
 */
import { DEFAULT_FUEL_THRESHOLD_L, FUEL_MOVING_KMH } from "./model.ts";

export interface FuelSample {
  time: number;
  litres: number;
  /** km/h; absent (status reports) counts as still. */
  speed?: number;
  lat?: number;
  lng?: number;
}

export interface FuelChange {
  kind: "refuel" | "drain";
  /** When the level started to change and when it settled. */
  start: number;
  end: number;
  before: number;
  after: number;
  /** Litres, positive. */
  amount: number;
  lat?: number;
  lng?: number;
}

export interface FuelOptions {
  /** Litres a change must reach (the tank's refuel threshold). */
  threshold?: number;
  /** Litres the level may wobble without ending a change. */
  noise?: number;
  /** A change longer than this is consumption or a leak, not one refuel/drain. */
  maxSpanMs?: number;
}

const MEDIAN_WINDOW = 5;
const DEFAULT_NOISE_L = 2;
const DEFAULT_MAX_SPAN_MS = 60 * 60_000;

export function detectFuelChanges(samples: readonly FuelSample[], opts: FuelOptions = {}) {
  const o = {
    threshold: opts.threshold ?? DEFAULT_FUEL_THRESHOLD_L,
    noise: opts.noise ?? DEFAULT_NOISE_L,
    maxSpanMs: opts.maxSpanMs ?? DEFAULT_MAX_SPAN_MS,
  };
  const out: FuelChange[] = [];
  for (const stretch of stillStretches(samples)) out.push(...changesIn(stretch, o));
  return out;
}

/** Runs of samples taken standing still, in time order. */
export function stillStretches(samples: readonly FuelSample[]): FuelSample[][] {
  const out: FuelSample[][] = [];
  let run: FuelSample[] = [];
  for (const s of samples) {
    if ((s.speed ?? 0) > FUEL_MOVING_KMH || !Number.isFinite(s.litres)) {
      if (run.length) out.push(run);
      run = [];
    } else run.push(s);
  }
  if (run.length) out.push(run);
  return out;
}

/** Running median (window 5, shrinking at the ends): one wrong reading never moves it. */
export function medianSmooth(values: readonly number[]): number[] {
  const half = MEDIAN_WINDOW >> 1;
  const w = new Float64Array(MEDIAN_WINDOW);
  const out = new Array<number>(values.length);
  for (let i = 0; i < values.length; i++) {
    // The window sorted by insertion into a reused buffer (runs every minute per device).
    let n = 0;
    for (let j = Math.max(0, i - half); j < Math.min(values.length, i + half + 1); j++) {
      let k = n++;
      while (k > 0 && w[k - 1] > values[j]) {
        w[k] = w[k - 1];
        k--;
      }
      w[k] = values[j];
    }
    out[i] = n % 2 ? w[n >> 1] : (w[n / 2 - 1] + w[n / 2]) / 2;
  }
  return out;
}

function changesIn(
  stretch: FuelSample[],
  o: Required<FuelOptions>,
): FuelChange[] {
  const level = medianSmooth(stretch.map((s) => s.litres));
  const out: FuelChange[] = [];
  let i = 0;
  while (i < level.length - 1) {
    const step = level[i + 1] - level[i];
    if (Math.abs(step) <= o.noise / 4) {
      i++;
      continue;
    }
    const dir = Math.sign(step);
    // Follow the change: the extreme so far, until the level turns back beyond the noise or
    // stops making headway for the span.
    let peak = i + 1;
    for (let j = i + 2; j < level.length; j++) {
      if (stretch[j].time - stretch[i].time > o.maxSpanMs) break;
      const gain = (level[j] - level[peak]) * dir;
      if (gain > 0) peak = j;
      else if (-gain > o.noise) break;
    }
    const amount = (level[peak] - level[i]) * dir;
    if (amount >= o.threshold) {
      const at = stretch[i];
      out.push({
        kind: dir > 0 ? "refuel" : "drain",
        start: at.time,
        end: stretch[peak].time,
        before: round1(level[i]),
        after: round1(level[peak]),
        amount: round1(amount),
        ...(at.lat !== undefined ? { lat: at.lat, lng: at.lng } : {}),
      });
      i = peak;
    } else i++;
  }
  return out;
}

const round1 = (v: number) => Math.round(v * 10) / 10;
