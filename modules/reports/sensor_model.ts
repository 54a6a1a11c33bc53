/**
 * The sensor reports' vocabulary (issue 21, spec business §2 Reports old and new groups): their
 * names, ranges, columns (by filter where a filter changes them), the answer's extra parts
 * (devices without the sensor, chart series, temperature summaries) and the menu entries that
 * open Reports I reports. Browser code may import this file; model.ts spreads it in.
 */
import type { ColumnKind, ReportColumn } from "./model.ts";

export const SENSOR_REPORT_NAMES = [
  "internalBattery",
  "externalBattery",
  "positioningBattery",
  "fuelConsumption",
  "currentFuel",
  "refueling",
  "temperatureHumidity",
  "logistics",
  "obdTrip",
  "obdTripInfo",
  "obdFault",
  "canData",
  "drivingBehavior",
  "clockIn",
  "bluetoothClockIn",
  "carriageMileage",
  "sensorData",
  "fuelDaily",
  "stateStatistics",
] as const;
export type SensorReportName = typeof SENSOR_REPORT_NAMES[number];

/** Longest range of one query (docs/decisions.md "Sensor reports"): raw series 7 days. */
export const SENSOR_RANGE_DAYS: Record<SensorReportName, number> = {
  internalBattery: 31,
  externalBattery: 31,
  positioningBattery: 31,
  fuelConsumption: 31,
  currentFuel: 31,
  refueling: 31,
  temperatureHumidity: 31,
  logistics: 31,
  obdTrip: 31,
  obdTripInfo: 7,
  obdFault: 31,
  canData: 7,
  drivingBehavior: 31,
  clockIn: 31,
  bluetoothClockIn: 31,
  carriageMileage: 92,
  sensorData: 7,
  fuelDaily: 31,
  stateStatistics: 31,
};

/** Spec enumeration "Sensor report types": 1 temperature, 2 humidity, 3 door, 4 light. */
export const SENSOR_TYPES = { 1: "temperature", 2: "humidity", 3: "door", 4: "light" } as const;
export type SensorType = keyof typeof SENSOR_TYPES;

/** Spec enumeration "Clock-in filter": all, 1 clock-in, 2 clock-in and out (paired shifts). */
export const CLOCK_FILTERS = ["all", 1, 2] as const;
export type ClockFilter = typeof CLOCK_FILTERS[number];

/**
 * The reports of a sensor the device may not have: the API lists such devices in
 * `unsupported` and the page says "this device reports no …" (reports.sensor.none.{key}).
 */
export const SENSOR_NEED: Partial<Record<SensorReportName, string>> = {
  internalBattery: "battery",
  positioningBattery: "battery",
  externalBattery: "externalPower",
  fuelConsumption: "fuel",
  currentFuel: "fuel",
  refueling: "fuel",
  fuelDaily: "fuel",
  temperatureHumidity: "temperature",
  logistics: "logistics",
  obdTrip: "obd",
  obdTripInfo: "obd",
  canData: "obd",
  obdFault: "obdFault",
  drivingBehavior: "behavior",
  clockIn: "rfid",
  bluetoothClockIn: "bluetooth",
  carriageMileage: "odometer",
  sensorData: "sensor",
};

/** One line of a chart: [epoch ms, value] pairs, thinned to at most CHART_POINTS per line. */
export interface ChartLine {
  imei: string;
  deviceName: string;
  /** The plotted value's column key (e.g. "temperature", "fuelLitres"). */
  key: string;
  /** Probe or input number; 0 when the series has one. */
  index: number;
  points: [number, number][];
}

/** A moment marked on a chart (a refuel or a drain, litres). */
export interface ChartMark {
  imei: string;
  time: number;
  kind: "refuel" | "drain";
  amount: number;
}

export interface SensorChart {
  /** How the values read (the page converts temperature and volume to the user's units). */
  kind: ColumnKind;
  lines: ChartLine[];
  marks: ChartMark[];
  /** Allowed band drawn behind the lines (temperature thresholds), per device. */
  bands: { imei: string; min: number | null; max: number | null }[];
}

/** Points kept per chart line; devices charted at most. */
export const CHART_POINTS = 400;
export const CHART_DEVICES = 10;

/** An out-of-range interval of a temperature probe (the device's min/max thresholds). */
export interface OutOfRange {
  start: string;
  end: string;
  duration: number;
  band: "high" | "low";
  /** The highest (high) or lowest (low) reading of the interval, °C. */
  extreme: number;
}

