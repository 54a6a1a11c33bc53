/**
 * Track details: the stored points of the devices in time order, filtered by positioning
 * type. Counting and paging use only the points' times (TrackReader.fixTimes); the points
 * themselves are read for the page's stretch of each device.
 */
import type { StoredPosition } from "../devices/model.ts";
import type { Page, ReportQuery, ReportSources, Row } from "./context.ts";
import { mapLimit, mergedSlice, READ_CONCURRENCY, totalOf } from "./merge.ts";
import { deviceCells, fillAddresses, iso, kmh, type Place } from "./rows.ts";
import type { Positioning } from "./schemas.ts";

/** Spec position types: 1 GPS, 2 LBS, 3 WIFI, 4 IPT, 5 BEACON. */
const POS_TYPE_NAMES: Record<number, string> = {
  1: "gps",
  2: "lbs",
  3: "wifi",
  4: "ipt",
  5: "beacon",
};
const POS_TYPE_OF: Record<Exclude<Positioning, "all">, number> = {
  gps: 1,
  lbs: 2,
  wifi: 3,
  beacon: 5,
};

export async function trackDetailsReport(
  s: ReportSources,
  q: ReportQuery,
  positioning: Positioning,
): Promise<Page> {
  const wanted = positioning === "all" ? null : POS_TYPE_OF[positioning];
  const accept = wanted === null ? undefined : (t: number) => t === wanted;
  const times = await mapLimit(
    q.devices,
    READ_CONCURRENCY,
    (d) => s.tracks.fixTimes(d.imei, q.from, q.to, accept),
  );
  const picks = mergedSlice(
    times.map((t) => ({ length: t.length, time: (i: number) => t[i] })),
    q.skip,
    q.take,
  );
  const points = await pagePoints(s, q, times, picks, accept);
  const places: Place[] = [];
  const list = picks.map(([li, i]): Row => {
    const d = q.devices[li];
    const p = points.get(li)?.get(i);
    const row: Row = { ...deviceCells(d), ...(p ? pointCells(p) : { time: iso(times[li][i]) }) };
    if (p) places.push({ row, field: "address", lat: p.lat, lng: p.lng, userId: d.userId });
    return row;
  });
  await fillAddresses(s, q, places);
  return { total: totalOf(times), list };
}

/**
 * The page's points: for each device on the page, its points between the page's first and
 * last time of it, matched to the page's entries by order.
 */
async function pagePoints(
  s: ReportSources,
  q: ReportQuery,
  times: Float64Array[],
  picks: Array<[number, number]>,
  accept: ((t: number) => boolean) | undefined,
): Promise<Map<number, Map<number, StoredPosition>>> {
  const spans = new Map<number, { first: number; last: number }>();
  for (const [li, i] of picks) {
    const span = spans.get(li);
    if (!span) spans.set(li, { first: i, last: i });
    else span.last = i;
  }
  const out = new Map<number, Map<number, StoredPosition>>();
  await mapLimit([...spans], READ_CONCURRENCY, async ([li, { first, last }]) => {
    const t = times[li];
    // Points of the device before `first` at the same time are on an earlier page.
    let before = 0;
    while (first - before - 1 >= 0 && t[first - before - 1] === t[first]) before++;
    const read = await s.tracks.range(q.devices[li].imei, t[first], t[last]);
    const kept = accept ? read.filter((p) => accept(p.posType)) : read;
    const byIndex = new Map<number, StoredPosition>();
    for (let i = first; i <= last; i++) {
      const p = kept[before + i - first];
      if (p) byIndex.set(i, p);
    }
    out.set(li, byIndex);
  });
  return out;
}

function pointCells(p: StoredPosition) {
  return {
    time: iso(p.time),
    lat: p.lat,
    lng: p.lng,
    speed: kmh(p.speed),
    course: p.course,
    altitude: p.altitude,
    satellites: p.satellites,
    posType: POS_TYPE_NAMES[p.posType] ?? String(p.posType),
    valid: p.valid,
    acc: p.acc,
    mileage: p.mileage,
    address: "",
  };
}
