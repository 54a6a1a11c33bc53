/**
 * Overspeed: the streaks the analysis cut at the device's limit (its overspeed threshold, else
 * the account's default) — or, for another `speedLimit`, streaks recomputed from the points of
 * only those trips whose top speed is above it (a slower trip cannot hold one).
 */
import type { StoredPosition } from "../devices/model.ts";
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

/** Streaks above `limit` inside the device's trips of the range that went faster than it. */
async function streaksAbove(
  s: ReportSources,
  q: ReportQuery,
  imei: string,
  limit: number,
): Promise<Streak[]> {
  const trips = (await s.motion.segments("trip", imei, q.from, q.to))
    .filter((t: TripSegment) => t.maxSpeed > limit);
  const out: Streak[] = [];
  for (const t of trips) {
    const points = await s.tracks.range(imei, t.start, t.end);
    for (const streak of streaksOf(points, limit)) {
      if (streak.end >= q.from && streak.start <= q.to) out.push(streak);
    }
  }
  return out;
}

/**
 * The analysis' streak rule (modules/motion/analyzer.ts) at another limit: consecutive valid
 * fixes above the limit, from the first to the last of them, at least overspeedMinSeconds
 * long, cut by a data gap; placed where it began; average of the fixes' speeds.
 */
export function streaksOf(
  points: readonly StoredPosition[],
  limit: number,
  rules = DEFAULT_MOTION_RULES,
): Streak[] {
  const out: Streak[] = [];
  let cur: (Streak & { sum: number; n: number }) | null = null;
  let lastTime = -Infinity;
  const close = () => {
    if (cur && cur.end - cur.start >= rules.overspeedMinSeconds * 1000) {
      out.push({ ...cur, avgSpeed: Math.round((cur.sum / cur.n) * 10) / 10 });
    }
    cur = null;
  };
  for (const p of points) {
    if (!p.valid) continue;
    if (p.time - lastTime > rules.gapSeconds * 1000) close();
    lastTime = p.time;
    if (p.speed <= limit) {
      close();
      continue;
    }
    cur ??= {
      start: p.time,
      end: p.time,
      maxSpeed: 0,
      avgSpeed: 0,
      lat: p.lat,
      lng: p.lng,
      sum: 0,
      n: 0,
    };
    cur.end = p.time;
    cur.maxSpeed = Math.max(cur.maxSpeed, p.speed);
    cur.sum += p.speed;
    cur.n++;
  }
  close();
  return out.map(({ start, end, maxSpeed, avgSpeed, lat, lng }) => ({
    start,
    end,
    maxSpeed,
    avgSpeed,
    lat,
    lng,
  }));
}
