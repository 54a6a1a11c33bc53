/**
 * The place search of the geofence editor: the user's own landmarks first (by name), then
 * fences and black-car addresses, then named places from the geocoder when the server has a
 * forward-search route. Pure functions apart from the geocoder call.
 */
import { api } from "../../lib/client/api.ts";
import type { LatLng } from "../../modules/geofences/geometry.ts";
import type { Zone, ZoneKind } from "../../modules/geofences/model.ts";
import type { PlaceHit as GeocoderHit } from "../../modules/geocoder/types.ts";

export interface PlaceHit {
  kind: ZoneKind | "place";
  /** Zone id, or "place:<lat>,<lng>" for a geocoder place. */
  id: string;
  name: string;
  /** A second line (region and country of a place). */
  detail: string;
  at: LatLng;
  zone?: Zone;
}

/** Zones first by kind in this order, landmarks being what users name places by. */
const KIND_ORDER: ZoneKind[] = ["landmark", "fence", "blackCar"];
/** Results shown at most from the user's zones and from the geocoder. */
export const MAX_ZONE_HITS = 8;
export const MAX_PLACE_HITS = 6;

/** The middle of a zone: a circle's centre, a polygon's vertex average. */
export function zoneCenter(z: Pick<Zone, "shape">): LatLng {
  if (z.shape.kind === "circle") return z.shape.center;
  const ring = z.shape.points.slice(0, -1);
  const n = ring.length || 1;
  return {
    lat: ring.reduce((s, p) => s + p.lat, 0) / n,
    lng: ring.reduce((s, p) => s + p.lng, 0) / n,
  };
}

/**
 * The user's zones whose name contains the query (case-insensitive): landmarks, then fences,
 * then black-car addresses; within a kind, names that start with it before the others.
 */
export function matchZones(q: string, zones: readonly Zone[]): PlaceHit[] {
  const needle = q.trim().toLocaleLowerCase();
  if (!needle) return [];
  const rank = (z: Zone) => {
    const name = z.name.toLocaleLowerCase();
    const at = name.indexOf(needle);
    return at < 0 ? -1 : KIND_ORDER.indexOf(z.kind) * 2 + (at === 0 ? 0 : 1);
  };
  return zones
    .map((z) => ({ z, r: rank(z) }))
    .filter((x) => x.r >= 0)
    .sort((a, b) => a.r - b.r || a.z.name.localeCompare(b.z.name))
    .slice(0, MAX_ZONE_HITS)
    .map(({ z }) => ({
      kind: z.kind,
      id: z.id,
      name: z.name,
      detail: "",
      at: zoneCenter(z),
      zone: z,
    }));
}

/** What to ask the geocoder for: landmarks come back too, and are matched locally. */
const GEOCODER_LIMIT = 12;

/** A place's second line: its region and country, without repeating its name. */
export function placeDetail(name: string, text: string): string {
  if (text === name) return "";
  return text.startsWith(`${name}, `) ? text.slice(name.length + 2) : text;
}

/**
 * Named places from the server's geocoder (modules/geocoder, POST {q, limit} → {list}).
 * Its landmark hits are dropped: the user's zones are matched locally, fences included.
 * Without a path (a server without the route) there is nothing to ask.
 */
export async function searchGeocoder(path: string | null, q: string): Promise<PlaceHit[]> {
  if (!path || q.trim().length < 2) return [];
  const answer = await api<{ list: GeocoderHit[] }>(path, { q: q.trim(), limit: GEOCODER_LIMIT });
  return (answer?.list ?? [])
    .filter((p) => p.kind === "place" && Number.isFinite(p.lat) && Number.isFinite(p.lng))
    .slice(0, MAX_PLACE_HITS)
    .map((p) => ({
      kind: "place" as const,
      id: `place:${p.lat},${p.lng}`,
      name: p.name,
      detail: placeDetail(p.name, p.text),
      at: { lat: p.lat, lng: p.lng },
    }));
}
