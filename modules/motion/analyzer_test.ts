import assert from "node:assert/strict";
import type { StoredPosition } from "../devices/model.ts";
import { type AnySegment, MotionAnalyzer, newOutput } from "./analyzer.ts";
import { METRES_PER_DEGREE, point, Track } from "./test_tracks.ts";
import { DEFAULT_MOTION_RULES, type MotionRules } from "./types.ts";

const IMEI = "860000000000001";
const at = (iso: string) => Date.parse(iso);
const iso = (t: number) => new Date(t).toISOString();

function run(points: StoredPosition[], opts: { rules?: MotionRules; limit?: number } = {}) {
  const analyzer = new MotionAnalyzer(IMEI, opts.rules ?? DEFAULT_MOTION_RULES, opts.limit ?? 100);
  const out = newOutput();
  for (const p of points) analyzer.push(p, out);
  const of = <K extends AnySegment["kind"]>(kind: K) =>
    out.segments.filter((s): s is Extract<AnySegment, { kind: K }> => s.kind === kind);
  return { analyzer, out, of };
}

/** [start, end] of segments as ISO strings, for readable failures. */
const spans = (list: AnySegment[]) => list.map((s) => [iso(s.start), iso(s.end)]);

/** 08:00 parked, 08:10:30 drives 20 min at 60 km/h, stands 1 min, parks 1 h, drives 10 min,
 * stands 5 min, parks 30 min. With ACC: on for the drives and the standing after them. */
function drivePark(withAcc: boolean): StoredPosition[] {
  const tr = new Track(at("2026-03-02T08:00:00Z"));
  const acc = (on: boolean) => (tr.acc = withAcc ? on : null);
  acc(false);
  tr.here().stay(600);
  acc(true);
  tr.drive(1200, 60).stay(60);
  acc(false);
  tr.stay(3600);
  acc(true);
  tr.drive(600, 60).stay(300);
  acc(false);
  tr.stay(1800);
  return tr.points;
}

Deno.test("drive, park, drive with ACC: trips end on ACC off or a still window, idling with ACC on", () => {
  const { analyzer, of } = run(drivePark(true));
  assert.deepEqual(spans(of("trip")), [
    ["2026-03-02T08:10:30.000Z", "2026-03-02T08:31:30.000Z"], // ACC off ends it at once
    ["2026-03-02T09:31:30.000Z", "2026-03-02T09:41:00.000Z"], // first fix of the still window
  ]);
  const [t1, t2] = of("trip");
  // 40 steps of 500 m: dated at the first moving fix, measured from where the vehicle stood.
  assert.equal(t1.distance, 20);
  assert.equal(t1.startLat, drivePark(true)[20].lat);
  assert.equal(t2.distance, 10);
  assert.equal(t1.maxSpeed, 60);
  assert.equal(t2.avgSpeed, Math.round((10 / (570 / 3600)) * 10) / 10); // distance over duration
  assert.deepEqual(spans(of("parking")), [
    ["2026-03-02T08:00:00.000Z", "2026-03-02T08:10:30.000Z"],
    ["2026-03-02T08:31:30.000Z", "2026-03-02T09:31:30.000Z"],
  ]);
  assert.ok(of("parking").every((p) => p.acc === false));
  assert.deepEqual(spans(of("idling")), [["2026-03-02T09:41:00.000Z", "2026-03-02T09:46:30.000Z"]]);
  assert.deepEqual(of("ignition").map((s) => [s.on, iso(s.start), iso(s.end)]), [
    [true, "2026-03-02T08:10:30.000Z", "2026-03-02T08:31:30.000Z"],
    [false, "2026-03-02T08:31:30.000Z", "2026-03-02T09:31:30.000Z"],
    [true, "2026-03-02T09:31:30.000Z", "2026-03-02T09:46:30.000Z"],
  ]);
  const open = analyzer.open(at("2026-03-02T10:30:00Z"));
  assert.deepEqual(open.map((s) => [s.kind, iso(s.start), iso(s.end)]), [
    ["parking", "2026-03-02T09:46:30.000Z", "2026-03-02T10:30:00.000Z"],
    ["ignition", "2026-03-02T09:46:30.000Z", "2026-03-02T10:30:00.000Z"],
  ]);
  const day = analyzer.today()!;
  assert.equal(day.date, "2026-03-02");
  assert.equal(day.distance, 30);
  assert.equal(day.drivingSeconds, 1260 + 570);
  assert.equal(day.idlingSeconds, 330);
  assert.equal(day.trips, 2);
  assert.equal(day.maxSpeed, 60);
  assert.equal(day.avgSpeed, Math.round((30 / (1830 / 3600)) * 10) / 10);
});

