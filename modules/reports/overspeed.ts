/**
 * Overspeed: the streaks the analysis cut at the device's limit (its overspeed threshold, else
 * the account's default) — or, for another `speedLimit`, streaks recomputed from the points of
 * only those trips whose top speed is above it (a slower trip cannot hold one).
 */
import { BizError } from "../../lib/errors.ts";
import type { FixColumns } from "../positions/types.ts";
import { OVERSPEED_CUSTOM_RANGE_DAYS } from "./model.ts";
import { DEFAULT_MOTION_RULES, type OverspeedSegment, type TripSegment } from "../motion/types.ts";
import type { Page, ReportQuery, ReportSources } from "./context.ts";
import { pagedByTime } from "./paged.ts";
import { deviceCells, iso, kmh, seconds } from "./rows.ts";

type Streak = Pick<OverspeedSegment, "start" | "end" | "maxSpeed" | "avgSpeed" | "lat" | "lng">;

export function overspeedReport(
  s: ReportSources,
  q: ReportQuery,
  speedLimit: number | undefined,
): Promise<Page> {
  const custom = speedLimit !== undefined &&
    q.devices.some((d) => s.overspeedLimit(d.imei) !== speedLimit);
  if (custom && q.to - q.from > OVERSPEED_CUSTOM_RANGE_DAYS * 86_400_000) {
    throw new BizError("playbackRangeTooLong", { days: OVERSPEED_CUSTOM_RANGE_DAYS });
  }
  return pagedByTime<Streak>(s, q, {
    read: (d) => {
      const limit = speedLimit ?? s.overspeedLimit(d.imei);
      return limit === s.overspeedLimit(d.imei)
        ? s.motion.segments("overspeed", d.imei, q.from, q.to)
        : streaksAbove(s, q, d.imei, limit);
    },
    time: (o) => o.start,
    row: (o, d) => ({
      ...deviceCells(d),
      startTime: iso(o.start),
      endTime: iso(o.end),
      duration: seconds(o.start, o.end),
      maxSpeed: kmh(o.maxSpeed),
      avgSpeed: kmh(o.avgSpeed),
      lat: o.lat,
      lng: o.lng,
    }),
  });
}

/**
 * Streaks above `limit` inside the device's trips of the range that went faster than it: one
 * columnar read from the first such trip to the last, scanned trip by trip.
 */
async function streaksAbove(
  s: ReportSources,
  q: ReportQuery,
  imei: string,
  limit: number,
): Promise<Streak[]> {
  const trips = (await s.motion.segments("trip", imei, q.from, q.to))
    .filter((t: TripSegment) => t.maxSpeed > limit);
  if (!trips.length) return [];
  const fixes = await s.tracks.validFixes(imei, trips[0].start, trips[trips.length - 1].end);
  const out: Streak[] = [];
  for (const t of trips) {
    const first = firstAtOrAfter(fixes.time, t.start);
    const last = firstAtOrAfter(fixes.time, t.end + 1);
    for (const streak of streaksOf(fixes, limit, first, last)) {
      if (streak.end >= q.from && streak.start <= q.to) out.push(streak);
    }
  }
  return out;
}

/** The first index whose time is at or after `t` (binary search; times ascending). */
function firstAtOrAfter(times: Float64Array, t: number): number {
  let lo = 0, hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (times[mid] < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The analysis' streak rule (modules/motion/analyzer.ts) at another limit, over the valid
 * fixes `from` ≤ i < `to`: consecutive fixes above the limit, from the first to the last of
 * them, at least overspeedMinSeconds long, cut by a data gap; placed where it began; average
 * of the fixes' speeds.
 */
export function streaksOf(
  f: FixColumns,
  limit: number,
  from = 0,
  to = f.length,
  rules = DEFAULT_MOTION_RULES,
): Streak[] {
  const out: Streak[] = [];
  const minMs = rules.overspeedMinSeconds * 1000, gapMs = rules.gapSeconds * 1000;
  let start = -1, max = 0, sum = 0, n = 0;
  const close = (end: number) => {
    if (start >= 0 && f.time[end] - f.time[start] >= minMs) {
      out.push({
        start: f.time[start],
        end: f.time[end],
        maxSpeed: max,
        avgSpeed: Math.round((sum / n) * 10) / 10,
        lat: f.lat[start],
        lng: f.lng[start],
      });
    }
    start = -1;
  };
  for (let i = from; i < to; i++) {
    if (start >= 0 && f.time[i] - f.time[i - 1] > gapMs) close(i - 1);
    if (f.speed[i] <= limit) {
      if (start >= 0) close(i - 1);
      continue;
    }
    if (start < 0) {
      start = i;
      max = sum = n = 0;
    }
    max = Math.max(max, f.speed[i]);
    sum += f.speed[i];
    n++;
  }
  if (start >= 0) close(to - 1);
  return out;
}
