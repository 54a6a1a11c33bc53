/**
 * The motion engine on a real KV file, fed through the real ingest path (the gateway's group
 * commit, then the position pipeline): segments and day summaries written within the flush
 * interval, late uploads recomputing only their day, restart from checkpoints, rules changes,
 * fence visits and online/offline intervals.
 */
import assert from "node:assert/strict";
import { testApp } from "../../tests/helpers/harness.ts";
import { accountWithDevices, circleFence } from "../../tests/helpers/alerting.ts";
import { compose } from "../../app/compose.ts";
import { loadConfig } from "../../lib/config.ts";
import { feed, Track } from "./test_tracks.ts";
import { FLUSH_MS } from "./engine.ts";
import { MotionStore } from "./store.ts";
import { addDays, dayOf, dayStart } from "./days.ts";
import { openTestKv } from "../../tests/helpers/test_kv.ts";

/** A UTC day well in the past (the analysis does not care about the wall clock). */
const D = addDays(dayOf(Date.now()), -5);
const T0 = dayStart(D) + 6 * 3_600_000; // 06:00 UTC

/** Park 10 min, drive 20 min at 60 km/h, park 15 min, drive 10 min, park 15 min: 30 km. */
function driveParkDrive(start: number, lat = 22.5): Track {
  return new Track(start, lat, 114).here().stay(600).drive(1200, 60).stay(900).drive(600, 60)
    .stay(900);
}

const near = (a: number, b: number, tol: number, what: string) =>
  assert.ok(Math.abs(a - b) <= tol, `${what}: ${a} not within ${tol} of ${b}`);

Deno.test("motion engine: trips and the day written within the flush interval; a late upload recomputes only its day", async () => {
  const app = await testApp();
  const [imei] = ["359710049300001"];
  try {
    await accountWithDevices(app, "motion_a", [imei]);
    const s = app.services;
    const store = new MotionStore(s.kv);
    await feed(s, imei, driveParkDrive(T0).points);
    // Nothing is written per position: the trips land with the next flush.
    const fed = Date.now();
    let trips = await store.segments(imei, "trip", D, D);
    while (trips.length < 2 && Date.now() - fed < FLUSH_MS + 2000) {
      await new Promise((r) => setTimeout(r, 200));
      trips = await store.segments(imei, "trip", D, D);
    }
    assert.equal(trips.length, 2, "both trips stored within the flush interval");
    near(trips[0].distance, 20, 0.5, "first trip km");
    near(trips[1].distance, 10, 0.5, "second trip km");
    assert.ok(Date.now() - fed <= FLUSH_MS + 2000);
    // The running day comes from memory, at once.
    const today = await s.motion.reader.days(imei, dayStart(D), dayStart(D) + 86_399_999);
    assert.equal(today.length, 1);
    near(today[0].distance, 30, 0.6, "day km");
    assert.equal(today[0].trips, 2);

    // The next day: D becomes final and is stored in its month record.
    const next = driveParkDrive(T0 + 86_400_000, 23).points;
    await feed(s, imei, next);
    await s.motion.idle();
    const stored = await store.months(imei, [D.slice(0, 7), addDays(D, 1).slice(0, 7)]);
    const dayD = stored.find((d) => d.date === D);
    assert.ok(dayD, "day D final and stored");
    near(dayD.distance, 30, 0.6, "stored day km");
    const nextTripsBefore = await store.segments(imei, "trip", addDays(D, 1), addDays(D, 1));

    // A late upload into D (an early drive at 02:00): only D is recomputed.
    const early = new Track(dayStart(D) + 2 * 3_600_000, 22.0, 114).here().stay(300)
      .drive(600, 60).stay(600).points;
    const recomputed = s.motion.recompute!.stats.days;
    await feed(s, imei, early);
    assert.ok(s.motion.engine!.stats.late >= early.length);
    await s.motion.idle();
    assert.equal(s.motion.recompute!.stats.days - recomputed, 1, "one day recomputed");
    assert.equal(s.motion.recompute!.stats.rebuilds, 0);
    const after = await store.months(imei, [D.slice(0, 7)]);
    const dayAfter = after.find((d) => d.date === D)!;
    near(dayAfter.distance, 40, 0.8, "day km with the late drive");
    assert.equal(dayAfter.trips, 3);
    const tripsAfter = await s.motion.reader.segments(
      "trip",
      imei,
      dayStart(D),
      dayStart(D) + 86_399_999,
    );
    assert.equal(tripsAfter.length, 3);
    near(tripsAfter[0].distance, 10, 0.5, "late trip km");
    assert.deepEqual(
      await store.segments(imei, "trip", addDays(D, 1), addDays(D, 1)),
      nextTripsBefore,
      "the next day untouched",
    );
  } finally {
    await app.close();
  }
});

