/**
 * Distances in metres for planned routes: leg lengths and the distance of a fix from a route
 * line, on a local equirectangular projection (errors far below a corridor's 10 m at the
 * scale of a 500 km route's legs), so the per-position check is a few multiplications.
 */
import type { RoutePoint } from "./paths_model.ts";

const EARTH_M = 6_371_008.8;
const RAD = Math.PI / 180;

/** Great-circle distance in metres. */
export function haversineM(a: RoutePoint, b: RoutePoint): number {
  const dLat = (b.lat - a.lat) * RAD;
  const dLng = (b.lng - a.lng) * RAD;
  const h = Math.sin(dLat / 2) ** 2 +
    Math.cos(a.lat * RAD) * Math.cos(b.lat * RAD) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

export function lineLengthM(line: readonly RoutePoint[]): number {
  let m = 0;
  for (let i = 1; i < line.length; i++) m += haversineM(line[i - 1], line[i]);
  return m;
}

/**
 * A route line prepared for distance checks: legs as flat arrays in degrees, a bounding box
 * grown by the corridor, and a coarse grid of legs when the line has many of them.
 */
export interface Corridor {
  /** lat0,lng0,lat1,lng1 per leg. */
  legs: Float64Array;
  /** Bounding box of the line grown by the offset: minLat, minLng, maxLat, maxLng. */
  box: [number, number, number, number];
  offsetM: number;
  /** Metres per degree of longitude at the line's mid latitude. */
  mPerDegLng: number;
  /** Cell key → leg indexes touching the cell grown by the offset (null: few legs, scan all). */
  grid: Map<number, number[]> | null;
  cellDeg: number;
}

const M_PER_DEG_LAT = EARTH_M * RAD;
/** Lines with more legs than this get a grid index. */
const GRID_FROM_LEGS = 16;

export function corridor(line: readonly RoutePoint[], offsetM: number): Corridor {
  const n = Math.max(0, line.length - 1);
  const legs = new Float64Array(Math.max(1, n) * 4);
  let minLat = Infinity, minLng = Infinity, maxLat = -Infinity, maxLng = -Infinity;
  for (const p of line) {
    minLat = Math.min(minLat, p.lat);
    maxLat = Math.max(maxLat, p.lat);
    minLng = Math.min(minLng, p.lng);
    maxLng = Math.max(maxLng, p.lng);
  }
  for (let i = 0; i < n; i++) {
    legs.set([line[i].lat, line[i].lng, line[i + 1].lat, line[i + 1].lng], i * 4);
  }
  if (n === 0 && line.length) legs.set([line[0].lat, line[0].lng, line[0].lat, line[0].lng]);
  const mPerDegLng = M_PER_DEG_LAT * Math.cos(((minLat + maxLat) / 2) * RAD);
  const padLat = offsetM / M_PER_DEG_LAT;
  const padLng = offsetM / Math.max(1, mPerDegLng);
  const c: Corridor = {
    legs,
    box: [minLat - padLat, minLng - padLng, maxLat + padLat, maxLng + padLng],
    offsetM,
    mPerDegLng,
    grid: null,
    cellDeg: 0,
  };
  if (n > GRID_FROM_LEGS) indexLegs(c, n, padLat, padLng);
  return c;
}

/** Buckets each leg (its box grown by the offset) into square cells about a leg long. */
function indexLegs(c: Corridor, n: number, padLat: number, padLng: number): void {
  const span = Math.max(c.box[2] - c.box[0], c.box[3] - c.box[1]);
  c.cellDeg = Math.max(span / Math.sqrt(n) / 2, padLat * 2, 1e-4);
  c.grid = new Map();
  for (let i = 0; i < n; i++) {
    const o = i * 4;
    const la0 = Math.min(c.legs[o], c.legs[o + 2]) - padLat;
    const la1 = Math.max(c.legs[o], c.legs[o + 2]) + padLat;
    const ln0 = Math.min(c.legs[o + 1], c.legs[o + 3]) - padLng;
    const ln1 = Math.max(c.legs[o + 1], c.legs[o + 3]) + padLng;
    for (let y = cell(la0, c.cellDeg); y <= cell(la1, c.cellDeg); y++) {
      for (let x = cell(ln0, c.cellDeg); x <= cell(ln1, c.cellDeg); x++) {
        const k = cellKey(y, x);
        const list = c.grid.get(k);
        if (list) list.push(i);
        else c.grid.set(k, [i]);
      }
    }
  }
}

function cell(deg: number, size: number): number {
  return Math.floor(deg / size);
}

/**
 * A small-integer key of a cell (kept within V8's small integers, which hash fastest): rows
 * and columns wrap at 2^15, far beyond the cells one 500 km route's box holds.
 */
function cellKey(y: number, x: number): number {
  return ((y & 0x7fff) << 15) | (x & 0x7fff);
}

/** True when the point lies within the corridor (distance to the line ≤ offset). */
export function insideCorridor(c: Corridor, lat: number, lng: number): boolean {
  return legWithin(c, lat, lng, -1) >= 0;
}

/**
 * The index of a leg the point is within the offset of, or -1 when it is outside the corridor.
 * `hint` (the leg the vehicle was last found on) and the next one are tried first: a vehicle on
 * its route stays on one leg for many fixes, so most checks measure one or two legs.
 */
export function legWithin(c: Corridor, lat: number, lng: number, hint: number): number {
  const n = c.legs.length >> 2;
  if (hint >= 0 && hint < n) {
    if (legDistanceM(c, hint * 4, lat, lng) <= c.offsetM) return hint;
    if (hint + 1 < n && legDistanceM(c, hint * 4 + 4, lat, lng) <= c.offsetM) return hint + 1;
  }
  const [a, b, d, e] = c.box;
  if (lat < a || lat > d || lng < b || lng > e) return -1;
  if (!c.grid) {
    for (let i = 0; i < n; i++) {
      if (legDistanceM(c, i * 4, lat, lng) <= c.offsetM) return i;
    }
    return -1;
  }
  const legs = c.grid.get(cellKey(cell(lat, c.cellDeg), cell(lng, c.cellDeg)));
  if (!legs) return -1;
  for (const i of legs) if (legDistanceM(c, i * 4, lat, lng) <= c.offsetM) return i;
  return -1;
}

/** Distance in metres from the point to the line (for alert details). */
export function distanceToLineM(c: Corridor, lat: number, lng: number): number {
  let best = Infinity;
  for (let i = 0; i < c.legs.length; i += 4) best = Math.min(best, legDistanceM(c, i, lat, lng));
  return best;
}

/** Point-to-segment distance on the local projection around the corridor. */
function legDistanceM(c: Corridor, o: number, lat: number, lng: number): number {
  const ky = M_PER_DEG_LAT, kx = c.mPerDegLng;
  const ax = c.legs[o + 1] * kx, ay = c.legs[o] * ky;
  const bx = c.legs[o + 3] * kx, by = c.legs[o + 2] * ky;
  const px = lng * kx, py = lat * ky;
  const dx = bx - ax, dy = by - ay;
  const len2 = dx * dx + dy * dy;
  let t = len2 > 0 ? ((px - ax) * dx + (py - ay) * dy) / len2 : 0;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  const ex = ax + t * dx - px, ey = ay + t * dy - py;
  return Math.sqrt(ex * ex + ey * ey);
}