/** Min, max and average of a probe over the whole range (temperatureHumidity). */
export interface ProbeSummary {
  imei: string;
  deviceName: string;
  probe: number;
  temperature: { min: number; max: number; avg: number; count: number } | null;
  humidity: { min: number; max: number; avg: number; count: number } | null;
  limits: { min: number | null; max: number | null };
  outOfRange: OutOfRange[];
}

/**
 * The sensor reports' answer: the Reports I page plus the devices that report no such sensor,
 * and, on the first page of the series reports, a chart (and temperature summaries).
 */
export interface SensorAnswer {
  total: number;
  list: Record<string, unknown>[];
  unsupported: string[];
  chart?: SensorChart;
  summary?: ProbeSummary[];
}

/** "{imei}-{start ms}-{end ms}": the OBD trip detail page's id (/new/OBDTripReportInfo/{id}). */
export const tripId = (imei: string, start: number, end: number) => `${imei}-${start}-${end}`;

export function parseTripId(id: string): { imei: string; start: number; end: number } | null {
  const m = /^(\d{15})-(\d{10,14})-(\d{10,14})$/.exec(id);
  if (!m) return null;
  const start = Number(m[2]), end = Number(m[3]);
  return end >= start ? { imei: m[1], start, end } : null;
}

/** Menu entries of spec §2 that are views of other reports (label key, href). */
export const REPORT_MENU_VIEWS: { key: string; href: string }[] = [
  { key: "mileageDaily", href: "/new/mileage" },
  { key: "vehicleStatus", href: "/new/vehicleStatus" },
  { key: "fuelDaily", href: "/new/fuelDaily" },
  { key: "refueling", href: "/new/refueling" },
  { key: "stateStatistics", href: "/new/stateStatistics" },
];

/** The old version's report groups (spec §2 "Old report groups"), pages at /{name}. */
export const OLD_REPORT_GROUPS: { key: string; reports: string[] }[] = [
  {
    key: "deviceStatistics",
    reports: [
      "internalBattery",
      "externalBattery",
      "fuelConsumption",
      "currentFuel",
      "temperatureHumidity",
      "drivingBehavior",
      "positioningBattery",
      "logistics",
      "obdTrip",
      "obdFault",
    ],
  },
  {
    key: "motionStatistics",
    reports: [
      "trackDetails",
      "mileage",
      "trips",
      "overspeed",
      "parking",
      "idling",
      "ignition",
      "geoRegion",
    ],
  },
  { key: "stateStatistics", reports: ["offline", "online", "stateStatistics"] },
  { key: "alarmStatistics", reports: ["alertDetails"] },
];

const c = (key: string, kind: ColumnKind, total = false): ReportColumn =>
  total ? { key, kind, total } : { key, kind };

const DEVICE = [c("deviceName", "text"), c("imei", "text")];
const PLACE = [c("lat", "coordinate"), c("lng", "coordinate"), c("address", "text")];
const OBD_VALUES = [
  c("time", "time"),
  c("obdSpeed", "speed"),
  c("obdRpm", "number"),
  c("obdCoolant", "temperature"),
  c("obdThrottle", "percent"),
  c("obdEngineLoad", "percent"),
  c("obdFuelRate", "number"),
  c("obdOdometer", "distance"),
];
const CLOCK_EVENTS = [
  ...DEVICE,
  c("time", "time"),
  c("clockType", "text"),
  c("cardNo", "text"),
  c("driverName", "text"),
  c("address", "text"),
];