Deno.test("drive, park, drive without ACC: parking from movement alone, acc unknown, no ignition", () => {
  const { analyzer, of } = run(drivePark(false));
  assert.deepEqual(spans(of("trip")), [
    ["2026-03-02T08:10:30.000Z", "2026-03-02T08:30:00.000Z"],
    ["2026-03-02T09:31:30.000Z", "2026-03-02T09:41:00.000Z"],
  ]);
  assert.deepEqual(of("trip").map((t) => t.distance), [20, 10]);
  assert.deepEqual(spans(of("parking")), [
    ["2026-03-02T08:00:00.000Z", "2026-03-02T08:10:30.000Z"],
    ["2026-03-02T08:30:00.000Z", "2026-03-02T09:31:30.000Z"],
  ]);
  assert.ok(of("parking").every((p) => p.acc === null));
  assert.equal(of("idling").length, 0);
  assert.equal(of("ignition").length, 0);
  const [open] = analyzer.open(0);
  assert.equal(open.kind, "parking");
  assert.equal(iso(open.start), "2026-03-02T09:41:00.000Z");
  const day = analyzer.today()!;
  assert.equal(day.distance, 30);
  assert.equal(day.drivingSeconds, 1170 + 570);
  assert.equal(day.idlingSeconds, 0);
});

Deno.test("GPS drift of ±50 m for an hour while parked (and a lone jump) makes no trip and no distance", () => {
  const tr = new Track(at("2026-03-02T01:00:00Z"));
  tr.here().stay(3600, 30, 50, 7);
  // One fix 1 km off, then back: a jump, not a departure.
  tr.time += 30_000;
  tr.points.push(point(tr.time, tr.lat + 1000 / METRES_PER_DEGREE, tr.lng, 0));
  tr.stay(1800, 30, 50, 8);
  for (const acc of [null, true]) {
    const points = tr.points.map((p) => ({ ...p, acc }));
    const { analyzer, out } = run(points);
    assert.equal(out.segments.length, 0);
    const [stop] = analyzer.open(0);
    assert.equal(stop.kind, acc ? "idling" : "parking");
    assert.equal(stop.start, tr.points[0].time);
    const day = analyzer.today()!;
    assert.equal(day.distance, 0);
    assert.equal(day.drivingSeconds, 0);
    assert.equal(day.maxSpeed, 0);
    assert.equal(day.trips, 0);
    assert.equal(day.idlingSeconds, acc ? 5430 : 0);
  }
});

Deno.test("a gap over an hour closes the trip at its last point, by tick or by the next point", () => {
  const tr = new Track(at("2026-03-02T06:00:00Z"));
  tr.here().drive(600, 60);
  const last = tr.time;
  tr.silence(7200);
  tr.lat += 0.05; // moved while silent: a new stop point, not a departure
  tr.here().stay(600);
  const before = tr.points.filter((p) => p.time <= last);

  const ticked = run(before);
  ticked.analyzer.tick(last + 3_599_000, ticked.out);
  assert.equal(ticked.of("trip").length, 0);
  ticked.analyzer.tick(last + 3_601_000, ticked.out);
  assert.deepEqual(spans(ticked.of("trip")), [["2026-03-02T06:00:30.000Z", iso(last)]]);
  for (const p of tr.points.filter((p) => p.time > last)) ticked.analyzer.push(p, ticked.out);

  const pushed = run(tr.points);
  for (const r of [ticked, pushed]) {
    assert.deepEqual(spans(r.of("trip")), [["2026-03-02T06:00:30.000Z", iso(last)]]);
    assert.equal(r.of("trip")[0].distance, 10);
    assert.deepEqual(r.analyzer.open(0).map((s) => [s.kind, iso(s.start)]), [[
      "parking",
      iso(last),
    ]]);
    assert.equal(r.analyzer.today()!.distance, 10);
  }
});

