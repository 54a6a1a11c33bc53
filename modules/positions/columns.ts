/**
 * The compact playback answer (`format: "columns"`): one array per field instead of one
 * object per point, numbers as scaled integers, and the slowly changing fields
 * delta-encoded (first value absolute, then differences). A month of one device (≈ 268,000
 * points at 1 Hz) is ~45 MB as objects and ~8 MB like this, and the browser parses it into
 * typed arrays without building an object per point. Pure; shared by server and browser.
 */
import type { StoredPosition } from "../devices/model.ts";

/** Integer scales: value = integer / scale. */
export const COLUMN_SCALES = {
  lat: 1e6,
  lng: 1e6,
  speed: 10,
  altitude: 10,
  mileage: 100,
} as const;

export interface TrackColumns {
  format: "columns";
  n: number;
  /** Epoch ms, delta-encoded. */
  time: number[];
  /** Degrees × 1e6, delta-encoded. */
  lat: number[];
  lng: number[];
  /** km/h × 10, delta-encoded. */
  speed: number[];
  /** Degrees 0-359. */
  course: number[];
  /** Metres × 10, delta-encoded. */
  altitude: number[];
  satellites: number[];
  /** 1 GPS, 2 LBS, 3 WIFI, 4 IPT, 5 BEACON. */
  posType: number[];
  /** 1 on, 0 off, -1 unknown. */
  acc: number[];
  /** Odometer km × 100, delta-encoded from the previous known value; null where unknown. */
  mileage: (number | null)[];
}

/** Appends deltas of already-scaled integers. */
function deltas(values: number[]): number[] {
  let prev = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    values[i] = v - prev;
    prev = v;
  }
  return values;
}

export function encodeColumns(points: readonly StoredPosition[]): TrackColumns {
  const n = points.length;
  const col = () => new Array<number>(n);
  const c = {
    time: col(),
    lat: col(),
    lng: col(),
    speed: col(),
    course: col(),
    altitude: col(),
    satellites: col(),
    posType: col(),
    acc: col(),
  };
  const mileage = new Array<number | null>(n);
  let lastMileage = 0;
  for (let i = 0; i < n; i++) {
    const p = points[i];
    c.time[i] = p.time;
    c.lat[i] = Math.round(p.lat * COLUMN_SCALES.lat);
    c.lng[i] = Math.round(p.lng * COLUMN_SCALES.lng);
    c.speed[i] = Math.round(p.speed * COLUMN_SCALES.speed);
    c.course[i] = Math.round(p.course);
    c.altitude[i] = Math.round(p.altitude * COLUMN_SCALES.altitude);
    c.satellites[i] = p.satellites;
    c.posType[i] = p.posType;
    c.acc[i] = p.acc === null ? -1 : p.acc ? 1 : 0;
    if (p.mileage === null || Number.isNaN(p.mileage)) mileage[i] = null;
    else {
      const m = Math.round(p.mileage * COLUMN_SCALES.mileage);
      mileage[i] = m - lastMileage;
      lastMileage = m;
    }
  }
  return {
    format: "columns",
    n,
    time: deltas(c.time),
    lat: deltas(c.lat),
    lng: deltas(c.lng),
    speed: deltas(c.speed),
    course: c.course,
    altitude: deltas(c.altitude),
    satellites: c.satellites,
    posType: c.posType,
    acc: c.acc,
    mileage,
  };
}

/** Undoes the delta encoding and the scale into `out` (a typed array of length ≥ n). */
export function undelta<T extends Float64Array | Float32Array>(
  values: readonly number[],
  scale: number,
  out: T,
): T {
  let acc = 0;
  for (let i = 0; i < values.length; i++) {
    acc += values[i];
    out[i] = acc / scale;
  }
  return out;
}

/** The mileage column back to km (null where unknown). */
export function mileageOf(values: readonly (number | null)[]): (number | null)[] {
  let acc = 0;
  return values.map((d) => d === null ? null : (acc += d) / COLUMN_SCALES.mileage);
}
