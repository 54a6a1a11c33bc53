/**
 * The sensor reports' figures from crafted readings: fuel used in a window (refuels and drains
 * left out), temperature out-of-range intervals, clock-in shifts, door openings, litres from a
 * fuel rate, the driving score, chart thinning, series joined by probe, trip ids, columns.
 */
import assert from "node:assert/strict";
import type { Device } from "../devices/model.ts";
import type { SensorEvent, SensorSample } from "../sensors/types.ts";
import { reportColumns } from "./model.ts";
import { behaviourScore, shifts } from "./sensor_events.ts";
import { fuelFigures, per100km } from "./sensor_fuel.ts";
import { CHART_POINTS, parseTripId, tripId } from "./sensor_model.ts";
import { joinSamples, thin } from "./sensor_support.ts";
import { bandOf, outOfRange, probeSummaries } from "./sensor_temperature.ts";
import { doorFigures, litresFromRate } from "./sensor_trips.ts";

const MIN = 60_000;
const T0 = Date.UTC(2026, 10, 20, 8);
const at = (m: number) => T0 + m * MIN;
const sample = (m: number, value: number, index = 0): SensorSample => ({
  time: at(m),
  value,
  index,
});

Deno.test("fuel used: level at the start plus refuelled minus drained, minus the end", () => {
  // 60 L kept (stored every 5 min while unchanged), a 40 L refuel, a drive, a 10 L drain.
  const levels = [
    sample(-12, 61),
    sample(-4, 60), // the level when the window opens
    sample(1, 60),
    sample(6, 100),
    sample(20, 96),
    sample(30, 92),
    sample(40, 82),
    sample(45, 82),
  ];
  const f = fuelFigures(levels, [
    { kind: "refuel", data: { before: 60, after: 100, amount: 40 } },
    { kind: "drain", data: { before: 92, after: 82 } },
  ], at(0));
  assert.deepEqual([f.startFuel, f.endFuel, f.refuelled, f.drained], [60, 82, 40, 10]);
  // 60 − 82 + 40 − 10 = 8 L burnt.
  assert.equal(f.fuelUsed, 8);
  assert.equal(per100km(8, 100), 8);
  assert.equal(per100km(8, 0.2), null, "too short a distance has no rate");
  const one = fuelFigures([sample(3, 33)], [], at(0));
  assert.deepEqual([one.startFuel, one.fuelUsed], [33, null], "one reading: no consumption");
  const none = fuelFigures([], [], at(0));
  assert.deepEqual([none.startFuel, none.fuelUsed], [null, null]);
});

Deno.test("temperature: out-of-range intervals against min and max, with extremes", () => {
  const limits = { min: 2, max: 8 };
  const temps = [5, 6, 9, 11, 10, 7, 1, 0.5, 3, 12].map((v, m) => ({
    time: at(m),
    index: 1,
    values: { temperature: v },
  }));
  const out = outOfRange(temps, limits);
  assert.deepEqual(out.map((o) => [o.band, o.start, o.end, o.duration, o.extreme]), [
    ["high", new Date(at(2)).toISOString(), new Date(at(5)).toISOString(), 180, 11],
    ["low", new Date(at(6)).toISOString(), new Date(at(8)).toISOString(), 120, 0.5],
    // Never back inside: ends at its last reading.
    ["high", new Date(at(9)).toISOString(), new Date(at(9)).toISOString(), 0, 12],
  ]);
  assert.equal(bandOf(8, limits), null, "the threshold itself is inside");
  assert.equal(bandOf(30, { min: null, max: null }), null);
  const d = { imei: "862000000000001", deviceName: "Reefer" } as Device;
  const [s] = probeSummaries(d, temps, limits);
  assert.deepEqual(s.temperature, { min: 0.5, max: 12, avg: 6.45, count: 10 });
  assert.equal(s.humidity, null);
  assert.equal(s.outOfRange.length, 3);
});

