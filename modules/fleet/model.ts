/**
 * The fleet section's shared shapes and limits (spec business §3 Fleet, §4, §5 Fleet): drivers,
 * vehicles and RFID swipes here; reminders and routes (modules/fleet/reminders*, paths*) add
 * theirs beside. Browser code imports only this file of the module.
 */

/** Account types that may use the fleet section (spec §6): administrators and enterprises. */
export const FLEET_ACCOUNT_TYPES: readonly number[] = [0, 9];

/** Spec §5 Fleet limits. */
export const FLEET_LIMITS = {
  driverNameMax: 20,
  maxSpeedKmh: 200,
  /** Avatar: jpg or png under 2 MB (2048 kb), checked by content. */
  avatarMaxBytes: 2048 * 1024,
  /** Route maximum distance (F2's route planning). */
  routeMaxKm: 500,
  /** Free-text fields without a spec limit (place, city, brand, ext1-ext4, ...). */
  textMax: 50,
  /** Page sizes of the console's tables (spec console §5). */
  pageSizes: [10, 20, 30, 50, 100] as readonly number[],
} as const;

/**
 * "Expiring soon" (spec §4 insurance and driver licence): within 30 days of the expiry date,
 * the middle of the console's 7/30/60-day expiry filters (docs/decisions.md).
 */
export const EXPIRING_SOON_DAYS = 30;

/** Spec §4: insurance and driver licence states (plus "valid" and "none" for no date). */
export type ExpiryState = "none" | "valid" | "expiringSoon" | "expired";

/** Vehicle status (spec §3 Fleet): using, vacant, rent out. */
export const VEHICLE_STATUSES = ["using", "vacant", "rentOut"] as const;
export type VehicleStatus = typeof VEHICLE_STATUSES[number];

/** Fuel types offered on the vehicle form. */
export const FUEL_TYPES = [
  "gasoline",
  "diesel",
  "electric",
  "hybrid",
  "lpg",
  "cng",
  "other",
] as const;
export type FuelType = typeof FUEL_TYPES[number];

export const DRIVER_EXT_KEYS = ["ext1", "ext2", "ext3", "ext4"] as const;

/** Every fleet record belongs to one account (an enterprise or one of its sub-accounts). */
export interface FleetOwned {
  id: string;
  /** The owning account (the enterprise or the sub-account it was created for). */
  accountId: string;
  createdAt: string;
  updatedAt: string;
}

export interface Driver extends FleetOwned {
  name: string;
  driverNo: string;
  licenseNo: string;
  phone: string;
  /** RFID card number; unique among the drivers of one enterprise tree. "" when none. */
  rfidCardNo: string;
  /** YYYY-MM-DD or "" */
  registerDate: string;
  /** Licence expiry, YYYY-MM-DD or "". */
  expiredDate: string;
  registerPlace: string;
  city: string;
  /** Stored avatar file name ("" for none): served by the fleet avatar route. */
  avatar: string;
  ext1: string;
  ext2: string;
  ext3: string;
  ext4: string;
  /** km/h, 0 for none. */
  maxSpeed: number;
  /** The vehicle the driver is assigned to ("" for none). */
  vehicleId: string;
}

export interface Vehicle extends FleetOwned {
  plate: string;
  /** The bound device ("" for none): one vehicle per device. */
  imei: string;
  brand: string;
  model: string;
  colour: string;
  /** Chassis number (VIN). */
  chassis: string;
  fuelType: FuelType | "";
  seats: number;
  wheels: number;
  /** Tonnes. */
  tonnage: number;
  cargo: string;
  insuranceEffective: string;
  insuranceExpire: string;
  productionYear: number;
  maxSpeed: number;
  status: VehicleStatus;
  /** The assigned driver ("" for none). */
  driverId: string;
  /** The driver who last swiped in on the bound device ("" for none). */
  currentDriverId: string;
}

/** One driver identity report (JT/T 808 0x0702, GT06 RFID/clock-in) as stored. */
export interface RfidSwipe {
  id: string;
  /** The account that owned the device when the swipe arrived. */
  accountId: string;
  imei: string;
  /** ISO time of the swipe (device time). */
  time: string;
  type: "in" | "out";
  /** The card number as read (JT/T 808: the qualification certificate code). */
  cardNo: string;
  /** The matched driver, "" for an unknown card (flagged). */
  driverId: string;
  driverName: string;
  unknown: boolean;
  /** What the report itself carried (JT/T 808), "" when absent. */
  reportedName: string;
  issuer: string;
  certificateExpiry: string;
  /** IC card read result (JT/T 808), 0 = success. */
  readResult: number;
  lat: number | null;
  lng: number | null;
}

/** The driver of a device at a moment: trips and alerts carry it (issue 19). */
export interface DriverAt {
  id: string;
  name: string;
}

/** Who drove a device when (implemented by modules/fleet/timeline.ts; reports and alerts read it). */
export interface DriverTimeline {
  /** For each of `times` (ms epoch), the device's driver then, or null. */
  driversAt(imei: string, times: readonly number[]): Promise<(DriverAt | null)[]>;
}

/** A paged answer (spec console: total and the page's rows). */
export interface Page<T> {
  total: number;
  list: T[];
}

/** The state of a licence or insurance expiry date on `today` (both YYYY-MM-DD). */
export function expiryStateOf(date: string, today: string): ExpiryState {
  if (!date) return "none";
  if (date < today) return "expired";
  const soon = new Date(Date.parse(`${today}T00:00:00Z`) + EXPIRING_SOON_DAYS * 86_400_000);
  return date <= soon.toISOString().slice(0, 10) ? "expiringSoon" : "valid";
}

// ---- rows the pages show (the services answer these) ----

export type DriverRow = Driver & { licenceState: ExpiryState; vehiclePlate: string };

export type VehicleRow = Vehicle & {
  insuranceState: ExpiryState;
  driverName: string;
  currentDriverName: string;
  deviceName: string;
};

/** The RFID list's row (issue 19 contract) plus the flags and details the page shows. */
export interface SwipeRow {
  id: string;
  cardNo: string;
  driverId: string;
  driverName: string;
  imei: string;
  plate: string;
  time: string;
  type: "in" | "out";
  lat: number | null;
  lng: number | null;
  unknown: boolean;
  reportedName: string;
  issuer: string;
  certificateExpiry: string;
}

export interface BoardExpiry {
  kind: "licence" | "insurance";
  id: string;
  name: string;
  date: string;
  state: "expiringSoon" | "expired";
}

/** The /fleetIndex data board. */
export interface FleetBoard {
  vehicles: number;
  drivers: number;
  byStatus: Record<VehicleStatus, number>;
  /** Vehicles with a current (swiped-in) driver. */
  onDuty: { driverId: string; driverName: string; vehicleId: string; plate: string }[];
  expiring: BoardExpiry[];
  /** Today (UTC) per vehicle with a bound device, most distance first. */
  today: { vehicleId: string; plate: string; distanceKm: number; drivingSeconds: number }[];
  /** Filled by the reminders (F2); null when not available. */
  reminders: { due: number; overdue: number } | null;
  /** Filled by route planning (F2); null when not available. */
  deviationsToday: number | null;
}
