/**
 * The report area's shared vocabulary: report names (the API's `/v3/new/report/{name}`),
 * limits (spec business §5 "Reports and queries", §9), and each report's columns — used by
 * the API (modules/reports), the export (xlsx/csv/pdf, task centre) and the pages (islands).
 * Browser code may import this file.
 */
import {
  SENSOR_COLUMNS,
  SENSOR_RANGE_DAYS,
  SENSOR_REPORT_NAMES,
  sensorColumns,
  type SensorReportName,
} from "./sensor_model.ts";

/** Reports with a `/v3/new/report/{name}` API and a `/new/{name}` page. */
export const REPORT_NAMES = [
  "trips",
  "parking",
  "idling",
  "mileage",
  "overspeed",
  "ignition",
  "online",
  "offline",
  "geoRegion",
  "alertDetails",
  "alertStatistics",
  "trackDetails",
  "vehicleStatus",
  ...SENSOR_REPORT_NAMES,
] as const;
export type ReportName = typeof REPORT_NAMES[number];

export const OVERVIEW_NAMES = ["device", "moving", "alert"] as const;
export type OverviewName = typeof OVERVIEW_NAMES[number];

/** Devices one report query may name (spec §5). */
export const REPORT_MAX_DEVICES = 200;
/** Above this many devices the page advises an export instead of a query (spec §5). */
export const EXPORT_ADVISED_ABOVE_DEVICES = 50;
/** An export answers the file directly up to this many devices and rows; else a task. */
export const EXPORT_DIRECT_MAX_DEVICES = 200;
export const EXPORT_DIRECT_MAX_ROWS = 5_000;
/** Devices one export may name (spec §5). */
export const EXPORT_MAX_DEVICES = 1_000;
/** Rows one export holds (spec §5, console §9): 30,000 when the user's map is OpenStreetMap. */
export const EXPORT_MAX_ROWS = 5_000;
export const EXPORT_MAX_ROWS_OSM = 30_000;
/** Export files are kept this long in the task centre. */
export const EXPORT_KEEP_DAYS = 7;
/** How far back a report's range may start (spec §5: look-back default 6 months). */
export const REPORT_LOOKBACK_DAYS = 183;

/**
 * Longest range of one query, per report (spec §5: "7 days, 1 month, 30 days and 60 days
 * apply depending on report; trips 3 months"); the choices are in docs/decisions.md.
 */
export const REPORT_RANGE_DAYS: Record<ReportName, number> = {
  trips: 92,
  parking: 31,
  idling: 31,
  mileage: 92,
  overspeed: 31,
  ignition: 31,
  online: 31,
  offline: 31,
  geoRegion: 31,
  alertDetails: 31,
  alertStatistics: 60,
  trackDetails: 7,
  vehicleStatus: 31,
  ...SENSOR_RANGE_DAYS,
};

/**
 * Longest range of an overspeed query whose speedLimit differs from a device's own limit: those
 * streaks are computed from the stored points at request time (the others were cut on ingest).
 */
export const OVERSPEED_CUSTOM_RANGE_DAYS = 7;

/** Longest range of the moving and alert overviews. */
export const OVERVIEW_RANGE_DAYS = 31;

/** POST /v3/new/report/overview/device: the devices of the caller's tree (or of `userId`'s). */
export interface DeviceOverview {
  total: number;
  /** Current status counts (moving, idling, stopped, offline, sleeping, poweredOff, inactive). */
  status: Record<string, number>;
  /** Online (moving, idling, stopped), offline (offline, sleeping, powered off), never heard. */
  online: number;
  offline: number;
  inactive: number;
  /** Activation states (notActivated, awaitingPermission, activated, expiring, expired). */
  activation: Record<string, number>;
  /** Effective expiry within 7, 30, 60 days (cumulative, not yet past), and already past. */
  expiry: { within7: number; within30: number; within60: number; expired: number };
  /** Offline devices by how long they have been silent. */
  offlineFor: { under2Days: number; days2to7: number; over7Days: number };
}

/** One device in a ranking of the moving overview. */
export interface MovingRank {
  imei: string;
  deviceName: string;
  /** km. */
  distance: number;
  /** s. */
  drivingTime: number;
  trips: number;
}

/** POST /v3/new/report/overview/moving: the range's driving, from the day summaries. */
export interface MovingOverview {
  devices: number;
  distance: number;
  drivingTime: number;
  trips: number;
  /** The ten devices that drove farthest, and the ten that drove longest. */
  distanceRanking: MovingRank[];
  drivingTimeRanking: MovingRank[];
  /** Every UTC day of the range (zeros included). */
  perDay: { date: string; distance: number; drivingTime: number; trips: number; devices: number }[];
}

/** POST /v3/new/report/overview/alert: the range's alerts by type and UTC day. */
export interface AlertOverview {
  total: number;
  byType: { alertType: string; count: number }[];
  /** Every UTC day of the range (zeros included); byType holds the types seen that day. */
  perDay: { date: string; total: number; byType: Record<string, number> }[];
}

export const EXPORT_FORMATS = ["xlsx", "csv", "pdf"] as const;
export type ExportFormat = typeof EXPORT_FORMATS[number];

/** Spec enumeration "Export type": 0 grouped by account, 1 direct. */
export const EXPORT_TYPES = { byAccount: 0, direct: 1 } as const;

export const TASK_STATUSES = ["running", "done", "failed"] as const;
export type TaskStatus = typeof TASK_STATUSES[number];

