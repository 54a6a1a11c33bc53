import type { AlarmType } from "../gateway/protocols/types.ts";

/** Alerts the platform's engine raises from positions and status, beside device alarms. */
export const ENGINE_TYPES = [
  "geofenceEnter",
  "geofenceExit",
  "fenceNotIn",
  "fenceNotOut",
  "blackCarAddress",
  "overspeed",
  "offline",
  "stay",
  "temperatureHigh",
  "temperatureLow",
  "mileage",
  "maintenance",
  "accOnDuration",
  "nightDriving",
  "routeDeviation",
  "routeReturn",
] as const;
export type EngineType = typeof ENGINE_TYPES[number];

/** Device alarms the gateway records (the protocols' AlarmType). */
export const DEVICE_ALARM_TYPES: readonly AlarmType[] = [
  "sos",
  "powerCut",
  "vibration",
  "lowBattery",
  "lowPower",
  "tamper",
  "movement",
  "accident",
  "fatigue",
  "harshAcceleration",
  "harshBraking",
  "harshCornering",
  "door",
  "removing",
  "powerOff",
  "powerOn",
  "gpsAntennaCut",
  "temperature",
  "fall",
  "general",
];

export type AlertType = AlarmType | EngineType;
export const ALERT_TYPES: readonly AlertType[] = [
  ...new Set<AlertType>([...ENGINE_TYPES, ...DEVICE_ALARM_TYPES, "geofenceEnter", "geofenceExit"]),
];

/** A device alarm recorded by the gateway; the alerts issue builds the alert centre on these. */
export interface AlertRecord {
  id: string;
  imei: string;
  userId: string;
  type: AlertType;
  /** Epoch ms of the alarm. */
  time: number;
  lat: number | null;
  lng: number | null;
  speed: number | null;
  /**
   * Spec alert `address`: where the alarm happened, worked out when it was raised (the
   * owner's landmark or the nearest place, modules/geocoder) and kept with the alert.
   */
  address?: string;
  /** Spec read filter: 0 read, -1 unread. */
  read: 0 | -1;
  processed: boolean;
  createdAt: number;
  /** Engine alerts: the fence involved and type-specific figures (speed limit, minutes…). */
  fenceId?: string;
  fenceName?: string;
  detail?: Record<string, string | number>;
  /** Processing (spec: handler ≤ 50, handling content ≤ 500). */
  handler?: string;
  content?: string;
  processedAt?: number;
  /** Whether the alert passed the push limit and silence time and was delivered. */
  pushed?: boolean;
}

/**
 * What other modules write of alerts, implemented by AlertStore (app/compose.ts passes it):
 * the gateway adds its alarms to its own group commit, the geocoder completes addresses.
 */
export interface AlertRecordWriter {
  /** Adds the writes of one alert to a commit (the ingest's group commit). */
  addTo(op: Deno.AtomicOperation, a: AlertRecord): void;
  /** Writes the address of a stored alert once it is known; false when it is gone. */
  setAddress(ref: { imei: string; time: number; id: string }, address: string): Promise<boolean>;
}

/** What the reports read of alerts, implemented by AlertStore (app/compose.ts passes it). */
export interface AlertHistory {
  /** One device's alerts with from ≤ time ≤ to, oldest first, every one (no scan cap). */
  range(imei: string, from: number, to: number): Promise<AlertRecord[]>;
}

/** A planned route's verdict on one fix: the device left its corridor long enough, or is back. */
export interface RouteTransition {
  type: "routeDeviation" | "routeReturn";
  /** route (name), routeId; deviations also metres (off the line) and minutes (off so far). */
  detail: Record<string, string | number>;
}

/**
 * The planned-route check the engine asks for each live fix, implemented by the fleet module
 * (modules/fleet/paths_watch.ts; app/compose.ts passes it). Null: no route bound to the device.
 */
export interface RouteWatch {
  observe(imei: string, lat: number, lng: number, time: number): RouteTransition[] | null;
}