Deno.test("ACC off ends a trip at once; moving with ACC off is no trip", () => {
  const tr = new Track(at("2026-03-02T07:00:00Z"));
  tr.acc = true;
  tr.here().drive(600, 60);
  tr.acc = false;
  tr.drive(300, 60); // towed
  tr.acc = true;
  tr.drive(300, 60).stay(300);
  const { of, analyzer } = run(tr.points);
  assert.deepEqual(spans(of("trip")), [
    ["2026-03-02T07:00:30.000Z", "2026-03-02T07:10:30.000Z"],
    ["2026-03-02T07:15:30.000Z", "2026-03-02T07:20:00.000Z"],
  ]);
  // The second is measured from the last towed fix: the first step under ACC on is driven.
  assert.deepEqual(of("trip").map((t) => t.distance), [10.5, 5]);
  assert.deepEqual(spans(of("parking")), [[
    "2026-03-02T07:10:30.000Z",
    "2026-03-02T07:15:30.000Z",
  ]]);
  assert.equal(analyzer.today()!.distance, 15.5);
});

Deno.test("idling before the trip is idling; the trip starts at the first movement", () => {
  const tr = new Track(at("2026-03-02T05:00:00Z"));
  tr.acc = true;
  tr.here().stay(300).drive(600, 40).stay(300);
  const firstMove = tr.points.find((p) => p.speed > 0)!.time;
  const { of, analyzer } = run(tr.points);
  assert.deepEqual(spans(of("idling")), [["2026-03-02T05:00:00.000Z", iso(firstMove)]]);
  assert.equal(of("trip")[0].start, firstMove);
  assert.equal(iso(firstMove), "2026-03-02T05:05:30.000Z");
  const ignition = analyzer.open(0).find((s) => s.kind === "ignition")!;
  assert.equal(ignition.start, tr.points[0].time); // ignition on long before the trip
  // Idling 330 s before the trip, and the 300 s standing after it (the trip ended at its start).
  assert.equal(of("trip")[0].end, firstMove + 570_000);
  assert.equal(analyzer.today()!.idlingSeconds, 330 + 300);
});

Deno.test("overspeed: a spike and a short streak are ignored, streaks of 10 s or more found", () => {
  const speeds = [
    80,
    120,
    80,
    80,
    110,
    115,
    130,
    120,
    105,
    110,
    90,
    90,
    101,
    102,
    103,
    90,
    120,
    108,
    90,
  ];
  const t0 = at("2026-03-02T10:00:00Z");
  const points = speeds.map((v, i) =>
    point(t0 + i * 5000, 22.5 + (i * 150) / METRES_PER_DEGREE, 114, v)
  );
  const { of, analyzer } = run(points, { limit: 100 });
  const found = of("overspeed");
  assert.deepEqual(
    found.map((s) => [(s.start - t0) / 1000, (s.end - t0) / 1000, s.maxSpeed, s.avgSpeed, s.limit]),
    [
      [20, 45, 130, 115, 100],
      [60, 70, 103, 102, 100],
    ],
  );
  assert.equal(found[0].lat, points[4].lat);
  assert.equal(analyzer.open(0).filter((s) => s.kind === "overspeed").length, 0);
  // The device's own threshold: at 125 km/h only the 130 spike, too short.
  assert.equal(run(points, { limit: 125 }).of("overspeed").length, 0);
});

