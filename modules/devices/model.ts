import type { PositionType } from "../gateway/protocols/types.ts";

/** A registered device. The gateway accepts connections only for these. */
export interface Device {
  imei: string;
  mcType: string;
  /** The account the device belongs to. */
  userId: string;
  deviceName: string;
  sim: string;
  enabled: boolean;
  createdAt: string;
  /** Set by the first message after import (activation). */
  activationTime: string | null;
  /** Platform expiry (ISO date) or null. */
  expiration: string | null;
  userExpiration: string | null;
  /** Device clock offset for protocols that send local time (JT/T 808 defaults to GMT+8). */
  timezoneOffsetMinutes: number | null;
  // Fields below were added by the device management area; records imported before it lack them.
  /** "permission": data activates the device only after allow-activation (spec §4). */
  activationMode?: "auto" | "permission";
  activationAllowed?: boolean;
  /** Group of the owning account; null or missing means its default group. */
  groupId?: string | null;
  iccid?: string;
  imsi?: string;
  sn?: string;
  macAddress?: string;
  reMark?: string;
  applicationType?: string;
  /** When the device was sold (moved) out of its previous owner's stock. */
  saleTime?: string | null;
  /** App account bound to the device (spec: isBindUser / bindUserAccount). */
  bindUserAccount?: string | null;
  /** Install image file names (IMEI(n).jpg) under DATA_DIR/devices/images. */
  installImages?: string[];
  /** Spec §4 auto renewal: renewed before its platform expiry with this term and payment. */
  autoRenew?:
    | { term: 3 | 6 | 12 | 120; payWith: "card" | "coin" | "point"; payerId: string }
    | null;
  /** Spec §4 "bindable by an app account: allowed or not allowed"; missing means allowed. */
  appBindable?: boolean;
  ringtone?: string | null;
}

/** Activation states of spec §4 (the list filter and the table column). */
export type ActivationState =
  | "awaitingPermission"
  | "notActivated"
  | "activated"
  | "expiring"
  | "expired";

/** Activation filters of spec §4; notActivated covers both auto and awaiting permission. */
export const ACTIVATION_FILTERS = [
  "notActivated",
  "notActivatedAuto",
  "awaitingPermission",
  "activated",
  "expiring",
  "expired",
] as const;

/** Days before the effective expiry at which a device counts as expiring. */
export const EXPIRING_DAYS = 30;

/** The expiry that applies to the user: the user expiry, else the platform expiry. */
export function effectiveExpiry(d: Device): string | null {
  return d.userExpiration ?? d.expiration;
}

export function activationState(d: Device, now: number): ActivationState {
  if (!d.activationTime) {
    return d.activationMode === "permission" && !d.activationAllowed
      ? "awaitingPermission"
      : "notActivated";
  }
  const exp = effectiveExpiry(d);
  if (!exp) return "activated";
  const end = Date.parse(exp.length === 10 ? `${exp}T23:59:59Z` : exp);
  if (end < now) return "expired";
  if (end - now <= EXPIRING_DAYS * 86_400_000) return "expiring";
  return "activated";
}

/** A stored position; speed in km/h (the API unit), time as epoch ms. */
export interface StoredPosition {
  time: number;
  lat: number;
  lng: number;
  speed: number;
  course: number;
  altitude: number;
  satellites: number;
  posType: PositionType;
  valid: boolean;
  acc: boolean | null;
  mileage: number | null;
  battery: number | null;
  signal: number | null;
  attributes: Record<string, string | number | boolean>;
}

/** Spec §4 online states. */
export type DeviceStatus =
  | "moving"
  | "idling"
  | "stopped"
  | "offline"
  | "sleeping"
  | "poweredOff"
  | "inactive";

/** The latest known state of a device, kept beside the registry record. */
export interface DeviceState {
  imei: string;
  /** Last message of any kind (heartbeat time), epoch ms. */
  hbTime: number | null;
  /** Fix time of the latest position, epoch ms. */
  gpsTime: number | null;
  position: StoredPosition | null;
  acc: boolean | null;
  battery: number | null;
  signal: number | null;
  /** Set by protocol events: the device said it sleeps or powers off. */
  sleeping: boolean;
  poweredOff: boolean;
  /** When speed last went above the moving threshold, epoch ms. */
  lastMovingAt: number | null;
}

/** Speed above which a device counts as moving (km/h); below it GPS drift is ignored. */
export const MOVING_SPEED_KMH = 5;

/**
 * Spec status filter: 1 online moving, 2 parking with engine on, 3 online stopped, 4 offline;
 * and 5 (beyond the spec) not activated: never heard from, so stock in a drawer does not count
 * as offline (docs/decisions.md).
 */
export const STATUS_FILTERS: Record<StatusFilter, DeviceStatus[]> = {
  1: ["moving"],
  2: ["idling"],
  3: ["stopped"],
  4: ["offline", "sleeping", "poweredOff"],
  5: ["inactive"],
};
export type StatusFilter = 1 | 2 | 3 | 4 | 5;

/** Derives the online state from the latest state and the time (the state machine's read side). */
export function deriveStatus(
  state: DeviceState | null,
  now: number,
  offlineMs: number,
): DeviceStatus {
  if (!state || state.hbTime === null) return "inactive";
  if (state.poweredOff) return "poweredOff";
  if (state.sleeping) return "sleeping";
  if (now - state.hbTime > offlineMs) return "offline";
  const speed = state.position?.speed ?? 0;
  if (speed >= MOVING_SPEED_KMH && state.gpsTime !== null && now - state.gpsTime <= offlineMs) {
    return "moving";
  }
  return state.acc ? "idling" : "stopped";
}

/** One device's line in the answer of a bulk action (enable, disable, set group). */
export interface BulkLine {
  imei: string;
  deviceName: string;
  ok: boolean;
  /** The catalogue name of the refusal (errors.*), null when the device was changed. */
  error: string | null;
}

/** A bulk action's answer: how many devices it changed, and every device's line. */
export interface BulkOutcome {
  done: number;
  results: BulkLine[];
}
