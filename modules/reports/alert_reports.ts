/**
 * Alert details (every alert of the devices in the range, filtered by type and read state)
 * and alert statistics (counts per device and type), read from the alert records.
 */
import type { AlertRecord } from "../alerts/types.ts";
import type { Page, ReportQuery, ReportSources, Row } from "./context.ts";
import { mapLimit, READ_CONCURRENCY } from "./merge.ts";
import { pagedByTime } from "./paged.ts";
import { deviceCells, iso, kmh } from "./rows.ts";

export interface AlertFilter {
  alertType?: string;
  /** "all", 0 or true (read), -1 or false (unread). */
  read?: "all" | 0 | -1 | boolean;
}

function accepts(f: AlertFilter): (a: AlertRecord) => boolean {
  const read = f.read === true ? 0 : f.read === false ? -1 : f.read ?? "all";
  return (a) => (!f.alertType || a.type === f.alertType) && (read === "all" || a.read === read);
}

export function alertDetailsReport(
  s: ReportSources,
  q: ReportQuery,
  f: AlertFilter,
): Promise<Page> {
  const accept = accepts(f);
  return pagedByTime<AlertRecord>(s, q, {
    read: async (d) => (await s.alerts.range(d.imei, q.from, q.to)).filter(accept),
    time: (a) => a.time,
    row: (a, d) => ({
      ...deviceCells(d),
      id: a.id,
      alertType: a.type,
      alertTime: iso(a.time),
      lat: a.lat,
      lng: a.lng,
      speed: a.speed === null ? null : kmh(a.speed),
      // Worked out when the alert was raised; a missing one is looked up for this page.
      address: a.address ?? "",
      read: a.read === 0,
      processed: a.processed,
    }),
    places: (a) =>
      a.address || a.lat === null || a.lng === null
        ? []
        : [{ field: "address", lat: a.lat, lng: a.lng }],
  });
}

/** Rows per device (request order) and type (most frequent first). */
export async function alertStatisticsReport(
  s: ReportSources,
  q: ReportQuery,
  f: Pick<AlertFilter, "alertType">,
): Promise<Page> {
  const accept = accepts(f);
  const perDevice = await mapLimit(q.devices, READ_CONCURRENCY, async (d) => {
    const counts = new Map<string, number>();
    for (const a of await s.alerts.range(d.imei, q.from, q.to)) {
      if (accept(a)) counts.set(a.type, (counts.get(a.type) ?? 0) + 1);
    }
    return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([alertType, count]): Row => ({ ...deviceCells(d), alertType, count }));
  });
  const rows = perDevice.flat();
  return { total: rows.length, list: rows.slice(q.skip, q.skip + q.take) };
}