/** One row of POST /v3/new/task/list. */
export interface TaskRow {
  id: string;
  name: string;
  /** What produced it, e.g. "report". */
  type: string;
  status: TaskStatus;
  /** 0-100. */
  progress: number;
  fileName: string | null;
  /** ISO-8601 UTC. */
  createdAt: string;
}

/**
 * How a column's API value is shown: converted to the user's units and time zone by the pages
 * and the export. Values in the API are km, km/h, seconds and ISO-8601 UTC.
 */
export type ColumnKind =
  | "text"
  | "time"
  | "date"
  | "distance"
  | "speed"
  | "duration"
  | "number"
  | "coordinate"
  | "volume"
  | "boolean"
  | "temperature" // °C in the API, the user's unit on pages and files
  | "voltage" // V
  | "percent" // %
  | "fuelRate"; // L/100 km

export interface ReportColumn {
  /** The row field. */
  key: string;
  kind: ColumnKind;
  /** Summed in the totals row. */
  total?: boolean;
}

const c = (key: string, kind: ColumnKind, total = false): ReportColumn =>
  total ? { key, kind, total } : { key, kind };

const DEVICE = [c("deviceName", "text"), c("imei", "text")];
const INTERVAL = [c("startTime", "time"), c("endTime", "time"), c("duration", "duration", true)];

/** Each report's columns in display order (labels: locales reports.columns.{key}). */
export const REPORT_COLUMNS: Record<ReportName, ReportColumn[]> = {
  trips: [
    ...DEVICE,
    c("startTime", "time"),
    c("startAddress", "text"),
    c("endTime", "time"),
    c("endAddress", "text"),
    c("distance", "distance", true),
    c("duration", "duration", true),
    c("avgSpeed", "speed"),
    c("maxSpeed", "speed"),
    c("fuelUsed", "volume", true),
    c("harshAcceleration", "number", true),
    c("harshBraking", "number", true),
    c("driverName", "text"),
  ],
  parking: [...DEVICE, ...INTERVAL, c("address", "text")],
  idling: [...DEVICE, ...INTERVAL, c("address", "text")],
  mileage: [
    ...DEVICE,
    c("date", "date"),
    c("distance", "distance", true),
    c("drivingTime", "duration", true),
    c("maxSpeed", "speed"),
  ],
  overspeed: [
    ...DEVICE,
    ...INTERVAL,
    c("maxSpeed", "speed"),
    c("avgSpeed", "speed"),
  ],
  ignition: [...DEVICE, c("state", "text"), ...INTERVAL, c("address", "text")],
  online: [...DEVICE, ...INTERVAL],
  offline: [...DEVICE, ...INTERVAL],
  geoRegion: [
    ...DEVICE,
    c("fenceName", "text"),
    c("enterTime", "time"),
    c(
      "exitTime",
      "time",
    ),
    c("duration", "duration", true),
  ],
  alertDetails: [
    ...DEVICE,
    c("alertType", "text"),
    c("alertTime", "time"),
    c("speed", "speed"),
    c("address", "text"),
    c("read", "boolean"),
  ],
  alertStatistics: [...DEVICE, c("alertType", "text"), c("count", "number", true)],
  trackDetails: [
    ...DEVICE,
    c("time", "time"),
    c("lat", "coordinate"),
    c("lng", "coordinate"),
    c("speed", "speed"),
    c("course", "number"),
    c("posType", "text"),
    c("address", "text"),
  ],
  vehicleStatus: [
    ...DEVICE,
    c("status", "text"),
    c("distance", "distance", true),
    c("drivingTime", "duration", true),
    c("idlingTime", "duration", true),
    c("parkingTime", "duration", true),
    c("maxSpeed", "speed"),
    c("lastTime", "time"),
    c("address", "text"),
  ],
  ...SENSOR_COLUMNS,
};

/** Mileage in the segment view (`view: "segment"`): one row per trip with its distance. */
export const MILEAGE_SEGMENT_COLUMNS: ReportColumn[] = [
  ...DEVICE,
  c("startTime", "time"),
  c("endTime", "time"),
  c("duration", "duration", true),
  c("distance", "distance", true),
  c("maxSpeed", "speed"),
];

const SENSOR_SET = new Set<string>(SENSOR_REPORT_NAMES);

/**
 * A report's columns for its request (mileage's view, the sensor reports' filters): the
 * pages and the export lay out the same.
 */
export function reportColumns(report: ReportName, params: Record<string, unknown>): ReportColumn[] {
  if (report === "mileage" && params.view === "segment") return MILEAGE_SEGMENT_COLUMNS;
  if (SENSOR_SET.has(report)) return sensorColumns(report as SensorReportName, params);
  return REPORT_COLUMNS[report];
}

/**
 * The new-version report groups of the spec (business §2 "New report groups") and the pages
 * of each (issue 21 built the sensor ones).
 */
export const REPORT_GROUPS: { key: string; reports: string[] }[] = [
  {
    key: "dailyActivity",
    reports: [
      "trackDetails",
      "trips",
      "mileage",
      "vehicleStatus",
      "canData",
      "obdTrip",
      "obdFault",
      "online",
      "offline",
      "parking",
      "idling",
      "ignition",
      "clockIn",
      "bluetoothClockIn",
    ],
  },
  {
    key: "transportScene",
    reports: [
      "fuelConsumption",
      "currentFuel",
      "refueling",
      "temperatureHumidity",
      "logistics",
      "internalBattery",
      "externalBattery",
      "positioningBattery",
      "carriageMileage",
      "sensorData",
    ],
  },
  {
    key: "vehicleDriving",
    reports: ["alertDetails", "alertStatistics", "drivingBehavior", "overspeed"],
  },
  { key: "roadSign", reports: ["geoRegion"] },
];
