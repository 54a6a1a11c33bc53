/** A playback track held as typed arrays: 268,000 points cost ~10 MB, not 60 MB of objects. */
import type { TrackPoint } from "../../modules/monitor/track_export.ts";
import { haversine } from "../../modules/monitor/geo.ts";

/** One point as the playback API sends it. */
export interface ApiPoint {
  gpsTime: string;
  lat: number;
  lng: number;
  speed: number;
  course: number;
  altitude: number;
  posType: number;
  acc: boolean | null;
  satellites: number;
  mileage: number | null;
}

export interface Track {
  n: number;
  time: Float64Array;
  lat: Float64Array;
  lng: Float64Array;
  speed: Float32Array;
  course: Float32Array;
  altitude: Float32Array;
  satellites: Uint8Array;
  /** Cumulative distance from the start, km. */
  dist: Float64Array;
  maxSpeed: number;
}

export function toTrack(points: ApiPoint[]): Track {
  const n = points.length;
  const t: Track = {
    n,
    time: new Float64Array(n),
    lat: new Float64Array(n),
    lng: new Float64Array(n),
    speed: new Float32Array(n),
    course: new Float32Array(n),
    altitude: new Float32Array(n),
    satellites: new Uint8Array(n),
    dist: new Float64Array(n),
    maxSpeed: 0,
  };
  for (let i = 0; i < n; i++) {
    const p = points[i];
    t.time[i] = Date.parse(p.gpsTime);
    t.lat[i] = p.lat;
    t.lng[i] = p.lng;
    t.speed[i] = p.speed;
    t.course[i] = p.course;
    t.altitude[i] = p.altitude;
    t.satellites[i] = p.satellites;
    if (p.speed > t.maxSpeed) t.maxSpeed = p.speed;
    t.dist[i] = i ? t.dist[i - 1] + haversine(t.lat[i - 1], t.lng[i - 1], p.lat, p.lng) / 1000 : 0;
  }
  return t;
}

export function pointAt(t: Track, i: number): TrackPoint {
  return {
    time: t.time[i],
    lat: t.lat[i],
    lng: t.lng[i],
    speed: t.speed[i],
    course: t.course[i],
    altitude: t.altitude[i],
  };
}

export function allPoints(t: Track): TrackPoint[] {
  return Array.from({ length: t.n }, (_, i) => pointAt(t, i));
}
