/**
 * One report value as the export shows it: API values (km, km/h, seconds, litres, ISO-8601
 * UTC) in the requesting user's units and time zone. Numbers stay numbers (xlsx sums them).
 */
import {
  convertDistance,
  convertSpeed,
  type DistanceUnit,
  type SpeedUnit,
} from "../../monitor/units.ts";
import { safeZone } from "../../monitor/time.ts";
import type { ColumnKind } from "../model.ts";

export type Cell = string | number;

export type VolumeUnit = "L" | "GAL";
const LITRES_PER_GALLON = 3.785411784;

/** The user's settings an export is written in. */
export interface ExportPrefs {
  distance: DistanceUnit;
  speed: SpeedUnit;
  volume: VolumeUnit;
  /** IANA zone. */
  timeZone: string;
  yes: string;
  no: string;
  /** °C or °F (temperature columns). */
  temperature?: "°C" | "°F";
}

const round = (v: number, digits: number) => {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
};

/** "H:MM:SS" (hours may pass 24): sorts and reads the same in every language. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, sec = s % 60;
  return `${h}:${String(m).padStart(2, "0")}:${String(sec).padStart(2, "0")}`;
}

/**
 * Formats instants in one zone as "YYYY-MM-DD HH:mm:ss". The zone's UTC offset is looked up
 * with Intl once per UTC day (per quarter hour on a day with a transition: offsets change
 * only on such boundaries) and the rest is arithmetic, many times faster than Intl per value.
 */
export function timeFormatter(zone: string): (iso: string | number) => string {
  const fmt = new Intl.DateTimeFormat("en-CA", {
    timeZone: safeZone(zone),
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
  });
  const lookup = (at: number): number => {
    const p: Record<string, string> = {};
    for (const part of fmt.formatToParts(at)) p[part.type] = part.value;
    return Date.UTC(+p.year, +p.month - 1, +p.day, +p.hour, +p.minute, +p.second) - at;
  };
  // Per UTC day: its offset when the day's two ends agree (no transition inside: zones
  // change at most twice a year), else null and the quarter hours are looked up.
  const days = new Map<number, number | null>();
  const quarters = new Map<number, number>();
  const offsetAt = (ms: number): number => {
    const day = Math.floor(ms / DAY);
    let off = days.get(day);
    if (off === undefined) {
      const first = lookup(day * DAY), last = lookup((day + 1) * DAY - QUARTER_HOUR);
      off = first === last ? first : null;
      days.set(day, off);
    }
    if (off !== null) return off;
    const q = Math.floor(ms / QUARTER_HOUR);
    let qOff = quarters.get(q);
    if (qOff === undefined) quarters.set(q, qOff = lookup(q * QUARTER_HOUR));
    return qOff;
  };
  return (value) => {
    const ms = typeof value === "number" ? value : Date.parse(value);
    if (!Number.isFinite(ms)) return "";
    const d = new Date(ms + offsetAt(ms));
    return `${d.getUTCFullYear()}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())} ` +
      `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
  };
}

const QUARTER_HOUR = 15 * 60_000;
const DAY = 86_400_000;
const two = (n: number) => (n < 10 ? `0${n}` : String(n));

/** The unit a column's header names, or null. */
export function unitOf(kind: ColumnKind, prefs: ExportPrefs): string | null {
  return kind === "distance"
    ? prefs.distance
    : kind === "speed"
    ? prefs.speed
    : kind === "volume"
    ? prefs.volume
    : kind === "temperature"
    ? prefs.temperature ?? "°C"
    : kind === "voltage"
    ? "V"
    : kind === "percent"
    ? "%"
    : kind === "fuelRate"
    ? `${prefs.volume}/100 ${prefs.distance}`
    : null;
}

/** Converts one value for the file; null and missing values are empty. */
export function cellConverter(
  prefs: ExportPrefs,
): (kind: ColumnKind, value: unknown) => Cell {
  const time = timeFormatter(prefs.timeZone);
  return (kind, value) => {
    if (value === null || value === undefined || value === "") return "";
    switch (kind) {
      case "time":
        return typeof value === "string" || typeof value === "number" ? time(value) : "";
      case "distance":
        return round(convertDistance(Number(value), prefs.distance), 2);
      case "speed":
        return round(convertSpeed(Number(value), prefs.speed), 1);
      case "volume":
        return round(prefs.volume === "GAL" ? Number(value) / LITRES_PER_GALLON : Number(value), 2);
      case "duration":
        return formatDuration(Number(value));
      case "coordinate":
        return round(Number(value), 6);
      case "temperature":
        return round(prefs.temperature === "°F" ? Number(value) * 9 / 5 + 32 : Number(value), 1);
      case "voltage":
      case "percent":
        return round(Number(value), 2);
      case "fuelRate": {
        // L/100 km → the user's volume per 100 of their distance unit.
        const per100 = convertDistance(100, prefs.distance);
        const litres = Number(value) * 100 / per100;
        return round(prefs.volume === "GAL" ? litres / LITRES_PER_GALLON : litres, 2);
      }
      case "number":
        return Number.isFinite(Number(value)) ? Number(value) : String(value);
      case "boolean":
        return value === true || value === 1 || value === "1" ? prefs.yes : prefs.no;
      default:
        return String(value);
    }
  };
}
