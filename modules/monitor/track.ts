/** Playback analysis: where a track stopped (parking) and how long. Pure. */
import { MOVING_SPEED_KMH } from "../devices/model.ts";

export interface Stop {
  /** Index of the first and last point of the stop. */
  from: number;
  to: number;
  start: number;
  end: number;
  lat: number;
  lng: number;
}

/** A stop lasts at least this long; shorter halts (traffic lights) are not marked. */
export const MIN_STOP_MS = 3 * 60_000;

/**
 * Runs of points below the moving threshold lasting at least minMs, and gaps in reporting of
 * that length (a device that sleeps while parked sends nothing).
 */
export function detectStops(
  pts: { time: number; lat: number; lng: number; speed: number }[],
  minMs = MIN_STOP_MS,
): Stop[] {
  const stops: Stop[] = [];
  let i = 0;
  while (i < pts.length) {
    if (pts[i].speed >= MOVING_SPEED_KMH) {
      if (i + 1 < pts.length && pts[i + 1].time - pts[i].time >= minMs) {
        stops.push(stopOf(pts, i, i, pts[i + 1].time));
      }
      i++;
      continue;
    }
    let j = i;
    while (j + 1 < pts.length && pts[j + 1].speed < MOVING_SPEED_KMH) j++;
    // The halt ends when the next (moving) point arrives.
    const end = j + 1 < pts.length ? pts[j + 1].time : pts[j].time;
    if (end - pts[i].time >= minMs) stops.push(stopOf(pts, i, j, end));
    i = j + 1;
  }
  return stops;
}

function stopOf(
  pts: { time: number; lat: number; lng: number }[],
  from: number,
  to: number,
  end: number,
): Stop {
  return { from, to, start: pts[from].time, end, lat: pts[from].lat, lng: pts[from].lng };
}

/** Index of the last point at or before `time` (binary search over sorted times). */
export function indexAt(times: ArrayLike<number>, time: number): number {
  let lo = 0, hi = times.length - 1;
  if (hi < 0 || time <= times[0]) return 0;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (times[mid] <= time) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
