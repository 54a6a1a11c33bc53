/**
 * Reports per trip of the motion analysis with what the sensors said during it: logistics
 * (temperature min/max/avg and door openings) and OBD trips (top rpm and coolant, fuel burnt
 * from the fuel rate). The sensor figures are read for the page's rows only.
 */
import type { TripSegment } from "../motion/types.ts";
import type { SensorSample } from "../sensors/types.ts";
import type { Page, ReportQuery, ReportSources, Row } from "./context.ts";
import { mapLimit, READ_CONCURRENCY } from "./merge.ts";
import { deviceCells, iso, km, kmh, seconds } from "./rows.ts";
import { answer, r2, type Reported, sensorPaged, SUPPORTS } from "./sensor_support.ts";
import { tripId } from "./sensor_model.ts";

/** Trips of the devices with the sensor; `fill` completes each row of the page. */
async function tripsWith(
  s: ReportSources,
  q: ReportQuery,
  supports: (r: Reported) => boolean,
  fill: (row: Row, from: number, to: number, trip: TripSegment) => Promise<void>,
): Promise<Page> {
  const trips = new WeakMap<Row, TripSegment>();
  const p = await sensorPaged<TripSegment>(s, q, supports, {
    read: (d) => s.motion.segments("trip", d.imei, q.from, q.to),
    time: (t) => t.start,
    row: (t, d) => {
      const row: Row = {
        ...deviceCells(d),
        id: tripId(d.imei, t.start, t.end),
        startTime: iso(t.start),
        endTime: iso(t.end),
        duration: seconds(t.start, t.end),
        distance: km(t.distance),
      };
      trips.set(row, t);
      return row;
    },
  });
  await mapLimit(p.list, READ_CONCURRENCY, (row) => {
    const t = trips.get(row)!;
    return fill(row, t.start, t.end + 1, t);
  });
  return answer(p);
}

/** Door openings (0 → 1 per input, or open at the first reading) and the time spent open. */
export function doorFigures(samples: SensorSample[], to: number): {
  openings: number;
  openSeconds: number;
} {
  const state = new Map<number, { open: boolean; since: number }>();
  let openings = 0, openMs = 0;
  for (const x of samples) {
    const was = state.get(x.index);
    const open = x.value !== 0;
    if (open && !was?.open) openings++;
    if (was?.open && !open) openMs += x.time - was.since;
    if (!was || was.open !== open) state.set(x.index, { open, since: x.time });
  }
  for (const st of state.values()) if (st.open) openMs += Math.max(0, to - st.since);
  return { openings, openSeconds: Math.round(openMs / 1000) };
}

const stats = (xs: SensorSample[]) => {
  if (!xs.length) return { min: null, max: null, avg: null };
  let min = Infinity, max = -Infinity, sum = 0;
  for (const x of xs) {
    min = Math.min(min, x.value);
    max = Math.max(max, x.value);
    sum += x.value;
  }
  return { min: r2(min), max: r2(max), avg: r2(sum / xs.length) };
};

/** Logistics: each trip's temperature (all probes) and door openings. */
export const logisticsReport = (s: ReportSources, q: ReportQuery) =>
  tripsWith(s, q, SUPPORTS.logistics, async (row, from, to) => {
    const [temps, doors] = await Promise.all([
      s.sensors!.series(row.imei, "temperature", from, to),
      s.sensors!.series(row.imei, "door", from, to),
    ]);
    const t = stats(temps), door = doorFigures(doors, to);
    Object.assign(row, {
      minTemperature: t.min,
      maxTemperature: t.max,
      avgTemperature: t.avg,
      doorOpenings: door.openings,
      doorOpenTime: door.openSeconds,
    });
  });

/** Litres from a fuel-rate series (L/h), by the trapezoid rule; null without two readings. */
export function litresFromRate(rate: SensorSample[]): number | null {
  if (rate.length < 2) return null;
  let litres = 0;
  for (let i = 1; i < rate.length; i++) {
    const hours = (rate[i].time - rate[i - 1].time) / 3_600_000;
    litres += ((rate[i].value + rate[i - 1].value) / 2) * hours;
  }
  return r2(litres);
}

/** OBD trips: the trip with its top rpm and coolant temperature and the fuel it burnt. */
export const obdTripReport = (s: ReportSources, q: ReportQuery) =>
  tripsWith(s, q, SUPPORTS.obd, async (row, from, to, trip) => {
    const [rpm, coolant, rate] = await Promise.all(
      (["obdRpm", "obdCoolant", "obdFuelRate"] as const).map((k) =>
        s.sensors!.series(row.imei, k, from, to)
      ),
    );
    Object.assign(row, {
      avgSpeed: kmh(trip.avgSpeed),
      maxSpeed: kmh(trip.maxSpeed),
      maxRpm: stats(rpm).max,
      maxCoolant: stats(coolant).max,
      fuelUsed: litresFromRate(rate) ?? trip.fuelUsed,
    });
  });
