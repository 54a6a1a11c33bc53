/** Daily mileage (view "day"): one row per device and UTC day, from the day summaries. */
import type { DaySummary } from "../motion/types.ts";
import type { Page, ReportQuery, ReportSources } from "./context.ts";
import { pagedByTime } from "./paged.ts";
import { deviceCells, km, kmh } from "./rows.ts";

export function mileageDaysReport(s: ReportSources, q: ReportQuery): Promise<Page> {
  return pagedByTime<DaySummary>(s, q, {
    read: (d) => s.motion.days(d.imei, q.from, q.to),
    time: (day) => Date.parse(day.date),
    row: (day, d) => ({
      ...deviceCells(d),
      date: day.date,
      distance: km(day.distance),
      drivingTime: Math.round(day.drivingSeconds),
      maxSpeed: kmh(day.maxSpeed),
    }),
  });
}
