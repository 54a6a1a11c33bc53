import assert from "node:assert/strict";
import {
  convertDistance,
  convertSpeed,
  distanceUnit,
  formatDistance,
  formatSpeed,
  speedUnit,
} from "./units.ts";
import { formatTime, parseLocal, toLocalInput } from "./time.ts";

Deno.test("speed converts from km/h to mph and knots", () => {
  assert.equal(convertSpeed(100, "km/h"), 100);
  assert.ok(Math.abs(convertSpeed(100, "mph") - 62.137) < 0.001);
  assert.ok(Math.abs(convertSpeed(100, "knot") - 53.996) < 0.001);
  assert.equal(formatSpeed(100, "mph"), "62.1 mph");
  assert.equal(formatSpeed(185.2, "knot"), "100 knot");
  assert.equal(formatSpeed(42.34, "km/h"), "42.3 km/h");
});

Deno.test("distance converts from km to miles and nautical miles", () => {
  assert.ok(Math.abs(convertDistance(1.609344, "mi") - 1) < 1e-12);
  assert.ok(Math.abs(convertDistance(1.852, "nmi") - 1) < 1e-12);
  assert.equal(formatDistance(12.3456, "km"), "12.35 km");
  assert.equal(formatDistance(321.9, "mi"), "200 mi");
});

Deno.test("unknown unit settings fall back to metric", () => {
  assert.equal(distanceUnit("furlong"), "km");
  assert.equal(speedUnit(undefined), "km/h");
  assert.equal(speedUnit("knot"), "knot");
});

Deno.test("times are shown in the user's time zone", () => {
  const t = Date.UTC(2026, 0, 15, 23, 30, 0);
  assert.equal(formatTime(t, "UTC"), "2026-01-15 23:30:00");
  assert.equal(formatTime(t, "Asia/Shanghai"), "2026-01-16 07:30:00");
  assert.equal(formatTime(t, "America/New_York"), "2026-01-15 18:30:00");
  assert.equal(formatTime(t, "Not/AZone"), "2026-01-15 23:30:00");
  assert.equal(formatTime(null, "UTC"), "—");
  assert.equal(toLocalInput(t, "Asia/Shanghai"), "2026-01-16T07:30");
  assert.equal(parseLocal("2026-01-16T07:30", "Asia/Shanghai"), t);
});
