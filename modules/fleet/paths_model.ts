/**
 * Planned routes (spec business §3 Fleet "Route", §5 limits): shapes and limits shared by the
 * service, the alert engine's corridor check and the /fleetPath pages.
 */
import type { FleetOwned } from "./model.ts";

/** A point as the API and the map editor give it (WGS-84). */
export interface RoutePoint {
  lat: number;
  lng: number;
}

export interface PlannedRoute extends FleetOwned {
  /** Rule name (spec "rule name"). */
  name: string;
  /** Start, via points…, end as drawn. */
  points: RoutePoint[];
  /** The route line the corridor follows: the points, or the road-snapped geometry. */
  line: RoutePoint[];
  /** "straight" legs between the points, or "road" from the routing server (ROUTING_URL). */
  lineKind: "straight" | "road";
  /** Length of `line` in metres. */
  lengthM: number;
  /** Corridor half-width in metres (spec "offset distance"). */
  offset: number;
  /** ISO weekdays the rule is effective on, 1 = Monday … 7 = Sunday. */
  weekdays: number[];
  /** "HH:mm" in `timeZone`; endTime < startTime is a window over midnight. */
  startTime: string;
  endTime: string;
  /** IANA time zone of the owner account when the rule was saved. */
  timeZone: string;
  /** Outside the corridor at least this long before "route deviation" is raised. */
  minOffMinutes: number;
  /** Bound devices (vehicles' devices of the owner's tree). */
  imeis: string[];
}

export const PATH_LIMITS = {
  /** Spec §5: route maximum distance 500 km. */
  maxLengthKm: 500,
  /** Spec §5: landmark count up to 20 — start, via points and end together. */
  maxPoints: 20,
  minOffset: 10,
  maxOffset: 5000,
  defaultOffset: 100,
  maxMinOffMinutes: 1440,
  nameMax: 50,
  maxImeis: 2000,
  /** Routes per account. */
  maxRoutes: 1000,
} as const;

export const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;
