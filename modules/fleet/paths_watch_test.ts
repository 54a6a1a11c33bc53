import assert from "node:assert/strict";
import { localClock } from "./paths_clock.ts";
import { corridor, insideCorridor, legWithin } from "./paths_geometry.ts";
import type { PlannedRoute } from "./paths_model.ts";
import { CorridorWatch } from "./paths_watch.ts";
import { offsetPoint } from "./paths_test_support.ts";

const A = { lat: 22.5431, lng: 114.0579 };

function route(over: Partial<PlannedRoute> = {}): PlannedRoute {
  const points = [A, offsetPoint(A.lat, A.lng, 5000)];
  return {
    id: "r1",
    accountId: "1",
    name: "R",
    points,
    line: points,
    lineKind: "straight",
    lengthM: 5000,
    offset: 100,
    weekdays: [1, 2, 3, 4, 5, 6, 7],
    startTime: "00:00",
    endTime: "23:59",
    timeZone: "UTC",
    minOffMinutes: 2,
    imeis: ["1"],
    createdAt: "",
    updatedAt: "",
    ...over,
  };
}

Deno.test("local clock: zone offsets, weekdays", () => {
  // 2026-11-23 is a Monday; 23:30 UTC is Tuesday 07:30 in Shanghai.
  const t = Date.UTC(2026, 10, 23, 23, 30);
  assert.deepEqual(localClock("UTC", t), { minute: 23 * 60 + 30, weekday: 1 });
  assert.deepEqual(localClock("Asia/Shanghai", t), { minute: 7 * 60 + 30, weekday: 2 });
  assert.deepEqual(localClock("America/New_York", t), { minute: 18 * 60 + 30, weekday: 1 });
  assert.deepEqual(localClock("Not/AZone", t), localClock("UTC", t));
});

Deno.test("corridor: the leg grid answers like a scan of every leg", () => {
  // A zig-zag of 60 legs, ~1 km each.
  const line = Array.from(
    { length: 61 },
    (_, i) => offsetPoint(A.lat, A.lng, i * 800, (i % 2) * 600),
  );
  const c = corridor(line, 120);
  const flat = corridor(line.slice(0, 2), 120);
  assert.ok(c.grid && !flat.grid);
  let inside = 0;
  for (let k = 0; k < 4000; k++) {
    const p = offsetPoint(A.lat, A.lng, Math.random() * 50_000 - 1000, Math.random() * 2000 - 700);
    let brute = false;
    for (let i = 0; i + 1 < line.length && !brute; i++) {
      brute = insideCorridor(corridor([line[i], line[i + 1]], 120), p.lat, p.lng);
    }
    assert.equal(insideCorridor(c, p.lat, p.lng), brute, JSON.stringify(p));
    // A stale hint (the leg last found) never changes the answer, only where the search starts.
    const hint = Math.floor(Math.random() * 70) - 5;
    assert.equal(legWithin(c, p.lat, p.lng, hint) >= 0, brute, `hint ${hint}`);
    if (brute) inside++;
  }
  assert.ok(inside > 100, `${inside} points inside`);
  // Exactly at the offset's edge, either side, of a straight 5 km leg east.
  const east = corridor([A, offsetPoint(A.lat, A.lng, 5000)], 100);
  assert.ok(insideCorridor(east, ...ll(offsetPoint(A.lat, A.lng, 2000, 99))));
  assert.ok(!insideCorridor(east, ...ll(offsetPoint(A.lat, A.lng, 2000, 101))));
  assert.ok(!insideCorridor(east, ...ll(offsetPoint(A.lat, A.lng, -101, 0))));
});

const ll = (p: { lat: number; lng: number }): [number, number] => [p.lat, p.lng];

Deno.test("corridor watch: minimum time off, return, windows, weekdays, rebinding", () => {
  const w = new CorridorWatch();
  // Monday 2026-11-23, 08:00 UTC.
  const t0 = Date.UTC(2026, 10, 23, 8, 0);
  w.set(route({ startTime: "07:00", endTime: "09:00", weekdays: [1] }));
  const on = offsetPoint(A.lat, A.lng, 1000, 20);
  const off = offsetPoint(A.lat, A.lng, 1000, 500);
  const at = (p: { lat: number; lng: number }, t: number) => w.observe("1", p.lat, p.lng, t);
  assert.equal(w.observe("2", on.lat, on.lng, t0), null, "no route bound to device 2");
  assert.equal(at(on, t0), null);
  assert.equal(at(off, t0 + 60_000), null);
  assert.equal(at(off, t0 + 120_000), null, "off 1 min < 2 min");
  const dev = at(off, t0 + 180_000)!;
  assert.equal(dev[0].type, "routeDeviation");
  assert.equal(dev[0].detail.minutes, 2);
  assert.equal(at(off, t0 + 240_000), null, "raised once per episode");
  assert.equal(at(on, t0 + 300_000)![0].type, "routeReturn");
  // Off outside the window (10:00) or on Tuesday: nothing.
  assert.equal(at(off, t0 + 2 * 3_600_000), null);
  assert.equal(at(off, t0 + 2 * 3_600_000 + 600_000), null);
  assert.equal(at(off, t0 + 86_400_000), null);
  assert.equal(at(off, t0 + 86_400_000 + 600_000), null);
  // An overnight window 22:00-06:00 in Shanghai covers 23:00 UTC Monday (07:00 Tue local: no).
  w.set(
    route({ startTime: "22:00", endTime: "06:00", timeZone: "Asia/Shanghai", minOffMinutes: 1 }),
  );
  const night = Date.UTC(2026, 10, 23, 15, 0); // 23:00 in Shanghai
  assert.equal(at(off, night), null);
  assert.equal(at(off, night + 60_000)![0].type, "routeDeviation");
  // Unbinding forgets the device.
  w.set(route({ imeis: [] }));
  assert.equal(at(off, night + 120_000), null);
  w.remove("r1");
  assert.equal(at(off, night + 180_000), null);
});
