/**
 * Distances for the motion analysis: equirectangular, with the cosine of the first point's
 * latitude computed once per point by the caller, so a distance costs one square root. Over the
 * few hundred metres between consecutive fixes the error against the great circle is far below
 * GPS noise.
 */

import type { StoredPosition } from "../devices/model.ts";

const EARTH_RADIUS_M = 6_371_008.8;
const RAD = Math.PI / 180;

/** Cosine of a latitude in degrees (what `metres` takes as `cosLat1`). */
export function cosLat(lat: number): number {
  return Math.cos(lat * RAD);
}

/** Metres between two points; `cosLat1` is `cosLat(lat1)`. */
export function metres(
  lat1: number,
  lng1: number,
  cosLat1: number,
  lat2: number,
  lng2: number,
): number {
  let dLng = lng2 - lng1;
  if (dLng > 180) dLng -= 360;
  else if (dLng < -180) dLng += 360;
  const x = dLng * RAD * cosLat1;
  const y = (lat2 - lat1) * RAD;
  return EARTH_RADIUS_M * Math.sqrt(x * x + y * y);
}

/** A point whose location the analysis trusts: a valid GPS fix with real coordinates (cell and
 * WiFi locations jump by hundreds of metres: they would make trips of a parked vehicle). */
export function isFix(p: StoredPosition): boolean {
  const { lat, lng } = p;
  return p.valid && p.posType === 1 && lat === lat && lng === lng && !(lat === 0 && lng === 0) &&
    lat <= 90 && lat >= -90 && lng <= 180 && lng >= -180;
}
