/**
 * Datum conversion for Chinese map providers and compass buckets. Pure functions, shared by
 * the server and the browser islands.
 *
 * GPS devices report WGS-84. Maps of mainland China (Google's .cn tiles, AMap) use GCJ-02
 * and Baidu uses BD-09 on top of it; outside China every provider uses WGS-84.
 */

const A = 6378245.0; // Krasovsky 1940 semi-major axis used by GCJ-02
const EE = 0.00669342162296594323;
const X_PI = (Math.PI * 3000.0) / 180.0;

export type Datum = "WGS84" | "GCJ02" | "BD09";

/** Rough bounding box of mainland China; GCJ-02 is applied only inside it. */
export function outOfChina(lng: number, lat: number): boolean {
  return lng < 72.004 || lng > 137.8347 || lat < 0.8293 || lat > 55.8271;
}

function transformLat(x: number, y: number): number {
  let r = -100.0 + 2.0 * x + 3.0 * y + 0.2 * y * y + 0.1 * x * y + 0.2 * Math.sqrt(Math.abs(x));
  r += ((20.0 * Math.sin(6.0 * x * Math.PI) + 20.0 * Math.sin(2.0 * x * Math.PI)) * 2.0) / 3.0;
  r += ((20.0 * Math.sin(y * Math.PI) + 40.0 * Math.sin((y / 3.0) * Math.PI)) * 2.0) / 3.0;
  r += ((160.0 * Math.sin((y / 12.0) * Math.PI) + 320 * Math.sin((y * Math.PI) / 30.0)) * 2.0) /
    3.0;
  return r;
}

function transformLng(x: number, y: number): number {
  let r = 300.0 + x + 2.0 * y + 0.1 * x * x + 0.1 * x * y + 0.1 * Math.sqrt(Math.abs(x));
  r += ((20.0 * Math.sin(6.0 * x * Math.PI) + 20.0 * Math.sin(2.0 * x * Math.PI)) * 2.0) / 3.0;
  r += ((20.0 * Math.sin(x * Math.PI) + 40.0 * Math.sin((x / 3.0) * Math.PI)) * 2.0) / 3.0;
  r += ((150.0 * Math.sin((x / 12.0) * Math.PI) + 300.0 * Math.sin((x / 30.0) * Math.PI)) * 2.0) /
    3.0;
  return r;
}

/** WGS-84 → GCJ-02 ([lng, lat]); unchanged outside China. */
export function wgs84ToGcj02(lng: number, lat: number): [number, number] {
  if (outOfChina(lng, lat)) return [lng, lat];
  let dLat = transformLat(lng - 105.0, lat - 35.0);
  let dLng = transformLng(lng - 105.0, lat - 35.0);
  const radLat = (lat / 180.0) * Math.PI;
  let magic = Math.sin(radLat);
  magic = 1 - EE * magic * magic;
  const sqrtMagic = Math.sqrt(magic);
  dLat = (dLat * 180.0) / (((A * (1 - EE)) / (magic * sqrtMagic)) * Math.PI);
  dLng = (dLng * 180.0) / ((A / sqrtMagic) * Math.cos(radLat) * Math.PI);
  return [lng + dLng, lat + dLat];
}

/** GCJ-02 → WGS-84 by fixed-point iteration (error well under a metre). */
export function gcj02ToWgs84(lng: number, lat: number): [number, number] {
  if (outOfChina(lng, lat)) return [lng, lat];
  let x = lng, y = lat;
  for (let i = 0; i < 5; i++) {
    const [gx, gy] = wgs84ToGcj02(x, y);
    x -= gx - lng;
    y -= gy - lat;
  }
  return [x, y];
}

export function gcj02ToBd09(lng: number, lat: number): [number, number] {
  const z = Math.sqrt(lng * lng + lat * lat) + 0.00002 * Math.sin(lat * X_PI);
  const theta = Math.atan2(lat, lng) + 0.000003 * Math.cos(lng * X_PI);
  return [z * Math.cos(theta) + 0.0065, z * Math.sin(theta) + 0.006];
}

export function bd09ToGcj02(lng: number, lat: number): [number, number] {
  const x = lng - 0.0065, y = lat - 0.006;
  const z = Math.sqrt(x * x + y * y) - 0.00002 * Math.sin(y * X_PI);
  const theta = Math.atan2(y, x) - 0.000003 * Math.cos(x * X_PI);
  return [z * Math.cos(theta), z * Math.sin(theta)];
}

/** WGS-84 → the datum a provider draws in; BD-09 keeps China-only semantics via GCJ-02. */
export function toDatum(datum: Datum, lng: number, lat: number): [number, number] {
  if (datum === "WGS84" || outOfChina(lng, lat)) return [lng, lat];
  const gcj = wgs84ToGcj02(lng, lat);
  return datum === "GCJ02" ? gcj : gcj02ToBd09(gcj[0], gcj[1]);
}

/** The inverse of toDatum (for clicks on a map back to device coordinates). */
export function fromDatum(datum: Datum, lng: number, lat: number): [number, number] {
  if (datum === "WGS84") return [lng, lat];
  const gcj = datum === "BD09" ? bd09ToGcj02(lng, lat) : [lng, lat] as [number, number];
  return outOfChina(gcj[0], gcj[1]) ? [lng, lat] : gcj02ToWgs84(gcj[0], gcj[1]);
}

export const COMPASS = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"] as const;
export type Compass = typeof COMPASS[number];

/**
 * Spec: 45° buckets, north for 0-22 and 338 up. Bucket i covers [45i - 22, 45i + 22] after
 * rounding the course to whole degrees, so 22 → N, 23 → NE, 337 → NW, 338 → N.
 */
export function compassBucket(course: number): number {
  const c = ((Math.round(course) % 360) + 360) % 360;
  return Math.floor((c + 22) / 45) % 8;
}

export function compass(course: number): Compass {
  return COMPASS[compassBucket(course)];
}

/** Great-circle distance in metres. */
export function haversine(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const R = 6371008.8, toRad = Math.PI / 180;
  const dLat = (lat2 - lat1) * toRad, dLng = (lng2 - lng1) * toRad;
  const h = Math.sin(dLat / 2) ** 2 +
    Math.cos(lat1 * toRad) * Math.cos(lat2 * toRad) * Math.sin(dLng / 2) ** 2;
  return 2 * R * Math.asin(Math.min(1, Math.sqrt(h)));
}

// Spherical (Web) Mercator, EPSG:3857, as OpenLayers' fromLonLat computes it.
const EARTH_RADIUS = 6378137;
const MERCATOR_X = (Math.PI * EARTH_RADIUS) / 180;
const DEG_HALF = Math.PI / 360;

/**
 * WGS-84 lng/lat arrays → Web Mercator in the given datum, into typed arrays: a 268,000-point
 * track without an array per point.
 */
export function mercatorInto(
  datum: Datum,
  lng: ArrayLike<number>,
  lat: ArrayLike<number>,
  xs: Float64Array,
  ys: Float64Array,
): void {
  for (let i = 0; i < lng.length; i++) {
    let x = lng[i], y = lat[i];
    if (datum !== "WGS84") [x, y] = toDatum(datum, x, y);
    xs[i] = mercatorX(x);
    ys[i] = mercatorY(y);
  }
}

/** Web Mercator x of a longitude / y of a latitude (no datum shift). */
export const mercatorX = (lng: number) => lng * MERCATOR_X;
export const mercatorY = (lat: number) => Math.log(Math.tan((90 + lat) * DEG_HALF)) * EARTH_RADIUS;
