/**
 * OsmAnd / Traccar Client device side (HTTP). Two request forms:
 *   query  POST /?id=…&lat=…&lon=…&timestamp=<unix s>&speed=<knots>&bearing=…&altitude=…&batt=…
 *   JSON   POST / {"device_id", "location": {timestamp ISO, coords {…, speed m/s}, odometer m,
 *          battery {level 0-1, is_charging}, is_moving}} (an array of locations for a batch)
 * The answer is 200 with an empty body, or with a pending command's text.
 */
import { type DeviceFix, KMH_PER_KNOT } from "../fix.ts";

export type OsmAndForm = "query" | "json";

export interface OsmAndRequestParts {
  method: "POST";
  /** Path and query string. */
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** The query-string form (speed in knots, Unix seconds). */
export function osmandQuery(id: string, fix: DeviceFix): OsmAndRequestParts {
  const q = new URLSearchParams({
    id,
    timestamp: String(Math.floor(fix.time.getTime() / 1000)),
    lat: fix.latitude.toFixed(6),
    lon: fix.longitude.toFixed(6),
    speed: (fix.speedKmh / KMH_PER_KNOT).toFixed(2),
    bearing: String(Math.round(fix.course)),
    altitude: String(Math.round(fix.altitude)),
    accuracy: fix.valid ? "8" : "60",
    batt: String(Math.round(fix.battery)),
    ignition: String(fix.acc),
    valid: String(fix.valid),
    odometer: String(Math.round(fix.odometerKm * 1000)),
  });
  if (fix.alarm) q.set("alarm", fix.alarm);
  return { method: "POST", path: `/?${q}`, headers: {}, body: "" };
}

function jsonLocation(fix: DeviceFix) {
  return {
    timestamp: fix.time.toISOString(),
    coords: {
      latitude: Number(fix.latitude.toFixed(6)),
      longitude: Number(fix.longitude.toFixed(6)),
      speed: Number((fix.speedKmh / 3.6).toFixed(2)),
      heading: Math.round(fix.course),
      altitude: Math.round(fix.altitude),
      accuracy: fix.valid ? 8 : 60,
    },
    is_moving: fix.speedKmh > 0,
    odometer: Math.round(fix.odometerKm * 1000),
    event: fix.alarm ?? "motionchange",
    battery: { level: Math.round(fix.battery) / 100, is_charging: fix.acc },
    activity: { type: fix.speedKmh > 0 ? "in_vehicle" : "still" },
  };
}

/** The Traccar Client JSON form; several fixes make a batch (`location` array). */
export function osmandJson(id: string, fixes: DeviceFix[]): OsmAndRequestParts {
  const location = fixes.length === 1 ? jsonLocation(fixes[0]) : fixes.map(jsonLocation);
  return {
    method: "POST",
    path: "/",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ device_id: id, location }),
  };
}

/** The command in an answer body, or null when there is none. */
export function osmandCommand(body: string): string | null {
  const text = body.trim();
  return text === "" ? null : text;
}