Deno.test("clock-in and out: swipes paired per card into shifts", () => {
  const e = (m: number, kind: SensorEvent["kind"], cardNo: string): SensorEvent => ({
    kind,
    time: at(m),
    data: { cardNo },
  });
  const list = shifts([
    e(0, "rfidOut", "A"), // out without an in
    e(5, "rfidIn", "A"),
    e(6, "rfidIn", "B"),
    e(65, "rfidOut", "A"),
    e(70, "rfidIn", "C"), // never closed
    e(90, "rfidOut", "B"),
  ], "rfidIn");
  assert.deepEqual(list.map((x) => [x.row.cardNo, x.row.duration]), [
    ["A", null],
    ["A", 3600],
    ["B", 84 * 60],
    ["C", null],
  ]);
  assert.equal(list[0].row.clockInTime, null);
  assert.equal(list[3].row.clockOutTime, null);
});

Deno.test("door openings and time open; litres from a fuel rate; the driving score", () => {
  const doors = [sample(0, 0, 1), sample(2, 1, 1), sample(5, 0, 1), sample(8, 1, 1)];
  assert.deepEqual(doorFigures(doors, at(10)), { openings: 2, openSeconds: 5 * 60 });
  // 6 L/h for an hour (6 L), then rising to 12 L/h over half an hour (trapezoid: 4.5 L).
  const rate = [sample(0, 6), sample(60, 6), sample(90, 12)];
  assert.equal(litresFromRate(rate), 6 + 4.5);
  assert.equal(litresFromRate([sample(0, 6)]), null);
  assert.deepEqual(behaviourScore(3, 200), { eventsPer100km: 1.5, score: 85 });
  assert.deepEqual(behaviourScore(50, 100), { eventsPer100km: 50, score: 0 });
  assert.deepEqual(behaviourScore(0, 0.4), { eventsPer100km: null, score: null });
});

Deno.test("series joined by time and probe; chart lines thinned keeping peaks", () => {
  const joined = joinSamples(["temperature", "humidity"], [
    [sample(0, 4, 1), sample(0, 6, 2), sample(1, 5, 1)],
    [sample(0, 80, 1), sample(2, 70, 1)],
  ]);
  // A value missing at a moment is the probe's last one (the store keeps unchanged values
  // only every 5 minutes), never another probe's.
  assert.deepEqual(joined.map((j) => [j.time - T0, j.index, j.values]), [
    [0, 1, { temperature: 4, humidity: 80 }],
    [0, 2, { temperature: 6 }],
    [MIN, 1, { temperature: 5, humidity: 80 }],
    [2 * MIN, 1, { temperature: 5, humidity: 70 }],
  ]);
  const stale = joinSamples(["obdRpm", "obdCoolant"], [
    [sample(0, 800), sample(10, 900)],
    [sample(0, 80)],
  ]);
  assert.deepEqual(stale.map((j) => j.values), [
    { obdRpm: 800, obdCoolant: 80 },
    { obdRpm: 900 }, // 10 minutes on: too old to hold
  ]);
  const long = Array.from(
    { length: 5000 },
    (_, i) => ({ time: at(i), value: i === 2500 ? 99 : 1 }),
  );
  const line = thin(long);
  assert.ok(line.length <= CHART_POINTS, `${line.length}`);
  assert.ok(line.some((p) => p[1] === 99), "the spike survives");
  assert.ok(line.every((p, i) => i === 0 || p[0] > line[i - 1][0]), "in time order");
});

Deno.test("trip ids round-trip; columns follow the filters", () => {
  const id = tripId("862000000000001", at(0), at(30));
  assert.deepEqual(parseTripId(id), { imei: "862000000000001", start: at(0), end: at(30) });
  assert.equal(parseTripId("862000000000001-5-1"), null);
  assert.equal(parseTripId("x"), null);
  const keys = (r: Parameters<typeof reportColumns>[0], p: Record<string, unknown>) =>
    reportColumns(r, p).map((c) => c.key);
  assert.ok(keys("fuelConsumption", { view: "day" }).includes("date"));
  assert.ok(keys("fuelConsumption", {}).includes("startTime"));
  assert.ok(keys("clockIn", { clockType: 2 }).includes("clockOutTime"));
  assert.ok(keys("clockIn", { clockType: 1 }).includes("clockType"));
  assert.ok(keys("sensorData", { sensorType: 3 }).includes("door"));
  assert.ok(keys("sensorData", {}).includes("temperature"));
});
