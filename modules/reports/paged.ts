/**
 * The common shape of the time-ordered reports: read every device's sorted list (in parallel,
 * bounded), merge by time, keep the page, build its rows and fill their addresses.
 */
import type { Device } from "../devices/model.ts";
import type { Page, ReportQuery, ReportSources, Row } from "./context.ts";
import { mapLimit, mergedSlice, READ_CONCURRENCY, totalOf } from "./merge.ts";
import { fillAddresses, type Place } from "./rows.ts";

export interface TimedView<T> {
  /** One device's entries of the range, sorted by `time`. */
  read(d: Device): Promise<T[]>;
  time(entry: T): number;
  row(entry: T, d: Device): Row;
  /** Row fields that hold the address of a point of the entry. */
  places?(entry: T): { field: string; lat: number; lng: number }[];
}

export async function pagedByTime<T>(
  s: ReportSources,
  q: ReportQuery,
  view: TimedView<T>,
): Promise<Page> {
  const lists = await mapLimit(q.devices, READ_CONCURRENCY, (d) => view.read(d));
  const picks = mergedSlice(
    lists.map((l) => ({ length: l.length, time: (i: number) => view.time(l[i]) })),
    q.skip,
    q.take,
  );
  const places: Place[] = [];
  const list = picks.map(([li, i]) => {
    const d = q.devices[li], entry = lists[li][i];
    const row = view.row(entry, d);
    for (const p of view.places?.(entry) ?? []) places.push({ row, ...p, userId: d.userId });
    return row;
  });
  await fillAddresses(s, q, places);
  return { total: totalOf(lists), list };
}
