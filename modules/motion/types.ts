/**
 * The motion analysis' vocabulary: the segments it cuts a device's positions into as they are
 * committed, the per-device daily summaries on UTC days, the per-account rules, and what the
 * report area reads (MotionReader). Shared contract of modules/motion (writes) and
 * modules/reports (reads); browser code may import these types.
 *
 * Units: times epoch ms (UTC), distances km, speeds km/h, durations seconds.
 */

/** Per-account thresholds of the analysis (docs/decisions.md "Motion analysis"). */
export interface MotionRules {
  /** A trip starts once the device is this far from its last stop point (m). Default 200. */
  tripStartMeters: number;
  /** A trip ends when every position of the last `stopSeconds` lies within this radius (m). Default 200. */
  stopRadiusMeters: number;
  /** Default 180. */
  stopSeconds: number;
  /** A data gap longer than this is a stop (s). Default 3600. */
  gapSeconds: number;
  /** Overspeed streaks are cut at this speed when the device has no threshold (km/h). Default 100. */
  overspeedKmh: number;
  /** A streak shorter than this is not an overspeed (s). Default 10. */
  overspeedMinSeconds: number;
}

export const DEFAULT_MOTION_RULES: MotionRules = {
  tripStartMeters: 200,
  stopRadiusMeters: 200,
  stopSeconds: 180,
  gapSeconds: 3600,
  overspeedKmh: 100,
  overspeedMinSeconds: 10,
};

interface Span {
  imei: string;
  start: number;
  end: number;
}

export interface TripSegment extends Span {
  startLat: number;
  startLng: number;
  endLat: number;
  endLng: number;
  /** km: device odometer difference when both ends have one, else along the valid fixes. */
  distance: number;
  maxSpeed: number;
  /** km/h: distance over moving time. */
  avgSpeed: number;
  /** Litres, when the device reports fuel; else null. */
  fuelUsed: number | null;
  harshAcceleration: number;
  harshBraking: number;
}

/** Stopped (ignition off or unknown: `acc` null when the device never reports ACC). */
export interface ParkingSegment extends Span {
  lat: number;
  lng: number;
  acc: false | null;
}

/** Stopped with ACC on. */
export interface IdlingSegment extends Span {
  lat: number;
  lng: number;
}

export interface IgnitionSegment extends Span {
  on: boolean;
  lat: number;
  lng: number;
}

export interface OverspeedSegment extends Span {
  /** The limit the streak was cut at (km/h). */
  limit: number;
  maxSpeed: number;
  avgSpeed: number;
  lat: number;
  lng: number;
}

/** Online or offline interval (from the gateway's connection and status events). */
export interface ConnectivitySegment extends Span {
  online: boolean;
}

/** A geofence visit: enter/exit pair from the alert engine's fence state. */
export interface FenceVisit extends Span {
  fenceId: string;
  fenceName: string;
}

export interface SegmentKinds {
  trip: TripSegment;
  parking: ParkingSegment;
  idling: IdlingSegment;
  ignition: IgnitionSegment;
  overspeed: OverspeedSegment;
  connectivity: ConnectivitySegment;
  fence: FenceVisit;
}

export type SegmentKind = keyof SegmentKinds;

/** One device's figures of one UTC day. */
export interface DaySummary {
  imei: string;
  /** YYYY-MM-DD (UTC). */
  date: string;
  /** km driven (drift while stopped never counts). */
  distance: number;
  drivingSeconds: number;
  idlingSeconds: number;
  maxSpeed: number;
  /** km/h over driving time. */
  avgSpeed: number;
  firstOdometer: number | null;
  lastOdometer: number | null;
  fuelUsed: number | null;
  trips: number;
}

/** A segment still open (e.g. the trip under way): its end is the latest position's time. */
export type Open<T> = T & { open: true };

/**
 * What the report area reads. Every list is in start-time order per device and includes the
 * still-open segment (marked `open`) when it overlaps the range; a segment belongs to the
 * range when it overlaps [from, to].
 */
export interface MotionReader {
  segments<K extends SegmentKind>(
    kind: K,
    imei: string,
    from: number,
    to: number,
  ): Promise<Array<SegmentKinds[K] | Open<SegmentKinds[K]>>>;
  /** Daily summaries of the UTC days from `from` to `to` (inclusive), today's up to date. */
  days(imei: string, from: number, to: number): Promise<DaySummary[]>;
}
