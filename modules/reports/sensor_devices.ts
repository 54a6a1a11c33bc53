/**
 * Carriage mileage (the vehicle's own odometer per UTC day: start, end and the distance between)
 * and state statistics (per device: time online and offline over the range, how many times it
 * went each way, and the online share), both from the motion analysis.
 */
import type { DaySummary } from "../motion/types.ts";
import type { Page, ReportQuery, ReportSources } from "./context.ts";
import { mapLimit, READ_CONCURRENCY } from "./merge.ts";
import { deviceCells, km } from "./rows.ts";
import { answer, r2, sensorPaged } from "./sensor_support.ts";

const withOdometer = (d: DaySummary) => d.firstOdometer !== null && d.lastOdometer !== null;

/**
 * One row per device and day with odometer readings. A device is "unsupported" when it never
 * reported an OBD odometer and none of its days in the range has a device odometer.
 */
export async function carriageMileageReport(s: ReportSources, q: ReportQuery): Promise<Page> {
  const days = new Map<string, DaySummary[]>();
  await mapLimit(q.devices, READ_CONCURRENCY, async (d) => {
    days.set(d.imei, (await s.motion.days(d.imei, q.from, q.to)).filter(withOdometer));
  });
  const p = await sensorPaged<DaySummary>(s, q, () => true, {
    read: (d) => Promise.resolve(days.get(d.imei) ?? []),
    time: (day) => Date.parse(day.date),
    row: (day, d) => ({
      ...deviceCells(d),
      date: day.date,
      startOdometer: km(day.firstOdometer!),
      endOdometer: km(day.lastOdometer!),
      distance: km(Math.max(0, day.lastOdometer! - day.firstOdometer!)),
    }),
  });
  const reports = await mapLimit(
    q.devices,
    READ_CONCURRENCY,
    async (d) => (await s.sensors?.reports(d.imei))?.series.includes("obdOdometer") ?? false,
  );
  const unsupported = q.devices.filter((d, i) => !reports[i] && !days.get(d.imei)?.length)
    .map((d) => d.imei);
  return { ...answer(p), unsupported };
}

/** Per device (request order): online and offline time cut to the range, counts, share. */
export async function stateStatisticsReport(s: ReportSources, q: ReportQuery): Promise<Page> {
  const page = q.devices.slice(q.skip, q.skip + q.take);
  const list = await mapLimit(page, READ_CONCURRENCY, async (d) => {
    const segs = await s.motion.segments("connectivity", d.imei, q.from, q.to);
    let onlineMs = 0, offlineMs = 0, onlineCount = 0, offlineCount = 0;
    for (const c of segs) {
      const ms = Math.max(0, Math.min(c.end, q.to) - Math.max(c.start, q.from));
      if (c.online) {
        onlineMs += ms;
        onlineCount++;
      } else {
        offlineMs += ms;
        offlineCount++;
      }
    }
    const known = onlineMs + offlineMs;
    return {
      ...deviceCells(d),
      onlineTime: Math.round(onlineMs / 1000),
      offlineTime: Math.round(offlineMs / 1000),
      onlineCount,
      offlineCount,
      onlineRate: known > 0 ? r2((onlineMs / known) * 100) : null,
    };
  });
  return { total: q.devices.length, list, unsupported: [] };
}
