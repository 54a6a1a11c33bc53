/**
 * The JSON body Traccar Client (v9+, built on a background-geolocation library) POSTs:
 *
 *   {"device_id": "...", "location": {"timestamp": ISO, "coords": {latitude, longitude,
 *    speed (m/s), heading, altitude, accuracy, ...}, "is_moving", "odometer" (m), "event",
 *    "battery": {"level" 0-1, "is_charging"}, "activity": {"type"}, "extras": {...}}}
 *
 * `location` may also be an array (batch upload). -1 marks unknown speed, heading and
 * battery level. Other scalar fields of `location` and `coords`, and all `extras`, become
 * attributes.
 */

import type { AttributeValue, Position } from "../types.ts";
import { osmAndAlarm } from "./alarms.ts";
import { batteryPercent, failure, type OsmAndResult } from "./result.ts";
import {
  isLatitude,
  isLongitude,
  isSafeAttributeKey,
  jsonAttribute,
  MS_TO_KNOTS,
  normalizeCourse,
  parseTimestamp,
} from "./values.ts";

const MAX_LOCATIONS = 1000;

/** Fields mapped explicitly; everything else scalar is copied to attributes. */
const LOCATION_FIELDS = new Set([
  "timestamp",
  "coords",
  "is_moving",
  "odometer",
  "event",
  "battery",
  "activity",
  "extras",
]);
const COORDS_FIELDS = new Set([
  "latitude",
  "longitude",
  "speed",
  "heading",
  "altitude",
  "accuracy",
]);

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function decodeJsonBody(
  body: JsonObject,
  fallbackDeviceId: string | undefined,
  now: Date,
): OsmAndResult {
  const rawId = body.device_id;
  const deviceId = typeof rawId === "string" || typeof rawId === "number"
    ? String(rawId).trim()
    : fallbackDeviceId;
  if (!deviceId) return failure("missing device_id");

  const locations = Array.isArray(body.location) ? body.location : [body.location];
  if (locations.length > MAX_LOCATIONS) return failure("too many locations");
  const positions: Position[] = [];
  for (const location of locations) {
    if (!isObject(location)) return failure("location must be an object");
    const position = decodeLocation(location, now);
    if ("error" in position) return position;
    positions.push(position);
  }
  return { deviceId, positions };
}

function decodeLocation(location: JsonObject, now: Date): Position | { error: string } {
  const coords = location.coords;
  if (!isObject(coords)) return failure("missing coords");
  const { latitude, longitude } = coords;
  if (typeof latitude !== "number" || !isLatitude(latitude)) return failure("invalid latitude");
  if (typeof longitude !== "number" || !isLongitude(longitude)) {
    return failure("invalid longitude");
  }
  let time = now;
  if (location.timestamp !== undefined) {
    const parsed = typeof location.timestamp === "string" || typeof location.timestamp === "number"
      ? parseTimestamp(String(location.timestamp))
      : undefined;
    if (!parsed) return failure("invalid timestamp");
    time = parsed;
  }
  const speed = optionalNumber(coords.speed);
  const heading = optionalNumber(coords.heading);
  const altitude = optionalNumber(coords.altitude);
  if (speed === null || heading === null || altitude === null) return failure("invalid coords");

  const position: Position = {
    time,
    valid: true,
    latitude,
    longitude,
    altitude: altitude ?? 0,
    speed: speed !== undefined && speed > 0 ? speed * MS_TO_KNOTS : 0,
    course: normalizeCourse(heading ?? 0),
    posType: 1,
    attributes: {},
  };
  addKnownAttributes(position, location, coords);
  copyScalars(position.attributes, coords, COORDS_FIELDS);
  copyScalars(position.attributes, location, LOCATION_FIELDS);
  if (isObject(location.extras)) {
    copyScalars(position.attributes, location.extras, new Set(), "json");
  }
  // An app may name an alarm (Traccar's names, as in the query form's `alarm=`).
  const alarm = typeof position.attributes.alarm === "string"
    ? osmAndAlarm(position.attributes.alarm)
    : undefined;
  if (alarm) {
    if (alarm !== position.attributes.alarm) {
      position.attributes.alarmName = position.attributes.alarm;
    }
    position.alarm = alarm;
  }
  return position;
}

/** A finite number, undefined when absent, null when present but not a number. */
function optionalNumber(value: unknown): number | undefined | null {
  if (value === undefined || value === null) return undefined;
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

function addKnownAttributes(position: Position, location: JsonObject, coords: JsonObject): void {
  const attributes = position.attributes;
  const accuracy = optionalNumber(coords.accuracy);
  if (typeof accuracy === "number" && accuracy >= 0) attributes.accuracy = accuracy;
  if (typeof location.is_moving === "boolean") attributes.motion = location.is_moving;
  if (typeof location.event === "string") attributes.event = location.event;
  const odometer = optionalNumber(location.odometer);
  if (typeof odometer === "number" && odometer >= 0) position.mileage = odometer / 1000; // m → km
  if (isObject(location.activity) && typeof location.activity.type === "string") {
    attributes.activity = location.activity.type;
  }
  const battery = location.battery;
  if (isObject(battery)) {
    const level = optionalNumber(battery.level);
    // The library reports 0-1; -1 when unknown.
    const percent = typeof level === "number" ? batteryPercent(level * 100) : undefined;
    if (percent !== undefined) position.battery = percent;
    if (typeof battery.is_charging === "boolean") attributes.charge = battery.is_charging;
  }
}

/**
 * Copies fields not mapped explicitly. Structures inside `location`/`coords` are library
 * internals and skipped; inside `extras` (app-defined) they are kept as JSON text. Keys
 * starting with `_` are the library's private fields. The first writer of a key wins.
 */
function copyScalars(
  attributes: Record<string, AttributeValue>,
  source: JsonObject,
  skip: Set<string>,
  structures: "skip" | "json" = "skip",
): void {
  for (const [key, value] of Object.entries(source)) {
    if (skip.has(key) || key.startsWith("_") || !isSafeAttributeKey(key)) continue;
    if (Object.hasOwn(attributes, key)) continue;
    if (structures === "skip" && typeof value === "object" && value !== null) continue;
    const attribute = jsonAttribute(value);
    if (attribute !== undefined) attributes[key] = attribute;
  }
}
