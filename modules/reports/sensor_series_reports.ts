/**
 * The sensor reports that list readings as they came: internal, external and positioning
 * battery, current fuel value, CAN data, OBD trip details and sensor data. One row per moment
 * (and probe), in time order; the first page also carries a chart of the report's main value
 * (fuel with its refuels and drains marked).
 */
import type { Device } from "../devices/model.ts";
import type { SensorSeries } from "../sensors/types.ts";
import type { Page, ReportQuery, ReportSources } from "./context.ts";
import { mapLimit, READ_CONCURRENCY } from "./merge.ts";
import type { ColumnKind } from "./model.ts";
import { deviceCells, iso } from "./rows.ts";
import {
  CHART_DEVICES,
  type ChartMark,
  SENSOR_TYPES,
  type SensorChart,
  type SensorType,
} from "./sensor_model.ts";
import {
  answer,
  chartLines,
  type Joined,
  r2,
  readJoined,
  type Reported,
  sensorPaged,
  SUPPORTS,
} from "./sensor_support.ts";

interface SeriesSpec {
  supports: (r: Reported) => boolean;
  series: SensorSeries[];
  /** The row's value fields from a joined moment. */
  values(j: Joined): Record<string, unknown>;
  /** Rows carry lat, lng and the address. */
  place?: boolean;
  /** The value drawn on the first page's chart. */
  chart?: { key: SensorSeries; kind: ColumnKind };
  /** Refuels and drains marked on the chart. */
  fuelMarks?: boolean;
}

async function seriesReport(s: ReportSources, q: ReportQuery, spec: SeriesSpec): Promise<Page> {
  const p = await sensorPaged<Joined>(s, q, spec.supports, {
    read: (d) => readJoined(s, d.imei, spec.series, q.from, q.to),
    time: (j) => j.time,
    row: (j, d) => ({
      ...deviceCells(d),
      time: iso(j.time),
      ...spec.values(j),
      ...(spec.place ? { lat: j.lat ?? null, lng: j.lng ?? null, address: "" } : {}),
    }),
    places: (j) =>
      spec.place && j.lat !== undefined && j.lng !== undefined
        ? [{ field: "address", lat: j.lat, lng: j.lng }]
        : [],
  });
  if (!spec.chart || q.skip > 0 || !p.q.devices.length) return answer(p);
  const chart: SensorChart = {
    kind: spec.chart.kind,
    lines: chartLines(p.lists, spec.chart.key),
    marks: spec.fuelMarks ? await fuelMarks(s, q, [...p.lists.keys()]) : [],
    bands: [],
  };
  return answer(p, { chart });
}

/** The refuels and drains of the charted devices (litres). */
async function fuelMarks(s: ReportSources, q: ReportQuery, devices: Device[]) {
  const lists = await mapLimit(
    devices.slice(0, CHART_DEVICES),
    READ_CONCURRENCY,
    (d) => s.sensors!.events(d.imei, ["refuel", "drain"], q.from, q.to),
  );
  const marks: ChartMark[] = [];
  lists.forEach((events, i) => {
    for (const e of events) {
      marks.push({
        imei: devices[i].imei,
        time: e.time,
        kind: e.kind === "drain" ? "drain" : "refuel",
        amount: r2(fuelAmount(e.data)) ?? 0,
      });
    }
  });
  return marks;
}

/** Litres of a refuel or drain event: its amount, else the level's change. */
export function fuelAmount(data: Record<string, unknown>): number {
  const n = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : null);
  const amount = n(data.amount) ?? n(data.litres);
  if (amount !== null) return Math.abs(amount);
  const before = n(data.before), after = n(data.after);
  return before !== null && after !== null ? Math.abs(after - before) : 0;
}

const v = (j: Joined, key: SensorSeries) => r2(j.values[key]);

export const internalBatteryReport = (s: ReportSources, q: ReportQuery) =>
  seriesReport(s, q, {
    supports: SUPPORTS.battery,
    series: ["batteryVoltage", "batteryPercent"],
    values: (j) => ({
      batteryVoltage: v(j, "batteryVoltage"),
      batteryPercent: v(j, "batteryPercent"),
    }),
    chart: { key: "batteryPercent", kind: "percent" },
  });

export const externalBatteryReport = (s: ReportSources, q: ReportQuery) =>
  seriesReport(s, q, {
    supports: SUPPORTS.externalPower,
    series: ["externalVoltage"],
    values: (j) => ({ externalVoltage: v(j, "externalVoltage") }),
    chart: { key: "externalVoltage", kind: "voltage" },
  });

export const positioningBatteryReport = (s: ReportSources, q: ReportQuery) =>
  seriesReport(s, q, {
    supports: SUPPORTS.battery,
    series: ["batteryPercent", "batteryVoltage"],
    values: (j) => ({
      batteryPercent: v(j, "batteryPercent"),
      batteryVoltage: v(j, "batteryVoltage"),
    }),
    place: true,
    chart: { key: "batteryPercent", kind: "percent" },
  });

export const currentFuelReport = (s: ReportSources, q: ReportQuery) =>
  seriesReport(s, q, {
    supports: SUPPORTS.fuel,
    series: ["fuelLitres", "fuelPercent"],
    values: (j) => ({ fuelLitres: v(j, "fuelLitres"), fuelPercent: v(j, "fuelPercent") }),
    place: true,
    chart: { key: "fuelLitres", kind: "volume" },
    fuelMarks: true,
  });

/** The OBD values of CAN data and an OBD trip's details. */
const OBD_SERIES: SensorSeries[] = [
  "obdSpeed",
  "obdRpm",
  "obdCoolant",
  "obdThrottle",
  "obdEngineLoad",
  "obdFuelRate",
  "obdOdometer",
];

const obdValues = (j: Joined): Record<string, unknown> =>
  Object.fromEntries(OBD_SERIES.map((k) => [k, v(j, k)]));

export const canDataReport = (s: ReportSources, q: ReportQuery) =>
  seriesReport(s, q, {
    supports: SUPPORTS.obd,
    series: OBD_SERIES,
    values: obdValues,
    chart: { key: "obdSpeed", kind: "speed" },
  });

/** One trip's OBD readings (the /new/OBDTripReportInfo/{id} page asks for the trip's range). */
export const obdTripInfoReport = (s: ReportSources, q: ReportQuery) =>
  seriesReport(s, q, {
    supports: SUPPORTS.obd,
    series: OBD_SERIES,
    values: obdValues,
    chart: { key: "obdRpm", kind: "number" },
  });

/** Door and light inputs read open/closed and light/dark. */
const STATE_WORDS: Partial<Record<SensorSeries, [string, string]>> = {
  door: ["closed", "open"],
  light: ["dark", "light"],
};

const TYPE_KIND: Record<SensorType, ColumnKind> = {
  1: "temperature",
  2: "percent",
  3: "number",
  4: "number",
};

export function sensorDataReport(s: ReportSources, q: ReportQuery, sensorType: SensorType) {
  const key = SENSOR_TYPES[sensorType] as SensorSeries;
  const words = STATE_WORDS[key];
  return seriesReport(s, q, {
    supports: (r) => r.series.has(key),
    series: [key],
    values: (j) => {
      const value = j.values[key];
      return {
        probe: j.index,
        [key]: words && value !== undefined ? words[value ? 1 : 0] : r2(value),
      };
    },
    chart: { key, kind: TYPE_KIND[sensorType] },
  });
}
