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