Deno.test("motion engine: late points into the day under way rebuild it and the live analysis continues", async () => {
  const app = await testApp();
  const imei = "359710049300005";
  try {
    await accountWithDevices(app, "motion_e", [imei]);
    const s = app.services;
    const track = driveParkDrive(T0).points;
    // Up to the middle of the second park: one trip closed, the device stopped.
    const cut = track.findIndex((p) => p.time > T0 + (600 + 1200 + 300) * 1000);
    await feed(s, imei, track.slice(0, cut));
    // A buffer from earlier the same day: a 10 km drive at 02:00.
    const early = new Track(dayStart(D) + 2 * 3_600_000, 22.0, 114).here().stay(300)
      .drive(600, 60).stay(600).points;
    await feed(s, imei, early);
    await s.motion.idle();
    assert.equal(s.motion.recompute!.stats.rebuilds, 1, "the live day rebuilt");
    await feed(s, imei, track.slice(cut));
    await s.motion.idle();
    const range = [dayStart(D), dayStart(D) + 86_399_999] as const;
    const trips = await s.motion.reader.segments("trip", imei, ...range);
    assert.deepEqual(trips.map((t) => Math.round(t.distance)), [10, 20, 10]);
    const [day] = await s.motion.reader.days(imei, ...range);
    near(day.distance, 40, 0.8, "day km");
    assert.equal(day.trips, 3);
  } finally {
    await app.close();
  }
});

Deno.test("motion engine: a rules change recomputes the account's last days, with progress", async () => {
  const app = await testApp();
  const imei = "359710049300002";
  try {
    const a = await accountWithDevices(app, "motion_b", [imei]);
    const s = app.services;
    // Driving at 60 km/h: no overspeed under the default 100 km/h.
    await feed(s, imei, driveParkDrive(T0).points);
    await s.motion.idle();
    const range = [dayStart(D), dayStart(D) + 86_399_999] as const;
    assert.equal((await s.motion.reader.segments("overspeed", imei, ...range)).length, 0);

    const bad = await app.call("/v3/new/report/motionRules/set", {
      rules: { overspeedKmh: 5000 },
    }, a.token);
    assert.notEqual(bad.json.code, 10000, "out of range refused");
    const unknown = await app.call("/v3/new/report/motionRules/set", {
      rules: { speed: 50 },
    }, a.token);
    assert.notEqual(unknown.json.code, 10000, "unknown field refused");

    const set = await app.call("/v3/new/report/motionRules/set", {
      rules: { overspeedKmh: 50 },
    }, a.token);
    assert.equal(set.json.code, 10000, JSON.stringify(set.json));
    assert.equal(set.json.data.rules.overspeedKmh, 50);
    assert.equal(set.json.data.rules.tripStartMeters, 200, "other thresholds kept");
    await s.motion.idle();
    const got = await app.call("/v3/new/report/motionRules/get", {}, a.token);
    assert.equal(got.json.data.recomputing, null, "recompute finished");
    assert.equal(got.json.data.rules.overspeedKmh, 50);
    const streaks = await s.motion.reader.segments("overspeed", imei, ...range);
    assert.equal(streaks.length, 2, "both drives are overspeed streaks at 50 km/h");
    assert.equal(streaks[0].limit, 50);

    // Another account's rules are out of reach.
    const other = await accountWithDevices(app, "motion_c", []);
    const foreign = await app.call("/v3/new/report/motionRules/get", { userId: a.id }, other.token);
    assert.notEqual(foreign.json.code, 10000);
  } finally {
    await app.close();
  }
});

