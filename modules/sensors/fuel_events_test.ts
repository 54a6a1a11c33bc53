import assert from "node:assert/strict";
import { detectFuelChanges, type FuelSample, medianSmooth } from "./fuel_events.ts";

const T0 = Date.UTC(2026, 10, 2, 8, 0, 0);
const MIN = 60_000;

/** A deterministic wobble of ± `amp` litres (a float sensor's noise). */
const wobble = (i: number, amp: number) => amp * Math.sin(i * 2.3) * Math.cos(i * 0.7);

/** One sample a minute from the levels given, standing still unless `speed` says otherwise. */
function series(levels: number[], opts: { noise?: number; speed?: (i: number) => number } = {}) {
  return levels.map((l, i): FuelSample => ({
    time: T0 + i * MIN,
    litres: l + wobble(i, opts.noise ?? 0.6),
    speed: opts.speed?.(i) ?? 0,
    lat: 22.5,
    lng: 114.05,
  }));
}

const flat = (n: number, v: number) => Array(n).fill(v);
const ramp = (from: number, to: number, steps: number) =>
  Array.from({ length: steps }, (_, k) => from + ((to - from) * (k + 1)) / steps);

Deno.test("a refuel spread over five reports is one refuel of its full amount", () => {
  const s = series([...flat(20, 42), ...ramp(42, 92, 5), ...flat(20, 92)]);
  const found = detectFuelChanges(s, { threshold: 10 });
  assert.equal(found.length, 1);
  const [r] = found;
  assert.equal(r.kind, "refuel");
  assert.ok(Math.abs(r.amount - 50) <= 1.5, `amount ${r.amount}`);
  assert.ok(Math.abs(r.before - 42) <= 1, `before ${r.before}`);
  assert.ok(Math.abs(r.after - 92) <= 1, `after ${r.after}`);
  // It starts where the level left 42 L and ends once it reached 92 L.
  assert.ok(r.start >= T0 + 17 * MIN && r.start <= T0 + 20 * MIN, new Date(r.start).toISOString());
  assert.ok(r.end >= T0 + 23 * MIN && r.end <= T0 + 27 * MIN, new Date(r.end).toISOString());
  assert.equal(r.lat, 22.5);
});

Deno.test("a drain of 25 L over three reports; a refuel below the threshold is not one", () => {
  const s = series([...flat(15, 80), ...ramp(80, 55, 3), ...flat(15, 55), ...ramp(55, 61, 2)]
    .concat(flat(15, 61)));
  const found = detectFuelChanges(s, { threshold: 10 });
  assert.deepEqual(found.map((f) => f.kind), ["drain"]);
  assert.ok(Math.abs(found[0].amount - 25) <= 1.5, `amount ${found[0].amount}`);
  // With a 5 L threshold the 6 L top-up counts too.
  const fine = detectFuelChanges(s, { threshold: 5 });
  assert.deepEqual(fine.map((f) => f.kind), ["drain", "refuel"]);
});

Deno.test("single wrong readings (spikes and drops) are smoothed away", () => {
  const levels = flat(40, 60);
  levels[10] = 90;
  levels[25] = 20;
  assert.deepEqual(detectFuelChanges(series(levels)), []);
  assert.deepEqual(medianSmooth([5, 5, 50, 5, 5]), [5, 5, 5, 5, 5]);
});

Deno.test("slosh while moving and consumption over a drive are neither refuels nor drains", () => {
  // Still at 70 L, a 40-minute drive burning 30 L with the level sloshing ± 9 L, still at 40 L.
  const drive = Array.from({ length: 40 }, (_, k) => 70 - (30 * k) / 40 + 9 * Math.sin(k * 1.7));
  const s = series([...flat(10, 70), ...drive, ...flat(10, 40)], {
    speed: (i) => (i >= 10 && i < 50 ? 60 : 0),
  });
  assert.deepEqual(detectFuelChanges(s, { threshold: 10 }), []);
});

Deno.test("a refuel at a stop between two drives is found; its stretch ends at the next drive", () => {
  const levels = [
    ...flat(10, 30),
    ...flat(10, 28),
    ...ramp(28, 75, 4),
    ...flat(6, 75),
    ...flat(10, 73),
  ];
  const s = series(levels, { speed: (i) => (i < 10 || i >= 30 ? 50 : 0) });
  const found = detectFuelChanges(s, { threshold: 10 });
  assert.equal(found.length, 1);
  assert.equal(found[0].kind, "refuel");
  assert.ok(Math.abs(found[0].amount - 47) <= 1.5, `amount ${found[0].amount}`);
});

Deno.test("slow idle consumption (2 L/h) is not a drain; a refuel then a drain later both count", () => {
  const idle = Array.from({ length: 120 }, (_, k) => 90 - k / 30);
  assert.deepEqual(detectFuelChanges(series(idle)), []);
  const s = series([
    ...flat(10, 20),
    ...ramp(20, 60, 3),
    ...flat(30, 60),
    ...ramp(60, 35, 4),
    ...flat(10, 35),
  ]);
  const found = detectFuelChanges(s, { threshold: 10 });
  assert.deepEqual(found.map((f) => [f.kind, Math.round(f.amount / 5) * 5]), [
    ["refuel", 40],
    ["drain", 25],
  ]);
});
