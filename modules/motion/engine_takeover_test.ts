/**
 * Cluster mode (issue 23): two motion engines on one store, as two instances run them. A device
 * whose trip started on one instance reconnects (through the balancer) to the other, which
 * loaded its checkpoints before the trip: it reads the device's checkpoint again and replays the
 * positions stored after it, so the trip continues (one trip, not two overlapping ones) and the
 * day summary has both parts.
 */
import { directoryDevices } from "./directory_devices.ts";
import assert from "node:assert/strict";
import { testApp } from "../../tests/helpers/harness.ts";
import { accountWithDevices } from "../../tests/helpers/alerting.ts";
import type { Services } from "../../app/compose.ts";
import { feed, Track } from "./test_tracks.ts";
import { MotionEngine } from "./engine.ts";
import { MotionStore } from "./store.ts";
import { RulesBook } from "./rules.ts";
import { dayOf } from "./days.ts";

/** An instance's engine in cluster mode: its own memory, the shared store, loaded at start. */
async function instanceEngine(s: Services): Promise<MotionEngine> {
  const motionStore = new MotionStore(s.kv);
  const book = new RulesBook();
  await book.load(motionStore);
  const engine = new MotionEngine(
    motionStore,
    book,
    directoryDevices(s.directory),
    s.positions,
    true,
  );
  await engine.load();
  return engine;
}

/** Park 5 min, drive 20 min at 60 km/h, park 10 min, drive 10 min, park 10 min: 30 km. */
function driveParkDrive(start: number): Track {
  return new Track(start, 22.5, 114).here().stay(300).drive(1200, 60).stay(600).drive(600, 60)
    .stay(600);
}

const near = (a: number, b: number, tol: number, what: string) =>
  assert.ok(Math.abs(a - b) <= tol, `${what}: ${a} not within ${tol} of ${b}`);

for (const leaving of ["closes its connection", "crashes"] as const) {
  Deno.test(`motion take-over: a trip started on one instance continues on the next (the first ${leaving})`, async () => {
    const app = await testApp({ MOTION_ANALYSIS: "off" });
    const imei = leaving === "crashes" ? "359710049300012" : "359710049300011";
    try {
      await accountWithDevices(app, `motion_to_${imei.slice(-2)}`, [imei]);
      const s = app.services;
      const userId = s.directory.get(imei)!.userId;
      // Both instances started (and loaded their checkpoints) before the device moved.
      const one = await instanceEngine(s);
      const two = await instanceEngine(s);
      // Live: the track ends a minute ago (a flush an hour after a device's last point closes
      // its analysis for the gap).
      const T0 = Math.floor(Date.now() / 1000) * 1000 - 3360_000;
      const points = driveParkDrive(T0).points;
      // Instance 1: the parking and the first 10 minutes of the first drive.
      const split = points.findIndex((p) => p.time >= T0 + 1100_000);
      const early = points.findIndex((p) => p.time >= T0 + 700_000);
      one.onConnection({ type: "connection", imei, userId, connected: true });
      for (const part of [points.slice(0, early), points.slice(early, split)]) {
        await feed(s, imei, part);
        one.onCommitted({ type: "positionsCommitted", imei, userId, points: part });
        // A checkpoint early in the trip (the ~60 s share), then only memory.
        if (part[0].time === T0) await one.flush(true);
      }
      if (leaving === "crashes") one.abandon();
      else {
        one.onConnection({ type: "connection", imei, userId, connected: false });
        await one.flush();
      }
      assert.equal(two.has(imei), undefined, "instance 2 had not seen the device");

      // The device reconnects through the balancer to instance 2 with the rest of the track.
      two.onConnection({ type: "connection", imei, userId, connected: true });
      const rest = points.slice(split);
      await feed(s, imei, rest);
      two.onCommitted({ type: "positionsCommitted", imei, userId, points: rest });
      await two.settled();
      await two.flush();

      // The running day (UTC days: two when the track crosses midnight) has both parts.
      const days = two.runningDays(imei);
      near(days.reduce((km, d) => km + d.distance, 0), 30, 1, "the day's km (both instances)");
      if (days.length === 1) assert.equal(days[0].trips, 2);
      await two.close();
      if (leaving !== "crashes") await one.close();

      const trips = await new MotionStore(s.kv).segments(
        imei,
        "trip",
        dayOf(T0),
        dayOf(Date.now()),
      );
      assert.equal(
        trips.length,
        2,
        `one trip per drive, not overlapping: ${JSON.stringify(trips)}`,
      );
      near(trips[0].start, T0 + 300_000, 60_000, "first trip starts on instance 1");
      near(trips[0].distance, 20, 0.5, "first trip km (both instances' parts)");
      near(trips[1].distance, 10, 0.5, "second trip km");
      assert.ok(trips[0].end <= trips[1].start);
    } finally {
      await app.close();
    }
  });
}
