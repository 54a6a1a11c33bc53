import assert from "node:assert/strict";
import { CENTRES, distanceMetres, parseCentre } from "./routes.ts";
import { Vehicle, type VehicleEvent } from "./vehicle.ts";
import type { DeviceFix } from "./fix.ts";

const START = Date.UTC(2024, 4, 17, 8, 0, 0);

function drive(v: Vehicle, seconds: number, stepSeconds = 10) {
  const fixes: DeviceFix[] = [];
  const events: VehicleEvent[] = [];
  for (let t = stepSeconds; t <= seconds; t += stepSeconds) {
    const r = v.advance(START + t * 1000);
    fixes.push(r.fix);
    events.push(...r.events);
  }
  return { fixes, events };
}

Deno.test("vehicle: the same seed gives the same drive, another seed another one", () => {
  const a = drive(new Vehicle({ seed: 7, start: START }), 3600);
  const b = drive(new Vehicle({ seed: 7, start: START }), 3600);
  const c = drive(new Vehicle({ seed: 8, start: START }), 3600);
  assert.deepEqual(a, b);
  assert.notDeepEqual(a.fixes.map((f) => f.latitude), c.fixes.map((f) => f.latitude));
});

Deno.test("vehicle: realistic speeds, turns, stops with ignition off, idling with it on", () => {
  let parkedSeen = 0, idlingSeen = 0, moving = 0;
  const courses = new Set<number>();
  for (let seed = 1; seed <= 6; seed++) {
    const v = new Vehicle({ seed, start: START, meanDriveSeconds: 300 });
    let prev: DeviceFix | null = null;
    for (const f of drive(v, 3 * 3600, 5).fixes) {
      assert.ok(f.speedKmh >= 0 && f.speedKmh <= 90.01, `speed ${f.speedKmh}`);
      if (prev) {
        // Acceleration and braking stay physical (< 3 m/s² over 5 s).
        assert.ok(Math.abs(f.speedKmh - prev.speedKmh) / 3.6 / 5 < 3, "smooth speed");
        // Position jumps match the speed (never teleports).
        const d = distanceMetres(
          { lat: prev.latitude, lng: prev.longitude },
          { lat: f.latitude, lng: f.longitude },
        );
        assert.ok(d <= (90 / 3.6) * 5 + 1, `moved ${d} m in 5 s`);
      }
      if (!f.acc) {
        parkedSeen++;
        assert.equal(f.speedKmh, 0, "parked vehicles do not move");
      } else if (f.speedKmh === 0) idlingSeen++;
      else moving++;
      courses.add(Math.round(f.course / 30));
      prev = f;
    }
  }
  assert.ok(
    moving > 0 && parkedSeen > 0 && idlingSeen > 0,
    `${moving}/${parkedSeen}/${idlingSeen}`,
  );
  assert.ok(courses.size >= 6, "the course changes with the route");
});

Deno.test("vehicle: odometer grows by the distance driven; battery drains while parked", () => {
  const v = new Vehicle({ seed: 3, start: START, mode: "driving", meanDriveSeconds: 1e9 });
  const before = v.fix();
  const { fixes } = drive(v, 600, 1);
  let path = 0;
  let prev = before;
  for (const f of fixes) {
    path += distanceMetres(
      { lat: prev.latitude, lng: prev.longitude },
      { lat: f.latitude, lng: f.longitude },
    );
    prev = f;
  }
  const odometer = (fixes.at(-1)!.odometerKm - before.odometerKm) * 1000;
  assert.ok(odometer > 2000, `drove ${odometer} m in 10 min`);
  // Corners are cut by the straight line between fixes, never lengthened.
  assert.ok(path <= odometer + 5 && path > odometer * 0.95, `path ${path} vs odometer ${odometer}`);

  const parked = new Vehicle({ seed: 4, start: START, mode: "parked" });
  const b0 = parked.battery;
  parked.advance(START + 600_000);
  if (parked.mode === "parked") assert.ok(parked.battery < b0);
});

Deno.test("vehicle: alarms and connection drops happen at their rates, and can be disabled", () => {
  const noisy = new Vehicle({ seed: 5, start: START, alarmScale: 200, reconnectsPerHour: 20 });
  const { fixes, events } = drive(noisy, 3600);
  const kinds = new Set(
    events.filter((e) => e.type === "alarm").map((e) => (e as { alarm: string }).alarm),
  );
  assert.ok(kinds.has("sos") && kinds.has("powerCut"), [...kinds].join());
  assert.ok(fixes.some((f) => f.alarm !== undefined), "the fix carries the alarm");
  const drops = events.filter((e) => e.type === "disconnect");
  assert.ok(drops.length >= 5, `${drops.length} drops`);
  for (const d of drops) {
    assert.ok(d.type === "disconnect" && d.offlineSeconds >= 5 && d.offlineSeconds <= 60);
  }
  const quiet = drive(
    new Vehicle({ seed: 5, start: START, alarmScale: 0, reconnectsPerHour: 0 }),
    3600,
  );
  assert.ok(!quiet.events.some((e) => e.type === "alarm" || e.type === "disconnect"));
});

Deno.test("vehicle: routes are placed around the configured centre", () => {
  for (const centre of [CENTRES.shenzhen, CENTRES.berlin, parseCentre("48.8566,2.3522")]) {
    for (let seed = 0; seed < 8; seed++) {
      const f = new Vehicle({ seed, centre, start: START }).fix();
      const d = distanceMetres({ lat: centre.lat, lng: centre.lng }, {
        lat: f.latitude,
        lng: f.longitude,
      });
      assert.ok(d < 15_000, `${d} m from ${centre.name}`);
      assert.equal(f.mcc, centre.mcc);
    }
  }
  assert.throws(() => parseCentre("nowhere"));
});
