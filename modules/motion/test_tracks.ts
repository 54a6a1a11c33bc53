/**
 * Crafted tracks for the analyzer's tests and benchmark: a vehicle driven north along a meridian
 * (one degree of latitude is a fixed 111.195 km at the analyzer's earth radius), parked with
 * seeded GPS noise, with ACC, odometer and attributes when asked.
 */

import type { StoredPosition } from "../devices/model.ts";
import type { DeviceDirectory } from "../devices/directory.ts";
import type { Position } from "../gateway/protocols/types.ts";
import type { Ingestor } from "../gateway/ingest/ingest.ts";
import { KNOT_IN_KMH } from "../gateway/ingest/convert.ts";

export const METRES_PER_DEGREE = (6_371_008.8 * Math.PI) / 180;

export interface PointExtras {
  acc?: boolean | null;
  mileage?: number | null;
  valid?: boolean;
  attributes?: Record<string, string | number | boolean>;
}

export function point(
  time: number,
  lat: number,
  lng: number,
  speed: number,
  x: PointExtras = {},
): StoredPosition {
  return {
    time,
    lat,
    lng,
    speed,
    course: 0,
    altitude: 0,
    satellites: 8,
    posType: 1,
    valid: x.valid ?? true,
    acc: x.acc ?? null,
    mileage: x.mileage ?? null,
    battery: null,
    signal: null,
    attributes: x.attributes ?? {},
  };
}

/** Deterministic noise in [-1, 1) (mulberry32). */
export function noise(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) / 4294967296) * 2 - 1;
  };
}

/** Builds a track point by point; `acc` and `odometer` (km, counted along the drive) when set. */
export class Track {
  readonly points: StoredPosition[] = [];
  acc: boolean | null = null;
  /** Odometer in km, reported on every point when not null. */
  odometer: number | null = null;

  constructor(public time: number, public lat = 22.5, public lng = 114.0) {}

  private add(speed: number, lat = this.lat, lng = this.lng, x: PointExtras = {}): void {
    this.points.push(
      point(this.time, lat, lng, speed, { acc: this.acc, mileage: this.odometer, ...x }),
    );
  }

  /** One point here, now. */
  here(speed = 0, x: PointExtras = {}): this {
    this.add(speed, this.lat, this.lng, x);
    return this;
  }

  /** Drives north at `kmh` for `seconds`, a point every `step` s (the first after one step). */
  drive(seconds: number, kmh: number, step = 30): this {
    for (let t = step; t <= seconds; t += step) {
      this.time += step * 1000;
      const metres = (kmh / 3.6) * step;
      this.lat += metres / METRES_PER_DEGREE;
      if (this.odometer !== null) this.odometer += metres / 1000;
      this.add(kmh);
    }
    return this;
  }

  /** Stands still for `seconds`, a point every `step` s; `driftM` > 0 scatters fixes that far
   * around the spot (with a bogus speed up to 8 km/h, as receivers report). */
  stay(seconds: number, step = 30, driftM = 0, seed = 1): this {
    const rnd = noise(seed);
    for (let t = step; t <= seconds; t += step) {
      this.time += step * 1000;
      if (driftM === 0) {
        this.add(0);
        continue;
      }
      const dLat = (rnd() * driftM) / METRES_PER_DEGREE;
      const dLng = (rnd() * driftM) / (METRES_PER_DEGREE * Math.cos((this.lat * Math.PI) / 180));
      this.add(Math.abs(rnd()) * 8, this.lat + dLat, this.lng + dLng);
    }
    return this;
  }

  /** Nothing for `seconds`. */
  silence(seconds: number): this {
    this.time += seconds * 1000;
    return this;
  }
}

function toPosition(p: StoredPosition): Position {
  return {
    time: new Date(p.time),
    valid: p.valid,
    latitude: p.lat,
    longitude: p.lng,
    altitude: 0,
    speed: p.speed / KNOT_IN_KMH,
    course: 0,
    posType: 1,
    acc: p.acc ?? undefined,
    mileage: p.mileage ?? undefined,
    attributes: {},
  };
}

/** Submits points the way the gateway does (one message of many fixes per 50 points). */
export async function feed(
  s: { directory: Pick<DeviceDirectory, "get">; ingestor: Pick<Ingestor, "submit"> },
  imei: string,
  points: StoredPosition[],
): Promise<void> {
  const device = s.directory.get(imei)!;
  for (let i = 0; i < points.length; i += 50) {
    const positions = points.slice(i, i + 50).map(toPosition);
    await s.ingestor.submit(device, [{ type: "positions", positions }]);
  }
}
