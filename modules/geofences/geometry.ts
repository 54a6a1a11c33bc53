/**
 * Pure geometry for fences: distances on the sphere, point-in-shape tests and the
 * "did the segment between two sparse fixes cross the fence" test.
 *
 * Fences are small (≤ 10 km), so shape tests project onto a local equirectangular plane
 * around the shape (metres); the error at that scale is far below GPS noise.
 */

export interface LatLng {
  lat: number;
  lng: number;
}

export type Shape =
  | { kind: "circle"; center: LatLng; radius: number }
  | { kind: "polygon"; points: LatLng[] };

const EARTH_RADIUS_M = 6_371_008.8;
const rad = (d: number) => (d * Math.PI) / 180;

/** Great-circle distance in metres. */
export function haversine(a: LatLng, b: LatLng): number {
  const dLat = rad(b.lat - a.lat);
  const dLng = rad(b.lng - a.lng);
  const h = Math.sin(dLat / 2) ** 2 +
    Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

interface XY {
  x: number;
  y: number;
}

/** Projects to metres on a plane tangent at `origin`. */
function project(origin: LatLng, p: LatLng): XY {
  const x = rad(p.lng - origin.lng) * Math.cos(rad(origin.lat)) * EARTH_RADIUS_M;
  const y = rad(p.lat - origin.lat) * EARTH_RADIUS_M;
  return { x, y };
}

/** Ray casting; the polygon may or may not repeat its first point at the end. */
export function pointInPolygon(p: LatLng, polygon: LatLng[]): boolean {
  let inside = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const a = polygon[i], b = polygon[j];
    if (
      (a.lat > p.lat) !== (b.lat > p.lat) &&
      p.lng < ((b.lng - a.lng) * (p.lat - a.lat)) / (b.lat - a.lat) + a.lng
    ) inside = !inside;
  }
  return inside;
}

export function contains(shape: Shape, p: LatLng): boolean {
  return shape.kind === "circle"
    ? haversine(shape.center, p) <= shape.radius
    : pointInPolygon(p, shape.points);
}

/** Shortest distance from the origin (0,0) to segment ab, in the plane. */
function originToSegment(a: XY, b: XY): number {
  const dx = b.x - a.x, dy = b.y - a.y;
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, -(a.x * dx + a.y * dy) / len2));
  return Math.hypot(a.x + t * dx, a.y + t * dy);
}

function orientation(a: XY, b: XY, c: XY): number {
  return Math.sign((b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x));
}

function segmentsIntersect(p1: XY, p2: XY, q1: XY, q2: XY): boolean {
  return orientation(p1, p2, q1) !== orientation(p1, p2, q2) &&
    orientation(q1, q2, p1) !== orientation(q1, q2, p2);
}

/**
 * True when the straight path from a to b passes through the shape's interior or boundary,
 * which catches two sparse fixes on either side of (or both outside, straddling) a fence.
 */
export function segmentTouches(shape: Shape, a: LatLng, b: LatLng): boolean {
  if (contains(shape, a) || contains(shape, b)) return true;
  if (shape.kind === "circle") {
    const pa = project(shape.center, a), pb = project(shape.center, b);
    return originToSegment(pa, pb) <= shape.radius;
  }
  const origin = shape.points[0];
  const pa = project(origin, a), pb = project(origin, b);
  const pts = shape.points.map((p) => project(origin, p));
  for (let i = 0; i < pts.length; i++) {
    if (segmentsIntersect(pa, pb, pts[i], pts[(i + 1) % pts.length])) return true;
  }
  return false;
}

/** Largest distance between two vertices: the polygon's "span" the spec limits. */
export function polygonSpan(points: LatLng[]): number {
  let max = 0;
  for (let i = 0; i < points.length; i++) {
    for (let j = i + 1; j < points.length; j++) {
      max = Math.max(max, haversine(points[i], points[j]));
    }
  }
  return max;
}

/** A polygon is closed when its ring ends where it starts (GeoJSON/KML convention). */
export function isClosed(points: LatLng[]): boolean {
  if (points.length < 4) return false;
  const a = points[0], b = points[points.length - 1];
  return a.lat === b.lat && a.lng === b.lng;
}

/** Bounding box for quick rejection in the engine's fence index. */
export interface BBox {
  minLat: number;
  maxLat: number;
  minLng: number;
  maxLng: number;
}

export function bbox(shape: Shape): BBox {
  if (shape.kind === "circle") {
    const dLat = shape.radius / EARTH_RADIUS_M * 180 / Math.PI;
    const dLng = dLat / Math.max(0.01, Math.cos(rad(shape.center.lat)));
    return {
      minLat: shape.center.lat - dLat,
      maxLat: shape.center.lat + dLat,
      minLng: shape.center.lng - dLng,
      maxLng: shape.center.lng + dLng,
    };
  }
  const lats = shape.points.map((p) => p.lat), lngs = shape.points.map((p) => p.lng);
  return {
    minLat: Math.min(...lats),
    maxLat: Math.max(...lats),
    minLng: Math.min(...lngs),
    maxLng: Math.max(...lngs),
  };
}

/** True when the segment's bounding box overlaps the shape's: cheap pre-check. */
export function bboxOverlapsSegment(b: BBox, p: LatLng, q: LatLng): boolean {
  return Math.max(p.lat, q.lat) >= b.minLat && Math.min(p.lat, q.lat) <= b.maxLat &&
    Math.max(p.lng, q.lng) >= b.minLng && Math.min(p.lng, q.lng) <= b.maxLng;
}