Deno.test("a trip across UTC midnight splits its distance and driving time at midnight", () => {
  const tr = new Track(at("2026-03-02T23:30:10Z"));
  tr.here().drive(3600, 60).stay(600);
  const { of, out, analyzer } = run(tr.points);
  assert.deepEqual(spans(of("trip")), [["2026-03-02T23:30:40.000Z", "2026-03-03T00:30:10.000Z"]]);
  assert.equal(of("trip")[0].distance, 60);
  assert.equal(out.days.length, 1);
  const [d1] = out.days;
  const d2 = analyzer.today()!;
  assert.equal(d1.date, "2026-03-02");
  assert.equal(d2.date, "2026-03-03");
  // 59 steps of 500 m up to 23:59:40, and 20 s of the 30 s step across midnight.
  assert.equal(d1.distance, Math.round((29.5 + 1 / 3) * 1000) / 1000);
  assert.equal(d2.distance, Math.round((60 - 29.5 - 1 / 3) * 1000) / 1000);
  assert.equal(d1.drivingSeconds, 29 * 60 + 20);
  assert.equal(d2.drivingSeconds, 30 * 60 + 10);
  assert.equal(d1.trips, 1);
  assert.equal(d2.trips, 0);
});

Deno.test("standing across midnight: the day waits until the still window decides", () => {
  for (const [stand, trips] of [[120, 1], [240, 2]] as const) {
    const tr = new Track(at("2026-03-02T23:50:00Z"));
    tr.here().drive(540, 60).stay(stand).drive(300, 60).stay(600);
    const { of, out, analyzer } = run(tr.points);
    const [d1] = out.days;
    const d2 = analyzer.today()!;
    assert.equal(of("trip").length, trips);
    assert.equal(of("trip")[0].start, at("2026-03-02T23:50:30Z"));
    assert.deepEqual([d1.distance, d2.distance], [9, 5]);
    assert.deepEqual([d1.trips, d2.trips], [1, trips - 1]);
    if (trips === 1) {
      // One trip: the 2 min standing at the lights is inside it, split at midnight.
      assert.equal(of("trip")[0].distance, 14);
      assert.deepEqual([d1.drivingSeconds, d2.drivingSeconds], [570, 360]);
    } else {
      // Stopped at 23:59:00: parked across midnight, the second trip is the next day's.
      assert.equal(of("trip")[0].end, at("2026-03-02T23:59:00Z"));
      assert.deepEqual([d1.drivingSeconds, d2.drivingSeconds], [510, 270]);
    }
  }
});

Deno.test("trip distance from the odometer when both ends have it, else along the track", () => {
  const tr = new Track(at("2026-03-02T12:00:00Z"));
  tr.odometer = 1000;
  tr.here().drive(600, 60).stay(300);
  // The odometer reads 10 % more than the fixes show (they cut corners).
  const points = tr.points.map((p) => ({ ...p, mileage: 1000 + (p.mileage! - 1000) * 1.1 }));
  const odo = run(points);
  assert.equal(odo.of("trip")[0].distance, 11);
  assert.equal(odo.analyzer.today()!.distance, 11);
  assert.equal(odo.analyzer.today()!.firstOdometer, 1000);
  assert.equal(odo.analyzer.today()!.lastOdometer, points.at(-1)!.mileage);

  const end = odo.of("trip")[0].end;
  const noEnd = points.map((p) => (p.time === end ? { ...p, mileage: null } : p));
  assert.equal(run(noEnd).of("trip")[0].distance, 10);
  // A reset odometer (going backwards) is not trusted either.
  const reset = points.map((p) => (p.time === end ? { ...p, mileage: 3 } : p));
  assert.equal(run(reset).of("trip")[0].distance, 10);
});

