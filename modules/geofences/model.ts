import { isClosed, type LatLng, polygonSpan, type Shape } from "./geometry.ts";

/** fence: alert zone; landmark: POI shown on the map; blackCar: reviewed risk address. */
export type ZoneKind = "fence" | "landmark" | "blackCar";

/** Black-car address review (spec §4): under review, passed, not passed. */
export type ReviewState = "reviewing" | "passed" | "rejected";

export const MAX_FENCES = 20;
export const MAX_LANDMARKS = 20;
/** Black-car addresses are not limited by the spec; a generous cap keeps the engine fast. */
export const MAX_BLACK_CAR = 200;

export const ZONE_LIMITS: Record<ZoneKind, number> = {
  fence: MAX_FENCES,
  landmark: MAX_LANDMARKS,
  blackCar: MAX_BLACK_CAR,
};

/** Spec §5: a polygon may span at most 10,000 m. */
export const MAX_POLYGON_SPAN_M = 10_000;

/** Radius bounds by kind: fences 200-5000 m (spec), black-car up to 5000, landmarks 10-5000. */
export const RADIUS: Record<ZoneKind, [number, number]> = {
  fence: [200, 5000],
  blackCar: [1, 5000],
  landmark: [10, 5000],
};

/**
 * What is wrong with a shape for a kind of zone, as a validation.* key (null when fine):
 * the same rules the API's schema applies, without zod, so the map editor can say it while
 * the operator drags.
 */
export function shapeProblem(kind: ZoneKind, shape: Shape): string | null {
  if (shape.kind === "circle") {
    const [min, max] = RADIUS[kind];
    const r = shape.radius;
    return Number.isInteger(r) && r >= min && r <= max ? null : `validation.radius.${kind}`;
  }
  if (shape.points.length < 4 || !isClosed(shape.points)) return "validation.notClosed";
  return polygonSpan(shape.points) > MAX_POLYGON_SPAN_M ? "validation.spanTooLarge" : null;
}

export interface Zone {
  id: string;
  kind: ZoneKind;
  /** The account that owns the zone; only its devices are evaluated against it. */
  userId: string;
  name: string;
  description: string;
  groupId: string;
  shape: Shape;
  /** Fill colour, #rrggbb. */
  color: string;
  enterAlert: boolean;
  exitAlert: boolean;
  /** Long-time-not-in / not-out alerts fire after stayDays. */
  notInAlert: boolean;
  notOutAlert: boolean;
  stayDays: number;
  /** Command text sent to the device when an enter/exit alert fires ("" for none). */
  command: string;
  /** Mail the account's verified alert address when this fence alerts. */
  emailAlert: boolean;
  /** Devices bound to the fence; empty means every device of the owner. */
  imeis: string[];
  review: ReviewState | null;
  createdAt: string;
  updatedAt: string;
}

export interface ZoneGroup {
  id: string;
  userId: string;
  name: string;
  /** Sticky on top of the list. */
  top: boolean;
  isDefault: boolean;
  createdAt: string;
}

export const defaultGroupId = (userId: string) => `default-${userId}`;

export function center(shape: Shape): LatLng {
  if (shape.kind === "circle") return shape.center;
  const pts = shape.points.slice(0, -1);
  return {
    lat: pts.reduce((s, p) => s + p.lat, 0) / pts.length,
    lng: pts.reduce((s, p) => s + p.lng, 0) / pts.length,
  };
}

/** Zones by id, implemented by GeofenceStore (app/compose.ts passes it to other modules). */
export interface ZoneLookup {
  get(id: string): Promise<Zone | null>;
}