Deno.test("motion engine: fence visits from crossings, offline intervals from status events", async () => {
  const app = await testApp();
  const imei = "359710049300003";
  try {
    const a = await accountWithDevices(app, "motion_d", [imei]);
    const s = app.services;
    // A fence 5 km up the road the track drives through (north along lng 114).
    const fence = await app.call(
      "/v3/new/geofence/save",
      circleFence("Depot", 22.545, 114, 500),
      a.token,
    );
    assert.equal(fence.json.code, 10000, JSON.stringify(fence.json));
    await feed(s, imei, driveParkDrive(T0).points);
    await s.alertEngine.idle();
    const visits = await s.motion.reader.segments(
      "fence",
      imei,
      dayStart(D),
      dayStart(D) + 86_399_999,
    );
    assert.equal(visits.length, 1, JSON.stringify(visits));
    assert.equal(visits[0].fenceName, "Depot");
    // 1 km across the fence at 60 km/h: about a minute inside.
    near((visits[0].end - visits[0].start) / 1000, 60, 60, "visit seconds");

    // Offline as the status sweep announces it, back online as the gateway's login does.
    const userId = a.id;
    s.bus.publish({ type: "status", imei, userId, status: "offline", previous: "stopped" });
    await new Promise((r) => setTimeout(r, 20));
    s.bus.publish({ type: "connection", imei, userId, connected: true });
    await s.motion.idle();
    const now = Date.now();
    const offline = (await s.motion.reader.segments("connectivity", imei, now - 86_400_000, now))
      .filter((c) => !c.online && !("open" in c));
    assert.equal(offline.length, 1, "one closed offline interval");
    assert.ok(offline[0].end >= offline[0].start);
    const open = (await s.motion.reader.segments("connectivity", imei, now - 60_000, now))
      .filter((c) => "open" in c);
    assert.equal(open.length, 1);
    assert.equal(open[0].online, true, "online again, still open");
  } finally {
    await app.close();
  }
});

Deno.test("motion engine: a restart continues from the checkpoint and replays later commits", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tp-motion-" });
  const config = loadConfig({ DATA_DIR: dir, CAPTCHA: "off", ADMIN_PASSWORD: "Admin12345" });
  const imei = "359710049300004";
  const track = driveParkDrive(T0).points;
  // Cut in the middle of the second drive's park (after the first trip closed).
  const cut = track.findIndex((p) => p.time > T0 + (600 + 1200 + 300) * 1000);
  try {
    let kv = await openTestKv(`${dir}/tracking.kv`);
    let s = await compose(kv, config);
    const { ensureAdministrator } = await import("../accounts/bootstrap.ts");
    await ensureAdministrator(s.accountStore, config.ADMIN_PASSWORD);
    // The device, as the import API makes it.
    const { createApp } = await import("../../app/app.ts");
    const http = createApp(s);
    const login = await http.request("/v3/new/account/login", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ account: "admin", password: config.ADMIN_PASSWORD }),
    });
    const token = (await login.json()).data.token;
    const adminId = (await s.accountStore.findIdByLogin("admin"))!;
    const imported = await http.request("/v3/new/newEquipment/importEquipment", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ userId: adminId, mcType: "GT06N", imeis: [imei] }),
    });
    assert.equal((await imported.json()).code, 10000);

    await feed(s, imei, track.slice(0, cut));
    await s.motion.engine!.flush(true); // checkpoint
    await feed(s, imei, track.slice(cut, cut + 10)); // committed, not checkpointed
    // Crash: the engine's pending writes are lost; the gateway's commits are not.
    s.motion.engine!.abandon();
    await s.ingestor.close();
    kv.close();

    kv = await openTestKv(`${dir}/tracking.kv`);
    s = await compose(kv, config);
    assert.equal(s.motion.engine!.stats.replayed, 10, "the commits after the checkpoint replayed");
    await feed(s, imei, track.slice(cut + 10));
    await s.motion.idle();
    const trips = await s.motion.reader.segments(
      "trip",
      imei,
      dayStart(D),
      dayStart(D) + 86_399_999,
    );
    assert.equal(trips.length, 2, JSON.stringify(trips));
    near(trips[0].distance, 20, 0.5, "first trip km");
    near(trips[1].distance, 10, 0.5, "second trip km (across the restart)");
    const day = await s.motion.reader.days(imei, dayStart(D), dayStart(D) + 86_399_999);
    near(day[0].distance, 30, 0.6, "day km");
    await s.ingestor.close();
    await s.motion.close();
    kv.close();
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});