/** Each sensor report's columns with its default filters (labels: reports.columns.{key}). */
export const SENSOR_COLUMNS: Record<SensorReportName, ReportColumn[]> = {
  internalBattery: [
    ...DEVICE,
    c("time", "time"),
    c("batteryVoltage", "voltage"),
    c("batteryPercent", "percent"),
  ],
  externalBattery: [...DEVICE, c("time", "time"), c("externalVoltage", "voltage")],
  positioningBattery: [
    ...DEVICE,
    c("time", "time"),
    c("batteryPercent", "percent"),
    c("batteryVoltage", "voltage"),
    ...PLACE,
  ],
  fuelConsumption: [
    ...DEVICE,
    c("startTime", "time"),
    c("endTime", "time"),
    c("distance", "distance", true),
    c("fuelUsed", "volume", true),
    c("per100km", "fuelRate"),
  ],
  currentFuel: [
    ...DEVICE,
    c("time", "time"),
    c("fuelLitres", "volume"),
    c("fuelPercent", "percent"),
    ...PLACE,
  ],
  refueling: [
    ...DEVICE,
    c("time", "time"),
    c("before", "volume"),
    c("after", "volume"),
    c("amount", "volume", true),
    ...PLACE,
  ],
  temperatureHumidity: [
    ...DEVICE,
    c("time", "time"),
    c("probe", "number"),
    c("temperature", "temperature"),
    c("humidity", "percent"),
    c("outOfRange", "boolean"),
  ],
  logistics: [
    ...DEVICE,
    c("startTime", "time"),
    c("endTime", "time"),
    c("distance", "distance", true),
    c("minTemperature", "temperature"),
    c("maxTemperature", "temperature"),
    c("avgTemperature", "temperature"),
    c("doorOpenings", "number", true),
    c("doorOpenTime", "duration", true),
  ],
  obdTrip: [
    ...DEVICE,
    c("startTime", "time"),
    c("endTime", "time"),
    c("duration", "duration", true),
    c("distance", "distance", true),
    c("avgSpeed", "speed"),
    c("maxSpeed", "speed"),
    c("maxRpm", "number"),
    c("maxCoolant", "temperature"),
    c("fuelUsed", "volume", true),
  ],
  obdTripInfo: [...DEVICE, ...OBD_VALUES],
  obdFault: [...DEVICE, c("time", "time"), c("faultCode", "text"), ...PLACE],
  canData: [...DEVICE, ...OBD_VALUES],
  drivingBehavior: [
    ...DEVICE,
    c("distance", "distance", true),
    c("harshAcceleration", "number", true),
    c("harshBraking", "number", true),
    c("harshCornering", "number", true),
    c("eventsPer100km", "number"),
    c("score", "number"),
  ],
  clockIn: CLOCK_EVENTS,
  bluetoothClockIn: CLOCK_EVENTS,
  carriageMileage: [
    ...DEVICE,
    c("date", "date"),
    c("startOdometer", "distance"),
    c("endOdometer", "distance"),
    c("distance", "distance", true),
  ],
  sensorData: [...DEVICE, c("time", "time"), c("probe", "number"), c("temperature", "temperature")],
  fuelDaily: [
    ...DEVICE,
    c("date", "date"),
    c("startFuel", "volume"),
    c("endFuel", "volume"),
    c("refuelled", "volume", true),
    c("drained", "volume", true),
    c("fuelUsed", "volume", true),
    c("distance", "distance", true),
    c("per100km", "fuelRate"),
  ],
  stateStatistics: [
    ...DEVICE,
    c("onlineTime", "duration", true),
    c("offlineTime", "duration", true),
    c("onlineCount", "number", true),
    c("offlineCount", "number", true),
    c("onlineRate", "percent"),
  ],
};

/** Fuel consumption per day (`view: "day"`). */
const FUEL_DAY_COLUMNS = [
  ...DEVICE,
  c("date", "date"),
  c("distance", "distance", true),
  c("fuelUsed", "volume", true),
  c("per100km", "fuelRate"),
];

/** Clock-in and out (`clockType: 2`): one row per shift. */
const CLOCK_PAIR_COLUMNS = [
  ...DEVICE,
  c("cardNo", "text"),
  c("driverName", "text"),
  c("clockInTime", "time"),
  c("clockOutTime", "time"),
  c("duration", "duration", true),
];

const SENSOR_VALUE_KIND: Record<SensorType, ColumnKind> = {
  1: "temperature",
  2: "percent",
  3: "text",
  4: "text",
};

/** A sensor report's columns for its request's filters (view, clockType, sensorType). */
export function sensorColumns(
  report: SensorReportName,
  params: Record<string, unknown>,
): ReportColumn[] {
  if (report === "fuelConsumption" && params.view === "day") return FUEL_DAY_COLUMNS;
  if ((report === "clockIn" || report === "bluetoothClockIn") && params.clockType === 2) {
    return CLOCK_PAIR_COLUMNS;
  }
  if (report === "sensorData") {
    const type = (Number(params.sensorType) || 1) as SensorType;
    const key = SENSOR_TYPES[type] ?? "temperature";
    return [
      ...DEVICE,
      c("time", "time"),
      c("probe", "number"),
      c(key, SENSOR_VALUE_KIND[type] ?? "number"),
    ];
  }
  return SENSOR_COLUMNS[report];
}
