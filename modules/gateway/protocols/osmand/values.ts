/**
 * Value parsing shared by the OsmAnd query and JSON forms.
 *
 * Parsers return `undefined` for malformed input; callers turn that into an `{error}`
 * result, so hostile requests are rejected without throwing.
 */

import type { AttributeValue } from "../types.ts";

const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const ISO_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(Z|[+-]\d{2}:?\d{2})?$/;
/**
 * Times from this on are malformed requests (400). Times before 2000 are a phone clock that
 * was never set: they decode, and the gateway acknowledges them (200, so the client stops
 * resending) but keeps them out of tracks (ingest.ts).
 */
const LATEST = Date.UTC(2100, 0, 1);
/** Unix times above this are milliseconds (1e11 s would be the year 5138). */
const MILLISECONDS_THRESHOLD = 1e11;

export const MS_TO_KNOTS = 3600 / 1852;

export function parseDecimal(raw: string): number | undefined {
  const trimmed = raw.trim();
  if (!DECIMAL.test(trimmed)) return undefined;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : undefined;
}

export function parseBoolean(raw: string): boolean | undefined {
  const lower = raw.trim().toLowerCase();
  if (lower === "true" || lower === "1") return true;
  if (lower === "false" || lower === "0") return false;
  return undefined;
}

/**
 * Unix seconds, Unix milliseconds, or ISO 8601 (`T` or space separated; without a zone
 * the time is UTC, never the server's local time).
 */
export function parseTimestamp(raw: string): Date | undefined {
  const trimmed = raw.trim();
  let millis: number | undefined;
  if (/^\d{1,16}(\.\d+)?$/.test(trimmed)) {
    const value = Number(trimmed);
    millis = value > MILLISECONDS_THRESHOLD ? value : value * 1000;
  } else {
    const match = ISO_TIME.exec(trimmed);
    if (!match) return undefined;
    const [, year, month, day, hour, minute, second, fraction, zone] = match;
    if (Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return undefined;
    const local = Date.UTC(
      Number(year),
      Number(month) - 1,
      Number(day),
      Number(hour),
      Number(minute),
      Number(second),
      Math.round(Number(fraction ?? "0") * 1000),
    );
    millis = local - zoneOffsetMinutes(zone) * 60_000;
    const check = new Date(local);
    // Date.UTC rolls 31 Feb into March; reject such dates.
    if (check.getUTCDate() !== Number(day) || check.getUTCMonth() !== Number(month) - 1) {
      return undefined;
    }
  }
  if (!(millis !== undefined && Number.isFinite(millis) && millis < LATEST)) return undefined;
  return new Date(Math.round(millis));
}

function zoneOffsetMinutes(zone: string | undefined): number {
  if (!zone || zone === "Z") return 0;
  const digits = zone.replace(":", "");
  const sign = digits[0] === "-" ? -1 : 1;
  return sign * (Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5)));
}

export function isLatitude(value: number): boolean {
  return Number.isFinite(value) && Math.abs(value) <= 90;
}

export function isLongitude(value: number): boolean {
  return Number.isFinite(value) && Math.abs(value) <= 180;
}

/** Course into [0, 360); negative values mean "unknown" in these clients and become 0. */
export function normalizeCourse(course: number): number {
  return course < 0 ? 0 : course % 360;
}

/** Keys that must never be written into an attributes object. */
const FORBIDDEN_KEYS = new Set(["__proto__", "constructor", "prototype"]);
const MAX_KEY_LENGTH = 64;
const MAX_TEXT_LENGTH = 1024;

export function isSafeAttributeKey(key: string): boolean {
  return key.length > 0 && key.length <= MAX_KEY_LENGTH && !FORBIDDEN_KEYS.has(key);
}

/** A free-form query value as the most specific attribute type: boolean, number or text. */
export function coerceAttribute(raw: string): AttributeValue {
  const lower = raw.toLowerCase();
  if (lower === "true" || lower === "false") return lower === "true";
  return parseDecimal(raw) ?? raw.slice(0, MAX_TEXT_LENGTH);
}

/** A JSON value as an attribute: primitives as they are, structures as JSON text. */
export function jsonAttribute(value: unknown): AttributeValue | undefined {
  if (typeof value === "string") return value.slice(0, MAX_TEXT_LENGTH);
  if (typeof value === "boolean") return value;
  if (typeof value === "number") return Number.isFinite(value) ? value : undefined;
  if (value === null || value === undefined) return undefined;
  return JSON.stringify(value).slice(0, MAX_TEXT_LENGTH);
}
