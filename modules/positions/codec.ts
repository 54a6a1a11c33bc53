import type { StoredPosition } from "../devices/model.ts";

/**
 * Columnar packing of many positions into one KV value (a "block"), so a month of one
 * device's track is read as a few hundred values instead of 268,000 keys.
 */
export interface PositionBlock {
  n: number;
  time: Float64Array;
  lat: Float64Array;
  lng: Float64Array;
  speed: Float32Array;
  course: Uint16Array;
  altitude: Float32Array;
  satellites: Uint8Array;
  posType: Uint8Array;
  /** bit0 valid, bit1 acc known, bit2 acc on. */
  flags: Uint8Array;
  /** NaN when unknown. */
  mileage: Float64Array;
  /** -1 when unknown. */
  battery: Int8Array;
  signal: Int8Array;
  /** JSON of each point's attributes ("" when none). */
  attributes: string[];
}

/** Fixed bytes per point, used to keep a block under the 64 KiB value limit. */
export const FIXED_BYTES_PER_POINT = 8 * 4 + 4 * 2 + 2 + 1 * 5;
export const MAX_BLOCK_BYTES = 56 * 1024;

export function attributesJson(p: StoredPosition): string {
  return Object.keys(p.attributes).length ? JSON.stringify(p.attributes) : "";
}

export function packBlock(
  points: StoredPosition[],
  attrJson: string[] = points.map(attributesJson),
): PositionBlock {
  const n = points.length;
  const b: PositionBlock = {
    n,
    time: new Float64Array(n),
    lat: new Float64Array(n),
    lng: new Float64Array(n),
    speed: new Float32Array(n),
    course: new Uint16Array(n),
    altitude: new Float32Array(n),
    satellites: new Uint8Array(n),
    posType: new Uint8Array(n),
    flags: new Uint8Array(n),
    mileage: new Float64Array(n),
    battery: new Int8Array(n),
    signal: new Int8Array(n),
    attributes: attrJson,
  };
  points.forEach((p, i) => {
    b.time[i] = p.time;
    b.lat[i] = p.lat;
    b.lng[i] = p.lng;
    b.speed[i] = p.speed;
    b.course[i] = p.course;
    b.altitude[i] = p.altitude;
    b.satellites[i] = Math.min(255, Math.max(0, p.satellites));
    b.posType[i] = p.posType;
    b.flags[i] = (p.valid ? 1 : 0) | (p.acc === null ? 0 : 2) | (p.acc ? 4 : 0);
    b.mileage[i] = p.mileage ?? NaN;
    b.battery[i] = p.battery ?? -1;
    b.signal[i] = p.signal ?? -1;
  });
  return b;
}

export function unpackPoint(b: PositionBlock, i: number): StoredPosition {
  const flags = b.flags[i];
  return {
    time: b.time[i],
    lat: b.lat[i],
    lng: b.lng[i],
    speed: b.speed[i],
    course: b.course[i],
    altitude: b.altitude[i],
    satellites: b.satellites[i],
    posType: b.posType[i] as StoredPosition["posType"],
    valid: (flags & 1) === 1,
    acc: flags & 2 ? (flags & 4) === 4 : null,
    mileage: Number.isNaN(b.mileage[i]) ? null : b.mileage[i],
    battery: b.battery[i] < 0 ? null : b.battery[i],
    signal: b.signal[i] < 0 ? null : b.signal[i],
    attributes: b.attributes[i] ? JSON.parse(b.attributes[i]) : {},
  };
}

/** Splits time-ordered points into runs whose packed size stays under the value limit. */
export function splitIntoBlocks(points: StoredPosition[]): StoredPosition[][] {
  const out: StoredPosition[][] = [];
  let current: StoredPosition[] = [];
  let bytes = 0;
  for (const p of points) {
    const size = FIXED_BYTES_PER_POINT + attributesJson(p).length + 4;
    if (current.length && bytes + size > MAX_BLOCK_BYTES) {
      out.push(current);
      current = [];
      bytes = 0;
    }
    current.push(p);
    bytes += size;
  }
  if (current.length) out.push(current);
  return out;
}
