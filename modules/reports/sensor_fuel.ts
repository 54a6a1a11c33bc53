/**
 * The fuel reports: consumption per trip (the motion analysis' trips) or per UTC day, fuel
 * daily (start and end level, refuelled, drained, used), and refuelling events. Litres used in
 * a window come from the level series (converted by the device's tank configuration):
 * level at the start − level at the end + refuelled − drained; computed for the page's rows
 * only, so a month of 200 devices costs the trip or day lists plus one read per row shown.
 */
import type { Device } from "../devices/model.ts";
import { DAY_MS } from "../motion/days.ts";
import type { DaySummary, TripSegment } from "../motion/types.ts";
import type { SensorEvent } from "../sensors/types.ts";
import type { Page, ReportQuery, ReportSources, Row } from "./context.ts";
import { mapLimit, READ_CONCURRENCY } from "./merge.ts";
import { deviceCells, iso, km } from "./rows.ts";
import { fuelAmount } from "./sensor_series_reports.ts";
import { answer, r2, sensorPaged, SUPPORTS } from "./sensor_support.ts";

/**
 * The store keeps an unchanged level only every few minutes: the level at a window's start is
 * the last reading at or before it, looked for this far back.
 */
const LEVEL_LOOKBACK_MS = 15 * 60_000;
/** Below this distance (km) a consumption per 100 km means nothing. */
const MIN_RATE_KM = 0.5;

export interface FuelWindow {
  startFuel: number | null;
  endFuel: number | null;
  refuelled: number;
  drained: number;
  /** Litres burnt; null without two level readings in the window. */
  fuelUsed: number | null;
}

/** The level series and the refuels and drains of one device in [from, to). */
export async function fuelWindow(
  s: ReportSources,
  imei: string,
  from: number,
  to: number,
): Promise<FuelWindow> {
  const [levels, events] = await Promise.all([
    s.sensors!.series(imei, "fuelLitres", from - LEVEL_LOOKBACK_MS, to),
    s.sensors!.events(imei, ["refuel", "drain"], from, to),
  ]);
  return fuelFigures(levels, events, from);
}

/**
 * The figures of a window from its readings (pure; the unit tests craft series): the level at
 * `from` (the last reading at or before it, else the first after), the last level, and
 * litres burnt = start − end + refuelled − drained.
 */
export function fuelFigures(
  levels: { time: number; value: number }[],
  events: { kind: string; data: Record<string, unknown> }[],
  from: number,
): FuelWindow {
  let refuelled = 0, drained = 0;
  for (const e of events) {
    if (e.kind === "refuel") refuelled += fuelAmount(e.data);
    else if (e.kind === "drain") drained += fuelAmount(e.data);
  }
  let first = 0;
  while (first + 1 < levels.length && levels[first + 1].time <= from) first++;
  const inside = levels.length - first;
  const start = inside ? levels[first].value : null;
  const end = inside ? levels[levels.length - 1].value : null;
  return {
    startFuel: r2(start),
    endFuel: r2(end),
    refuelled: r2(refuelled)!,
    drained: r2(drained)!,
    fuelUsed: inside >= 2 ? r2(Math.max(0, start! - end! + refuelled - drained)) : null,
  };
}

/** L/100 km, or null when too short a distance (or no litres). */
export const per100km = (litres: number | null, distance: number): number | null =>
  litres === null || distance < MIN_RATE_KM ? null : r2((litres / distance) * 100);

/** Fills the page's rows' fuel figures (each row's window read once). */
async function fillFuel(
  s: ReportSources,
  rows: Row[],
  windowOf: (row: Row) => [number, number],
  fallback: (row: Row) => number | null,
): Promise<void> {
  await mapLimit(rows, READ_CONCURRENCY, async (row) => {
    const [from, to] = windowOf(row);
    const w = await fuelWindow(s, row.imei, from, to);
    const used = w.fuelUsed ?? fallback(row);
    Object.assign(row, w, { fuelUsed: used, per100km: per100km(used, Number(row.distance)) });
  });
}

/** Fuel per trip of the motion analysis. */
async function fuelPerTrip(s: ReportSources, q: ReportQuery): Promise<Page> {
  const tripFuel = new WeakMap<Row, number | null>();
  const p = await sensorPaged<TripSegment>(s, q, SUPPORTS.fuel, {
    read: (d) => s.motion.segments("trip", d.imei, q.from, q.to),
    time: (t) => t.start,
    row: (t, d) => {
      const row = {
        ...deviceCells(d),
        startTime: iso(t.start),
        endTime: iso(t.end),
        distance: km(t.distance),
        fuelUsed: null,
        per100km: null,
      };
      tripFuel.set(row, t.fuelUsed);
      return row;
    },
  });
  await fillFuel(
    s,
    p.list,
    (row) => [Date.parse(row.startTime as string), Date.parse(row.endTime as string) + 1],
    (row) => tripFuel.get(row) ?? null,
  );
  return answer(p);
}

/** Fuel per UTC day (consumption's day view and fuel daily): the day cut to the range. */
async function fuelPerDay(s: ReportSources, q: ReportQuery): Promise<Page> {
  const p = await sensorPaged<DaySummary>(s, q, SUPPORTS.fuel, {
    read: (d: Device) => s.motion.days(d.imei, q.from, q.to),
    time: (day) => Date.parse(day.date),
    row: (day, d) => ({
      ...deviceCells(d),
      date: day.date,
      distance: km(day.distance),
      fuelUsed: day.fuelUsed,
      per100km: null,
    }),
  });
  const dayFuel = new Map(p.list.map((row) => [row, row.fuelUsed as number | null]));
  await fillFuel(
    s,
    p.list,
    (row) => {
      const start = Date.parse(`${row.date}T00:00:00Z`);
      return [Math.max(start, q.from), Math.min(start + DAY_MS, q.to + 1)];
    },
    (row) => dayFuel.get(row) ?? null,
  );
  return answer(p);
}

export const fuelConsumptionReport = (
  s: ReportSources,
  q: ReportQuery,
  view: "segment" | "day",
): Promise<Page> => view === "day" ? fuelPerDay(s, q) : fuelPerTrip(s, q);

export const fuelDailyReport = fuelPerDay;

/** Refuelling: time, place, level before and after, litres added. */
export async function refuelingReport(s: ReportSources, q: ReportQuery): Promise<Page> {
  const p = await sensorPaged<SensorEvent>(s, q, SUPPORTS.fuel, {
    read: (d) => s.sensors!.events(d.imei, ["refuel"], q.from, q.to),
    time: (e) => e.time,
    row: (e, d) => {
      const n = (v: unknown) => (typeof v === "number" ? r2(v) : null);
      return {
        ...deviceCells(d),
        time: iso(e.time),
        lat: e.lat ?? null,
        lng: e.lng ?? null,
        address: "",
        before: n(e.data.before),
        after: n(e.data.after),
        amount: r2(fuelAmount(e.data)),
      };
    },
    places: (e) =>
      e.lat !== undefined && e.lng !== undefined
        ? [{ field: "address", lat: e.lat, lng: e.lng }]
        : [],
  });
  return answer(p);
}
