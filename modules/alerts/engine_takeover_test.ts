/**
 * Cluster mode (issue 23): the alert engine's per-device state is kept in the store, so the
 * instance that takes a device over continues from it: no second enter alert for a device
 * already inside, one exit when it leaves, stay alerts not raised again.
 */
import assert from "node:assert/strict";
import { storedFix } from "../../tests/helpers/stored_fix.ts";
import { type TestApp, testApp } from "../../tests/helpers/harness.ts";
import { accountWithDevices, circleFence } from "../../tests/helpers/alerting.ts";
import type { StoredPosition } from "../devices/model.ts";
import type { AlertRaised } from "./events.ts";
import { AlertEngine } from "./engine.ts";
import { EngineStateStore } from "./store_engine_state.ts";

const LAT = 22.5431, LNG = 114.0579;
const T0 = Date.UTC(2026, 10, 20, 2, 0, 0);

/** An engine as another instance runs it: the app's stores, its own memory. */
function instanceEngine(app: TestApp, raised: AlertRaised[]): AlertEngine {
  const s = app.services;
  const engine = new AlertEngine({
    bus: {
      publish: (e) => void (e.type === "alert" && raised.push(e)),
      deliver: (e) => Promise.resolve(void (e.type === "alert" && raised.push(e))),
    },
    alerts: s.alerts,
    settings: s.alertSettings,
    geofences: s.geofences,
    directory: s.directory,
    state: new EngineStateStore(s.kv),
  });
  engine.start();
  return engine;
}

function at(time: number, lng: number, kmh = 30): StoredPosition {
  return storedFix({ time, lat: LAT, lng, speed: kmh, altitude: 0 });
}

async function feed(engine: AlertEngine, imei: string, userId: string, p: StoredPosition) {
  engine.handle({ type: "position", imei, userId, position: p });
  await engine.idle();
}

const types = (raised: AlertRaised[]) => raised.map((r) => r.alert.type);

Deno.test("alert engine take-over: the next instance continues a device's fence state", async () => {
  const app = await testApp();
  const IMEI = "359710049300001";
  try {
    const acc = await accountWithDevices(app, "takeover_a", [IMEI]);
    const fence = await app.call(
      "/v3/new/geofence/save",
      circleFence("Depot", LAT, LNG, 500),
      acc.token,
    );
    assert.equal(fence.json.code, 10000);
    const userId = app.services.directory.get(IMEI)!.userId;

    const first: AlertRaised[] = [];
    const one = instanceEngine(app, first);
    await feed(one, IMEI, userId, at(T0, LNG - 0.02)); // ~2 km west
    await feed(one, IMEI, userId, at(T0 + 60_000, LNG - 0.001)); // inside
    assert.deepEqual(types(first), ["geofenceEnter"]);

    // Instance 1 is gone (nothing more written); the device's next fixes reach instance 2.
    const second: AlertRaised[] = [];
    const two = instanceEngine(app, second);
    await feed(two, IMEI, userId, at(T0 + 120_000, LNG + 0.001)); // still inside
    assert.deepEqual(types(second), [], "no second enter alert");
    await feed(two, IMEI, userId, at(T0 + 180_000, LNG + 0.02)); // out east
    assert.deepEqual(types(second), ["geofenceExit"]);

    // The device reconnects to instance 1, whose memory still has it inside: the state is
    // read again, so no second exit.
    one.handle({ type: "connection", imei: IMEI, userId, connected: true });
    await feed(one, IMEI, userId, at(T0 + 240_000, LNG + 0.021));
    assert.deepEqual(types(first), ["geofenceEnter"], "no second exit alert");
    await one.saveStates();

    // A crossing in the first fix a new instance sees is still one (memory alone would only
    // learn where the device is and miss it).
    const third: AlertRaised[] = [];
    const three = instanceEngine(app, third);
    await feed(three, IMEI, userId, at(T0 + 300_000, LNG)); // inside
    assert.deepEqual(types(third), ["geofenceEnter"]);

    // Each alert stored once.
    const stored = await app.call("/v3/new/alarm/list", {
      imeis: [IMEI],
      startTime: new Date(T0 - 86_400_000).toISOString(),
      endTime: new Date(T0 + 86_400_000).toISOString(),
      pageSize: 100,
    }, acc.token);
    const list = stored.json.data.list as { type: string }[];
    assert.deepEqual(list.map((x) => x.type).sort(), [
      "geofenceEnter",
      "geofenceEnter",
      "geofenceExit",
    ]);
    for (const engine of [one, two, three]) await engine.close();
  } finally {
    await app.close();
  }
});

Deno.test("alert engine take-over: events arriving while the state is read keep their order", async () => {
  const app = await testApp();
  const IMEI = "359710049300002";
  try {
    const acc = await accountWithDevices(app, "takeover_b", [IMEI]);
    await app.call("/v3/new/geofence/save", circleFence("Yard", LAT, LNG, 500), acc.token);
    const userId = app.services.directory.get(IMEI)!.userId;
    const raised: AlertRaised[] = [];
    const engine = instanceEngine(app, raised);
    // Three fixes handed over in one tick, before the (empty) stored state is read.
    for (const p of [at(T0, LNG - 0.02), at(T0 + 1000, LNG), at(T0 + 2000, LNG + 0.02)]) {
      engine.handle({ type: "position", imei: IMEI, userId, position: p });
    }
    await engine.idle();
    assert.deepEqual(types(raised), ["geofenceEnter", "geofenceExit"]);

    // State written without an alert (the write-behind) is what a later instance reads.
    await feed(engine, IMEI, userId, at(T0 + 3000, LNG)); // inside again: enter
    await feed(engine, IMEI, userId, at(T0 + 4000, LNG + 0.0001)); // no alert, state only
    await engine.saveStates();
    const later: AlertRaised[] = [];
    const next = instanceEngine(app, later);
    await feed(next, IMEI, userId, at(T0 + 5000, LNG)); // still inside
    assert.deepEqual(types(later), []);
    await feed(next, IMEI, userId, at(T0 + 6000, LNG + 0.02)); // out: exit, on `next`
    assert.deepEqual(types(later), ["geofenceExit"]);

    // The first engine still remembers the device inside; a status change (the leader's sweep)
    // makes it read the device's state again, so a later fix outside raises no second exit.
    engine.handle({ type: "status", imei: IMEI, userId, status: "offline", previous: "moving" });
    await feed(engine, IMEI, userId, at(T0 + 7000, LNG + 0.021));
    assert.deepEqual(types(raised), ["geofenceEnter", "geofenceExit", "geofenceEnter"]);
    for (const e of [engine, next]) await e.close();
  } finally {
    await app.close();
  }
});
