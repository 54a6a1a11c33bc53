/**
 * Each report's own filters (beside devices and range) and how they go into its request:
 * mileage day or segment view, overspeed speed limit, alert type and read state, track
 * details positioning type. Pure: the form, the request and the export share it.
 */
import type { ReportColumn, ReportName } from "../../modules/reports/model.ts";
import { reportColumns } from "../../modules/reports/model.ts";

export const POSITIONING = ["all", "gps", "lbs", "wifi", "beacon"] as const;
export const READ_STATES = ["all", "unread", "read"] as const;
export const CLOCK_TYPES = ["all", "1", "2"] as const;
export const SENSOR_TYPE_KEYS = ["1", "2", "3", "4"] as const;

export interface ReportFilters {
  view: "day" | "segment";
  /** Typed by the user in their speed unit; empty: the device's threshold. */
  speedLimit: string;
  /** An alert type, or "" for all. */
  alertType: string;
  read: typeof READ_STATES[number];
  posType: typeof POSITIONING[number];
  /** Clock-in filter: all, 1 clock-in, 2 clock-in and out. */
  clockType: typeof CLOCK_TYPES[number];
  /** Sensor data: 1 temperature, 2 humidity, 3 door, 4 light. */
  sensorType: typeof SENSOR_TYPE_KEYS[number];
}

export const DEFAULT_FILTERS: ReportFilters = {
  view: "day",
  speedLimit: "",
  alertType: "",
  read: "all",
  posType: "all",
  clockType: "all",
  sensorType: "1",
};

/** A report's filters before the user changes them (fuel consumption opens per trip). */
export function defaultFilters(report: ReportName): ReportFilters {
  return report === "fuelConsumption"
    ? { ...DEFAULT_FILTERS, view: "segment" }
    : { ...DEFAULT_FILTERS };
}

/** Which filters a report's form shows. */
export function filtersOf(report: ReportName): (keyof ReportFilters)[] {
  switch (report) {
    case "mileage":
    case "fuelConsumption":
      return ["view"];
    case "clockIn":
    case "bluetoothClockIn":
      return ["clockType"];
    case "sensorData":
      return ["sensorType"];
    case "overspeed":
      return ["speedLimit"];
    case "alertDetails":
      return ["alertType", "read"];
    case "alertStatistics":
      return ["alertType"];
    case "trackDetails":
      return ["posType"];
    default:
      return [];
  }
}

/** km/h per unit of the user's speed unit. */
const KMH_PER: Record<string, number> = { "km/h": 1, mph: 1.609344, knot: 1.852 };

/**
 * The filters as request fields (the API takes km/h). Returns an error key when the speed
 * limit is not a number from 1 to 300 km/h.
 */
export function filterFields(
  report: ReportName,
  f: ReportFilters,
  speedUnit: string,
): { fields: Record<string, unknown>; error?: string } {
  const fields: Record<string, unknown> = {};
  for (const key of filtersOf(report)) {
    if (key === "view") fields.view = f.view;
    if (key === "alertType" && f.alertType) fields.alertType = f.alertType;
    if (key === "read" && f.read !== "all") fields.read = f.read === "read";
    if (key === "posType" && f.posType !== "all") fields.positioning = f.posType;
    if (key === "clockType") fields.clockType = f.clockType === "all" ? "all" : Number(f.clockType);
    if (key === "sensorType") fields.sensorType = Number(f.sensorType);
    if (key === "speedLimit" && f.speedLimit.trim()) {
      const kmh = Number(f.speedLimit) * (KMH_PER[speedUnit] ?? 1);
      if (!Number.isFinite(kmh) || kmh < 1 || kmh > 300) {
        return { fields, error: "reports.form.badSpeedLimit" };
      }
      fields.speedLimit = Math.round(kmh);
    }
  }
  return { fields };
}

/** The columns a report shows for the query that produced the table (its filters). */
export function columnsFor(report: ReportName, query: Record<string, unknown>): ReportColumn[] {
  return reportColumns(report, query);
}
