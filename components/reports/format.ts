/**
 * A report cell in the user's units, time zone and language (the API answers km, km/h,
 * seconds, litres and ISO-8601 UTC). Built once per island from the user's settings.
 */
import type { TFunction } from "i18next";
import {
  convertDistance,
  convertSpeed,
  distanceUnit,
  speedUnit,
} from "../../modules/monitor/units.ts";
import { formatTime } from "../../modules/monitor/time.ts";
import type { ColumnKind, ReportColumn } from "../../modules/reports/model.ts";

export interface UserUnits {
  /** km, mi or nmi. */
  distance: string;
  /** km/h, mph or knot. */
  speed: string;
  /** L or GAL. */
  capacity: string;
  /** IANA zone, UTC when unknown. */
  timeZone: string;
  /** °C or °F (temperature columns); °C when absent. */
  temperature?: string;
}

const LITRES_PER_GALLON = 3.785411784;

/** "1 h 05 min", "12 min 30 s", "45 s". */
export function formatDuration(seconds: number, t: TFunction): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), rest = s % 60;
  if (h) return t("reports.units.hm", { h, m: String(m).padStart(2, "0") });
  if (m) return t("reports.units.ms", { m, s: String(rest).padStart(2, "0") });
  return t("reports.units.s", { s: rest });
}

const round = (v: number, digits: number) => {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
};

export interface CellFormat {
  /** The value shown for a column's raw API value. */
  cell(col: ReportColumn, value: unknown): string;
  /** A column's unit, for its header ("Distance (mi)"), or "". */
  unit(kind: ColumnKind): string;
  /** An ISO time (or ms) in the user's zone. */
  time(value: string | number | null): string;
}

export function cellFormat(units: UserUnits, t: TFunction): CellFormat {
  const du = distanceUnit(units.distance), su = speedUnit(units.speed);
  const gallons = units.capacity === "GAL";
  const fahrenheit = /f$/i.test(units.temperature ?? "");
  const time = (value: string | number | null) =>
    value === null || value === "" ? "—" : formatTime(new Date(value).getTime(), units.timeZone);
  const num = (value: unknown): number | null =>
    typeof value === "number" && Number.isFinite(value) ? value : null;
  return {
    time,
    unit(kind) {
      if (kind === "distance") return du;
      if (kind === "speed") return su;
      if (kind === "volume") return gallons ? "gal" : "L";
      if (kind === "temperature") return fahrenheit ? "°F" : "°C";
      if (kind === "voltage") return "V";
      if (kind === "percent") return "%";
      if (kind === "fuelRate") return `${gallons ? "gal" : "L"}/100 ${du}`;
      return "";
    },
    cell(col, value) {
      if (value === null || value === undefined || value === "") return "—";
      const n = num(value);
      switch (col.kind) {
        case "time":
          return time(value as string);
        case "distance":
          return n === null ? "—" : round(convertDistance(n, du), 2).toFixed(2);
        case "speed":
          return n === null ? "—" : String(round(convertSpeed(n, su), 1));
        case "duration":
          return n === null ? "—" : formatDuration(n, t);
        case "volume":
          return n === null ? "—" : round(gallons ? n / LITRES_PER_GALLON : n, 2).toFixed(2);
        case "coordinate":
          return n === null ? "—" : n.toFixed(6);
        case "temperature":
          return n === null ? "—" : (fahrenheit ? n * 9 / 5 + 32 : n).toFixed(1);
        case "voltage":
        case "percent":
          return n === null ? "—" : String(round(n, 2));
        case "fuelRate": {
          if (n === null) return "—";
          const litres = n * 100 / convertDistance(100, du);
          return round(gallons ? litres / LITRES_PER_GALLON : litres, 2).toFixed(2);
        }
        case "boolean":
          return t(value ? "reports.values.yes" : "reports.values.no");
        case "number":
          return n === null ? String(value) : String(round(n, 2));
        case "text":
          return textCell(col.key, String(value), t);
        default:
          return String(value);
      }
    },
  };
}

const CODE_KEYS = new Set(["clockType", "door", "light"]);

/** Text columns whose values are codes: translated (alert types, states, positioning). */
function textCell(key: string, value: string, t: TFunction): string {
  if (key === "alertType") return t(`alerts.type.${value}`, { defaultValue: value });
  if (key === "status") return t(`monitor.status.${value}`, { defaultValue: value });
  if (key === "state" || key === "posType" || CODE_KEYS.has(key)) {
    return t(`reports.values.${key}.${value}`, { defaultValue: value });
  }
  return value;
}

/** Sums of the columns marked `total` over rows, in API units (null where nothing summed). */
export function columnTotals(
  columns: ReportColumn[],
  rows: Record<string, unknown>[],
): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  for (const col of columns) {
    if (!col.total) continue;
    let sum = 0, any = false;
    for (const r of rows) {
      const v = r[col.key];
      if (typeof v === "number" && Number.isFinite(v)) {
        sum += v;
        any = true;
      }
    }
    out[col.key] = any ? sum : null;
  }
  return out;
}
