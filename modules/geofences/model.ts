import type { LatLng, Shape } from "./geometry.ts";

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
