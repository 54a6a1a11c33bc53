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

/** A track as columns (typed arrays or plain arrays of equal length). */
export interface TrackSeries {
  time: ArrayLike<number>;
  lat: ArrayLike<number>;
  lng: ArrayLike<number>;
  speed: ArrayLike<number>;
}

/** detectStops over a list of point objects. */
export function detectStops(
  pts: { time: number; lat: number; lng: number; speed: number }[],
  minMs = MIN_STOP_MS,
): Stop[] {
  return detectStopsIn({
    time: pts.map((p) => p.time),
    lat: pts.map((p) => p.lat),
    lng: pts.map((p) => p.lng),
    speed: pts.map((p) => p.speed),
  }, minMs);
}

/**
 * Runs of points below the moving threshold lasting at least minMs, and gaps in reporting of
 * that length (a device that sleeps while parked sends nothing).
 */
export function detectStopsIn(s: TrackSeries, minMs = MIN_STOP_MS): Stop[] {
  const { time, speed } = s, n = time.length;
  const stops: Stop[] = [];
  const stopOf = (from: number, to: number, end: number): Stop => ({
    from,
    to,
    start: time[from],
    end,
    lat: s.lat[from],
    lng: s.lng[from],
  });
  let i = 0;
  while (i < n) {
    if (speed[i] >= MOVING_SPEED_KMH) {
      if (i + 1 < n && time[i + 1] - time[i] >= minMs) stops.push(stopOf(i, i, time[i + 1]));
      i++;
      continue;
    }
    let j = i;
    while (j + 1 < n && speed[j + 1] < MOVING_SPEED_KMH) j++;
    // The halt ends when the next (moving) point arrives.
    const end = j + 1 < n ? time[j + 1] : time[j];
    if (end - time[i] >= minMs) stops.push(stopOf(i, j, end));
    i = j + 1;
  }
  return stops;
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