Deno.test("invalid fixes and cell locations are skipped: the same trips and days as without them", () => {
  const tr = new Track(at("2026-03-02T14:00:00Z"));
  tr.here().drive(900, 50).stay(600).drive(300, 30).stay(400);
  const noisy: StoredPosition[] = [];
  tr.points.forEach((p, i) => {
    noisy.push(p);
    const bad = {
      ...p,
      time: p.time + 10_000,
      speed: 140,
      valid: false,
      lat: p.lat + 1,
      lng: p.lng - 1,
    };
    if (i % 3 === 0) noisy.push(bad);
    if (i % 7 === 0) noisy.push({ ...bad, time: p.time + 20_000, lat: 0, lng: 0, valid: true });
    if (i % 5 === 0) noisy.push({ ...bad, time: p.time + 25_000, valid: true, posType: 2 }); // a cell location
  });
  const clean = run(tr.points);
  const dirty = run(noisy);
  assert.equal(clean.of("trip").length, 2);
  assert.deepEqual(dirty.out.segments, clean.out.segments);
  assert.deepEqual(dirty.analyzer.today(), clean.analyzer.today());
});

Deno.test("fuel counter and harsh driving alarms are counted per trip and per day", () => {
  const tr = new Track(at("2026-03-02T15:00:00Z"));
  tr.here().drive(600, 60).stay(300);
  const points = tr.points.map((p, i) => ({
    ...p,
    attributes: {
      fuelUsed: 200 + i * 0.05,
      ...(i === 5 ? { alarm: "harshAcceleration" } : {}),
      ...(i === 9 || i === 12 ? { alarm: "harshBraking" } : {}),
    },
  }));
  const { of, analyzer } = run(points);
  const [trip] = of("trip");
  assert.equal(trip.fuelUsed, 1); // 20 steps from where it stood to the last moving fix
  assert.equal(trip.harshAcceleration, 1);
  assert.equal(trip.harshBraking, 2);
  assert.equal(analyzer.today()!.fuelUsed, Math.round((points.length - 1) * 0.05 * 100) / 100);
  assert.equal(run(tr.points).of("trip")[0].fuelUsed, null);
});

Deno.test("state() round trip mid-trip continues identically", () => {
  const tr = new Track(at("2026-03-02T22:40:00Z"));
  tr.acc = false;
  tr.here().stay(300);
  tr.acc = true;
  tr.stay(120).drive(5400, 45).stay(200);
  tr.acc = false;
  tr.stay(900);
  const whole = run(tr.points, { limit: 44 });
  for (const cut of [20, 75, 130, 195]) {
    const first = run(tr.points.slice(0, cut), { limit: 44 });
    const saved = JSON.parse(JSON.stringify(first.analyzer.state()));
    const resumed = new MotionAnalyzer(IMEI, DEFAULT_MOTION_RULES, 44, saved);
    for (const p of tr.points.slice(cut)) resumed.push(p, first.out);
    assert.deepEqual(first.out, whole.out, `cut at ${cut}`);
    assert.deepEqual(resumed.today(), whole.analyzer.today());
    assert.deepEqual(resumed.open(0), whole.analyzer.open(0));
    assert.deepEqual(resumed.state(), whole.analyzer.state());
  }
  assert.ok(whole.of("trip").length === 1 && whole.of("overspeed").length === 1);
  assert.equal(whole.out.days.length, 1);
});

Deno.test("a point older than the latest is counted as late and changes nothing", () => {
  const tr = new Track(at("2026-03-02T09:00:00Z"));
  tr.here().drive(600, 60).stay(300);
  const base = run(tr.points);
  const { analyzer, out } = run(tr.points.slice(0, 15));
  analyzer.push({ ...tr.points[3], lat: 0.1 }, out);
  analyzer.push(point(tr.points[0].time - 86_400_000, 1, 1, 99), out);
  for (const p of tr.points.slice(15)) analyzer.push(p, out);
  assert.equal(analyzer.late, 2);
  assert.equal(base.analyzer.late, 0);
  assert.deepEqual(out, base.out);
  assert.deepEqual(analyzer.today(), base.analyzer.today());
});
