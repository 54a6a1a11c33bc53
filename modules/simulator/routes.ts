/**
 * Built-in routes: loops of [north, east] offsets in metres from a centre, shaped like real
 * drives (a ring road, a street grid, an arterial with bends, a suburban loop). Each vehicle
 * takes one, rotated, scaled and shifted by its seed, so a fleet spreads over the city.
 */

export interface Centre {
  name: string;
  lat: number;
  lng: number;
  /** Mobile network around the centre (for the LBS fields). */
  mcc: number;
  mnc: number;
  /** Typical ground altitude, metres. */
  altitude: number;
}

export const CENTRES: Record<string, Centre> = {
  shenzhen: { name: "shenzhen", lat: 22.54, lng: 114.05, mcc: 460, mnc: 0, altitude: 20 },
  berlin: { name: "berlin", lat: 52.52, lng: 13.405, mcc: 262, mnc: 1, altitude: 35 },
};

/** `shenzhen`, `berlin`, or `lat,lng` (network and altitude then default to Shenzhen's). */
export function parseCentre(text: string): Centre {
  const named = CENTRES[text.trim().toLowerCase()];
  if (named) return named;
  const m = /^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$/.exec(text);
  if (!m || Math.abs(+m[1]) > 85 || Math.abs(+m[2]) > 180) {
    throw new RangeError(`centre must be ${Object.keys(CENTRES).join(", ")} or "lat,lng"`);
  }
  return { ...CENTRES.shenzhen, name: text.trim(), lat: +m[1], lng: +m[2] };
}

export interface RouteShape {
  name: string;
  /** Closed loop: the last point connects back to the first. Metres north, east. */
  points: [number, number][];
}

/** A ring road of about 3 km radius with irregular bends. */
function ring(): [number, number][] {
  const out: [number, number][] = [];
  const n = 24;
  for (let i = 0; i < n; i++) {
    const a = (2 * Math.PI * i) / n;
    const r = 3000 + 400 * Math.sin(3 * a) + 200 * Math.cos(5 * a);
    out.push([r * Math.cos(a), r * Math.sin(a)]);
  }
  return out;
}

export const ROUTES: RouteShape[] = [
  { name: "ring", points: ring() },
  {
    // City blocks: right-angle turns every 400-800 m.
    name: "grid",
    points: [
      [0, 0],
      [0, 800],
      [600, 800],
      [600, 1600],
      [1200, 1600],
      [1200, 2400],
      [400, 2400],
      [400, 3000],
      [-600, 3000],
      [-600, 2000],
      [-1200, 2000],
      [-1200, 600],
      [-600, 600],
      [-600, 0],
    ],
  },
  {
    // An arterial road out of town and back along a parallel one.
    name: "arterial",
    points: [
      [0, 0],
      [900, 1500],
      [1300, 3200],
      [2600, 4700],
      [3100, 6800],
      [2500, 7400],
      [1900, 6700],
      [1200, 4900],
      [300, 3500],
      [-200, 1600],
    ],
  },
  {
    // Suburban loop with roundabout-like short segments.
    name: "suburb",
    points: [
      [0, 0],
      [-700, 400],
      [-1500, 300],
      [-1800, 900],
      [-1750, 1000],
      [-1600, 1050],
      [-1200, 1800],
      [-400, 2300],
      [300, 1900],
      [350, 1800],
      [300, 1700],
      [200, 900],
    ],
  },
];

const METRES_PER_DEGREE = 111_320;

/** Route `shape` placed around `centre`: rotated, scaled and shifted, in degrees. */
export function placeRoute(
  shape: RouteShape,
  centre: { lat: number; lng: number },
  place: { rotation: number; scale: number; north: number; east: number },
): { lat: number; lng: number }[] {
  const cos = Math.cos(place.rotation), sin = Math.sin(place.rotation);
  const lngScale = METRES_PER_DEGREE * Math.cos((centre.lat * Math.PI) / 180);
  return shape.points.map(([n, e]) => {
    const rn = (n * cos - e * sin) * place.scale + place.north;
    const re = (n * sin + e * cos) * place.scale + place.east;
    return { lat: centre.lat + rn / METRES_PER_DEGREE, lng: centre.lng + re / lngScale };
  });
}

/** Equirectangular distance in metres (good enough within a city). */
export function distanceMetres(
  a: { lat: number; lng: number },
  b: { lat: number; lng: number },
): number {
  const dn = (b.lat - a.lat) * METRES_PER_DEGREE;
  const de = (b.lng - a.lng) * METRES_PER_DEGREE * Math.cos(((a.lat + b.lat) * Math.PI) / 360);
  return Math.hypot(dn, de);
}

/** Initial bearing from a to b, degrees 0-359 (0 north, 90 east). */
export function bearing(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const dn = b.lat - a.lat;
  const de = (b.lng - a.lng) * Math.cos(((a.lat + b.lat) * Math.PI) / 360);
  const deg = (Math.atan2(de, dn) * 180) / Math.PI;
  return (deg + 360) % 360;
}
