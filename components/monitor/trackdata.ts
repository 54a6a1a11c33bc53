/** A playback track held as typed arrays: 268,000 points cost ~10 MB, not 60 MB of objects. */
import type { TrackPoint } from "../../modules/monitor/track_export.ts";
import { haversine } from "../../modules/monitor/geo.ts";
import { COLUMN_SCALES, type TrackColumns, undelta } from "../../modules/positions/columns.ts";

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

/** The playback API's compact answer (format "columns") straight into typed arrays. */
export function columnsToTrack(c: TrackColumns): Track {
  const n = c.n;
  const t: Track = {
    n,
    time: undelta(c.time, 1, new Float64Array(n)),
    lat: undelta(c.lat, COLUMN_SCALES.lat, new Float64Array(n)),
    lng: undelta(c.lng, COLUMN_SCALES.lng, new Float64Array(n)),
    speed: undelta(c.speed, COLUMN_SCALES.speed, new Float32Array(n)),
    course: Float32Array.from(c.course),
    altitude: undelta(c.altitude, COLUMN_SCALES.altitude, new Float32Array(n)),
    satellites: Uint8Array.from(c.satellites),
    dist: new Float64Array(n),
    maxSpeed: 0,
  };
  for (let i = 0; i < n; i++) {
    if (t.speed[i] > t.maxSpeed) t.maxSpeed = t.speed[i];
    if (i) {
      t.dist[i] = t.dist[i - 1] + haversine(t.lat[i - 1], t.lng[i - 1], t.lat[i], t.lng[i]) / 1000;
    }
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
