/**
 * The reports that list the motion analysis' segments as they are: trips, parking, idling,
 * ignition, online, offline and fence visits (geoRegion). Nothing is recomputed from points:
 * the segments were cut as positions arrived (the still-open one included, ending at the
 * latest position).
 */
import type { Device } from "../devices/model.ts";
import type { SegmentKind, SegmentKinds } from "../motion/types.ts";
import type { Page, ReportQuery, ReportSources, Row } from "./context.ts";
import { pagedByTime, type TimedView } from "./paged.ts";
import { deviceCells, iso, km, kmh, seconds } from "./rows.ts";

type Seg<K extends SegmentKind> = SegmentKinds[K] & { open?: true };

const reader = <K extends SegmentKind>(s: ReportSources, q: ReportQuery, kind: K) => (d: Device) =>
  s.motion.segments(kind, d.imei, q.from, q.to) as Promise<Seg<K>[]>;

const byStart = (x: { start: number }) => x.start;

/** The device, then the segment's start, end and duration: the first cells of most rows. */
const spanCells = (x: { start: number; end: number }, d: Device) => ({
  ...deviceCells(d),
  startTime: iso(x.start),
  endTime: iso(x.end),
  duration: seconds(x.start, x.end),
});

export async function tripsReport(s: ReportSources, q: ReportQuery): Promise<Page> {
  const view: TimedView<Seg<"trip">> = {
    read: reader(s, q, "trip"),
    time: byStart,
    row: (t, d) => ({
      ...deviceCells(d),
      startTime: iso(t.start),
      endTime: iso(t.end),
      startLat: t.startLat,
      startLng: t.startLng,
      endLat: t.endLat,
      endLng: t.endLng,
      startAddress: "",
      endAddress: "",
      distance: km(t.distance),
      duration: seconds(t.start, t.end),
      avgSpeed: kmh(t.avgSpeed),
      maxSpeed: kmh(t.maxSpeed),
      fuelUsed: t.fuelUsed,
      harshAcceleration: t.harshAcceleration,
      harshBraking: t.harshBraking,
    }),
    places: (t) => [
      { field: "startAddress", lat: t.startLat, lng: t.startLng },
      { field: "endAddress", lat: t.endLat, lng: t.endLng },
    ],
  };
  const page = await pagedByTime(s, q, view);
  await fillDrivers(s, page.list);
  return page;
}

/** Each trip's driver at its start (fleet swipes, else the vehicle's driver), "" for none. */
async function fillDrivers(s: ReportSources, rows: Row[]): Promise<void> {
  for (const row of rows) row.driverName = "";
  if (!s.drivers) return;
  const drivers = s.drivers;
  await Promise.all([...Map.groupBy(rows, (r) => r.imei)].map(async ([imei, list]) => {
    const found = await drivers.driversAt(imei, list.map((r) => Date.parse(r.startTime as string)));
    list.forEach((r, i) => r.driverName = found[i]?.name ?? "");
  }));
}

/** Parking (stopped, ignition off or unknown) or idling (stopped with ACC on). */
export function stopsReport(
  s: ReportSources,
  q: ReportQuery,
  kind: "parking" | "idling",
): Promise<Page> {
  const view: TimedView<Seg<"parking" | "idling">> = {
    read: reader(s, q, kind),
    time: byStart,
    row: (p, d) => ({
      ...spanCells(p, d),
      lat: p.lat,
      lng: p.lng,
      address: "",
      // Parking: false (ignition off) or null (the device sends no ACC: found from speed).
      ...(kind === "parking" ? { acc: "acc" in p ? p.acc : null } : {}),
    }),
    places: (p) => [{ field: "address", lat: p.lat, lng: p.lng }],
  };
  return pagedByTime(s, q, view);
}

/** Mileage, segment view: one row per trip with its distance. */
export function mileageSegmentsReport(s: ReportSources, q: ReportQuery): Promise<Page> {
  return pagedByTime<Seg<"trip">>(s, q, {
    read: reader(s, q, "trip"),
    time: byStart,
    row: (t, d) => ({
      ...spanCells(t, d),
      distance: km(t.distance),
      maxSpeed: kmh(t.maxSpeed),
    }),
  });
}

export function ignitionReport(s: ReportSources, q: ReportQuery): Promise<Page> {
  return pagedByTime<Seg<"ignition">>(s, q, {
    read: reader(s, q, "ignition"),
    time: byStart,
    row: (g, d) => ({
      ...deviceCells(d),
      state: g.on ? "on" : "off",
      startTime: iso(g.start),
      endTime: iso(g.end),
      duration: seconds(g.start, g.end),
      lat: g.lat,
      lng: g.lng,
      address: "",
    }),
    places: (g) => [{ field: "address", lat: g.lat, lng: g.lng }],
  });
}

/** Online or offline intervals (the connectivity segments of one kind). */
export function connectivityReport(
  s: ReportSources,
  q: ReportQuery,
  online: boolean,
): Promise<Page> {
  const read = reader(s, q, "connectivity");
  return pagedByTime<Seg<"connectivity">>(s, q, {
    read: async (d) => (await read(d)).filter((c) => c.online === online),
    time: byStart,
    row: spanCells,
  });
}

/** Fence visits: enter, exit (null while still inside), duration. */
export function geoRegionReport(s: ReportSources, q: ReportQuery): Promise<Page> {
  return pagedByTime<Seg<"fence">>(s, q, {
    read: reader(s, q, "fence"),
    time: byStart,
    row: (v, d) => ({
      ...deviceCells(d),
      fenceId: v.fenceId,
      fenceName: v.fenceName,
      enterTime: iso(v.start),
      exitTime: v.open ? null : iso(v.end),
      duration: seconds(v.start, v.end),
    }),
  });
}
