import assert from "node:assert/strict";
import { type TestApp, testApp } from "../../tests/helpers/harness.ts";
import {
  accountWithDevices,
  circleFence,
  PASSWORD,
  squarePolygon,
} from "../../tests/helpers/alerting.ts";
import type { AlarmType, Position } from "../gateway/protocols/types.ts";
import { KNOT_IN_KMH } from "../gateway/ingest/convert.ts";
import type { PushedAlert } from "./delivery.ts";

const LAT = 22.5431, LNG = 114.0579;
const T0 = Date.UTC(2026, 10, 20, 2, 0, 0); // 02:00 UTC

/** Feeds one fix through the real ingest pipeline (group commit, then the bus). */
async function fix(
  app: TestApp,
  imei: string,
  p: {
    at: number;
    lat?: number;
    lng?: number;
    kmh?: number;
    alarm?: AlarmType;
    attrs?: Record<string, number>;
    acc?: boolean;
    mileage?: number;
  },
) {
  const device = app.services.directory.get(imei)!;
  const position: Position = {
    time: new Date(p.at),
    valid: true,
    latitude: p.lat ?? LAT,
    longitude: p.lng ?? LNG,
    altitude: 0,
    speed: (p.kmh ?? 0) / KNOT_IN_KMH,
    course: 90,
    posType: 1,
    alarm: p.alarm,
    acc: p.acc,
    mileage: p.mileage,
    attributes: p.attrs ?? {},
  };
  await app.services.ingestor.submit(device, [{ type: "position", position }]);
  await app.services.alertEngine.idle();
  await app.services.alertDelivery.idle();
}

async function alertsOf(app: TestApp, token: string, imei: string, type?: string) {
  const r = await app.call("/v3/new/alarm/list", {
    imeis: [imei],
    startTime: new Date(T0 - 86_400_000).toISOString(),
    endTime: new Date(T0 + 30 * 86_400_000).toISOString(),
    pageSize: 100,
    ...(type ? { types: [type] } : {}),
  }, token);
  assert.equal(r.json.code, 10000, JSON.stringify(r.json));
  return r.json.data.list as (PushedAlert & { mapUrl: string })[];
}

Deno.test("alert engine: fences, thresholds, offline and device alarms, each once; push limits", async (t) => {
  const app = await testApp();
  const popups: PushedAlert[] = [];
  app.services.alertDelivery.onPopup((a) => popups.push(a));
  const imeis = ["359710049200001", "359710049200002", "359710049200003", "359710049200004"];
  const [FENCE, SPEED, ALARM, MISC] = imeis;
  try {
    const a = await accountWithDevices(app, "engine_a", imeis);
    // Silence 0 so the push limit itself is visible; the silence step sets it back.
    const settings = (await app.call("/v3/new/alarm/settings/get", {}, a.token)).json.data;
    assert.equal(settings.silenceMinutes, 30);
    const save = await app.call("/v3/new/alarm/settings/save", {
      ...settings,
      userId: undefined,
      silenceMinutes: 0,
    }, a.token);
    assert.equal(save.json.code, 10000, JSON.stringify(save.json));

    await t.step("entering and leaving a circle fence alerts once each", async () => {
      const fence = await app.call(
        "/v3/new/geofence/save",
        circleFence("Depot", LAT, LNG, 500),
        a.token,
      );
      assert.equal(fence.json.code, 10000);
      await fix(app, FENCE, { at: T0, lng: LNG - 0.02 }); // ~2 km west
      await fix(app, FENCE, { at: T0 + 60_000, lng: LNG - 0.001 }); // inside
      await fix(app, FENCE, { at: T0 + 120_000, lng: LNG + 0.001 }); // still inside
      await fix(app, FENCE, { at: T0 + 180_000, lng: LNG + 0.02 }); // out east
      const list = await alertsOf(app, a.token, FENCE);
      assert.deepEqual(list.map((x) => x.type).sort(), ["geofenceEnter", "geofenceExit"]);
      assert.ok(list.every((x) => x.fenceName === "Depot" && x.read === -1));
      // "Show on map" carries where the alarm happened, not only the vehicle.
      const url = new URL(list[0].mapUrl, "http://x");
      assert.equal(url.pathname, "/monitorObject");
      assert.equal(url.searchParams.get("imei"), FENCE);
      assert.equal(Number(url.searchParams.get("alarmLat")), list[0].lat);
      assert.equal(Number(url.searchParams.get("alarmLng")), list[0].lng);
      assert.equal(Number(url.searchParams.get("alarmTime")), list[0].time);
      assert.equal(url.searchParams.get("alarmType"), list[0].type);
    });

    await t.step("two sparse fixes straddling a polygon fence report enter and exit", async () => {
      const poly = await app.call("/v3/new/geofence/save", {
        kind: "fence",
        name: "Yard",
        shape: { kind: "polygon", points: squarePolygon(LAT + 0.1, LNG, 400) },
        enterAlert: true,
        exitAlert: true,
        imeis: [FENCE],
      }, a.token);
      assert.equal(poly.json.code, 10000, JSON.stringify(poly.json));
      await fix(app, FENCE, { at: T0 + 240_000, lat: LAT + 0.1, lng: LNG - 0.02 });
      await fix(app, FENCE, { at: T0 + 300_000, lat: LAT + 0.1, lng: LNG + 0.02 });
      const yard = (await alertsOf(app, a.token, FENCE)).filter((x) => x.fenceName === "Yard");
      assert.deepEqual(yard.map((x) => x.type).sort(), ["geofenceEnter", "geofenceExit"]);
    });

    await t.step(
      "a passed black-car address alerts on entry; a fence command is queued",
      async () => {
        const LAT2 = LAT + 0.3;
        const addr = await app.call("/v3/new/geofence/save", {
          kind: "blackCar",
          name: "Chop shop",
          shape: { kind: "circle", center: { lat: LAT2, lng: LNG }, radius: 300 },
        }, a.token);
        await app.call(
          "/v3/new/geofence/review",
          { id: addr.json.data.id, review: "passed" },
          a.admin,
        );
        const gate = await app.call("/v3/new/geofence/save", {
          ...circleFence("Gate", LAT2 + 0.05, LNG, 300),
          command: "RELAY,1#",
          // Engine cut is a protected instruction: confirmed with the login password.
          password: PASSWORD,
          imeis: [FENCE],
        }, a.token);
        assert.equal(gate.json.code, 10000, JSON.stringify(gate.json));
        await fix(app, FENCE, { at: T0 + 400_000, lat: LAT2, lng: LNG - 0.02 });
        await fix(app, FENCE, { at: T0 + 460_000, lat: LAT2, lng: LNG });
        await fix(app, FENCE, { at: T0 + 520_000, lat: LAT2 + 0.05, lng: LNG });
        const black = await alertsOf(app, a.token, FENCE, "blackCarAddress");
        assert.equal(black.length, 1);
        assert.equal(black[0].fenceName, "Chop shop");
        await new Promise((r) => setTimeout(r, 100));
        const cmds = await app.call("/v3/new/command/list", { imei: FENCE }, a.token);
        assert.ok(
          cmds.json.data.list.some((c: { content: string }) => c.content === "RELAY,1#"),
          JSON.stringify(cmds.json),
        );
      },
    );

    await t.step("overspeed needs the duration; once per episode", async () => {
      const bad = await app.call("/v3/new/alarm/device/save", {
        imei: SPEED,
        overSpeed: 80,
        overSecond: 25,
      }, a.token);
      assert.equal(bad.json.code, 49004);
      assert.equal(bad.json.data.field, "overSecond");
      const half = await app.call(
        "/v3/new/alarm/device/save",
        { imei: SPEED, overSpeed: 80 },
        a.token,
      );
      assert.equal(half.json.data.field, "overSecond");
      const ok = await app.call("/v3/new/alarm/device/save", {
        imei: SPEED,
        overSpeed: 80,
        overSecond: 30,
        stayMinutes: 1,
      }, a.token);
      assert.equal(ok.json.code, 10000, JSON.stringify(ok.json));
      const base = T0 + 3_600_000;
      for (
        const [s, kmh] of [
          [0, 90],
          [10, 95],
          [20, 92],
          [29, 90],
          [30, 91],
          [40, 99],
          [50, 60],
          [60, 90],
          [80, 90],
          [90, 90],
        ]
      ) {
        await fix(app, SPEED, { at: base + s * 1000, kmh, lng: LNG + s / 10_000 });
      }
      const list = await alertsOf(app, a.token, SPEED, "overspeed");
      assert.equal(list.length, 2);
      assert.deepEqual(list.map((x) => x.time).sort(), [base + 30_000, base + 90_000]);
      assert.equal(list[0].detail?.limit, 80);
    });

    await t.step("stay after a minute without moving, once per stop", async () => {
      const base = T0 + 7_200_000;
      for (const s of [0, 30, 59, 60, 90, 120]) {
        await fix(app, SPEED, { at: base + s * 1000, kmh: 0 });
      }
      assert.equal((await alertsOf(app, a.token, SPEED, "stay")).length, 1);
    });

    await t.step(
      "temperature band, mileage, maintenance, ACC-on hours and night driving",
      async () => {
        const bad = await app.call("/v3/new/alarm/device/save", {
          imei: MISC,
          minTemperature: 30,
          maxTemperature: 20,
        }, a.token);
        assert.equal(bad.json.data.field, "maxTemperature");
        const cold = await app.call("/v3/new/alarm/device/save", {
          imei: MISC,
          minTemperature: -41,
        }, a.token);
        assert.equal(cold.json.data.field, "minTemperature");
        const midnight = await app.call("/v3/new/alarm/device/save", {
          imei: MISC,
          nightRanges: [{ start: "22:00", end: "02:00" }],
        }, a.token);
        assert.equal(midnight.json.data.field, "nightRanges.0.end");
        const noBase = await app.call("/v3/new/alarm/device/save", {
          imei: MISC,
          mileageThreshold: 1000,
        }, a.token);
        assert.equal(noBase.json.data.field, "currentMileage");
        const lowAcc = await app.call("/v3/new/alarm/device/save", {
          imei: MISC,
          accOnHours: 49,
          currentAccOnHours: 0,
        }, a.token);
        assert.equal(lowAcc.json.data.field, "accOnHours");
        const ok = await app.call("/v3/new/alarm/device/save", {
          imei: MISC,
          minTemperature: -10,
          maxTemperature: 60,
          mileageThreshold: 1000,
          maintenanceThreshold: 100,
          currentMileage: 5000,
          accOnHours: 50,
          currentAccOnHours: 49.95,
          nightRanges: [{ start: "01:00", end: "05:00" }],
        }, a.token);
        assert.equal(ok.json.code, 10000, JSON.stringify(ok.json));
        const base = T0; // 02:00 UTC: inside the night range
        const steps = [
          { s: 0, temp: 20, km: 5050 },
          { s: 60, temp: 61, km: 5099 },
          { s: 120, temp: 65, km: 5101 }, // maintenance (≥ 100 km)
          { s: 180, temp: 20, km: 5500 },
          { s: 240, temp: 70, km: 6001 }, // high again after a normal reading; mileage
          { s: 300, temp: -20, km: 6002 },
        ];
        for (const x of steps) {
          await fix(app, MISC, {
            at: base + x.s * 1000,
            kmh: 40,
            acc: true,
            mileage: x.km,
            attrs: { temp1: x.temp },
            lng: LNG + x.s / 100_000,
          });
        }
        const types = (await alertsOf(app, a.token, MISC)).map((x) => x.type);
        const count = (type: string) => types.filter((x) => x === type).length;
        assert.equal(count("temperatureHigh"), 2);
        assert.equal(count("temperatureLow"), 1);
        assert.equal(count("maintenance"), 1);
        assert.equal(count("mileage"), 1);
        assert.equal(count("accOnDuration"), 1); // 49.95 h + 5 min
        assert.equal(count("nightDriving"), 1);
      },
    );

    await t.step("the device's own alarm data (device detail) drives the engine too", async () => {
      const DETAIL = imeis[3];
      const saved = await app.call("/v3/new/newEquipment/updateAlerts", {
        imei: DETAIL,
        alerts: {
          minTemperature: null,
          maxTemperature: null,
          overSpeed: 100,
          overSecond: 10,
          mileageThreshold: null,
          continuousMileageThreshold: null,
          mileage: null,
          aCCOnDurtionThreshold: null,
          initialValue: null,
          input1: { active: "", inactive: "" },
          input2: { active: "", inactive: "" },
        },
      }, a.token);
      assert.equal(saved.json.code, 10000, JSON.stringify(saved.json));
      // MISC has own alert settings without a speed limit: the detail's limit applies.
      app.services.alertSettings.device(DETAIL, Date.now() + 120_000); // re-read the detail
      await new Promise((r) => setTimeout(r, 50));
      const base = T0 + 5 * 3_600_000;
      for (const s of [0, 10, 20]) await fix(app, DETAIL, { at: base + s * 1000, kmh: 120 });
      const over = await alertsOf(app, a.token, DETAIL, "overspeed");
      assert.equal(over.length, 1);
      assert.equal(over[0].detail?.limit, 100);
    });

    await t.step(
      "offline after the device's threshold, announced by the status sweep",
      async () => {
        await app.call("/v3/new/alarm/device/save", { imei: FENCE, offlineMinutes: 30 }, a.token);
        app.services.bus.publish({
          type: "status",
          imei: FENCE,
          userId: a.id,
          status: "offline",
          previous: "stopped",
        });
        await app.services.alertEngine.idle();
        assert.equal((await alertsOf(app, a.token, FENCE, "offline")).length, 0);
        app.services.alertEngine.sweep(Date.now() + 20 * 60_000);
        await app.services.alertEngine.idle();
        assert.equal((await alertsOf(app, a.token, FENCE, "offline")).length, 0);
        app.services.alertEngine.sweep(Date.now() + 31 * 60_000);
        app.services.alertEngine.sweep(Date.now() + 40 * 60_000);
        await app.services.alertEngine.idle();
        await app.services.alertDelivery.idle();
        assert.equal((await alertsOf(app, a.token, FENCE, "offline")).length, 1);
      },
    );

    await t.step(
      "device alarms are recorded once by the gateway and pushed at most 30 an hour",
      async () => {
        const base = T0 + 10 * 3_600_000;
        for (let i = 0; i < 35; i++) {
          await fix(app, ALARM, { at: base + i * 60_000, alarm: "sos", lng: LNG + 0.05 });
        }
        const sos = await alertsOf(app, a.token, ALARM, "sos");
        assert.equal(sos.length, 35);
        assert.equal(sos.filter((x) => x.pushed).length, 30);
        assert.equal(popups.filter((p) => p.imei === ALARM && p.type === "sos").length, 30);
        // An hour after the first push the window has room again.
        await fix(app, ALARM, { at: base + 3_600_000, alarm: "sos", lng: LNG + 0.05 });
        assert.equal(popups.filter((p) => p.imei === ALARM).length, 31);
      },
    );

    await t.step(
      "auto broadcast: the rule's text goes to the device after N alarms per unit",
      async () => {
        const bad = await app.call("/v3/new/alarm/broadcast/save", {
          rule: {
            name: "x",
            alarmType: "vibration",
            count: 2,
            unitMinutes: 10,
            content: "hi",
            startTime: "10:00",
            endTime: "09:00",
          },
        }, a.token);
        assert.equal(bad.json.data.field, "rule.endTime");
        const rule = await app.call("/v3/new/alarm/broadcast/save", {
          rule: {
            name: "Shake",
            alarmType: "vibration",
            count: 3,
            unitMinutes: 10,
            content: "Vehicle disturbed",
            imeis: [ALARM],
          },
        }, a.token);
        assert.equal(rule.json.code, 10000, JSON.stringify(rule.json));
        const commands = async () =>
          (await app.call("/v3/new/command/list", { imei: ALARM, pageSize: 100 }, a.token)).json
            .data.list
            .filter((c: { content: string }) => c.content === "Vehicle disturbed").length;
        const base = T0 + 15 * 3_600_000;
        // Two within 10 minutes, then a gap: no broadcast; three within 10 minutes: one.
        for (const m of [0, 5, 30, 32, 34]) {
          await fix(app, ALARM, { at: base + m * 60_000, alarm: "vibration", lng: LNG + 0.05 });
        }
        await new Promise((r) => setTimeout(r, 100));
        assert.equal(await commands(), 1);
        const listed = await app.call("/v3/new/alarm/broadcast/list", {}, a.token);
        assert.equal(listed.json.data.length, 1);
        await app.call("/v3/new/alarm/broadcast/delete", { id: rule.json.data.id }, a.token);
        assert.equal(
          (await app.call("/v3/new/alarm/broadcast/list", {}, a.token)).json.data.length,
          0,
        );
      },
    );

    await t.step("silence time: the same alarm is not pushed again within it", async () => {
      const s = (await app.call("/v3/new/alarm/settings/get", {}, a.token)).json.data;
      await app.call(
        "/v3/new/alarm/settings/save",
        { ...s, userId: undefined, silenceMinutes: 30 },
        a.token,
      );
      const base = T0 + 20 * 3_600_000;
      const before = popups.filter((p) => p.type === "powerCut").length;
      for (const m of [0, 10, 29, 31, 45, 62]) {
        await fix(app, ALARM, { at: base + m * 60_000, alarm: "powerCut", lng: LNG + 0.05 });
      }
      const pushedAt = popups.filter((p) => p.type === "powerCut").slice(before).map((p) =>
        (p.time - base) / 60_000
      );
      assert.deepEqual(pushedAt, [0, 31, 62]);
      assert.equal((await alertsOf(app, a.token, ALARM, "powerCut")).length, 6);
    });

    await t.step(
      "alert centre: read filter, processing limits, mark unread, mark all read",
      async () => {
        const [first] = await alertsOf(app, a.token, FENCE);
        const ref = { imei: first.imei, time: first.time, id: first.id };
        const long = await app.call("/v3/new/alarm/process", {
          ...ref,
          handler: "x".repeat(51),
          content: "ok",
        }, a.token);
        assert.equal(long.json.data.field, "handler");
        const longer = await app.call("/v3/new/alarm/process", {
          ...ref,
          handler: "Ann",
          content: "y".repeat(501),
        }, a.token);
        assert.equal(longer.json.data.field, "content");
        const done = await app.call("/v3/new/alarm/process", {
          ...ref,
          handler: "Ann",
          content: "Called the driver",
        }, a.token);
        assert.equal(done.json.data.processed, true);
        assert.equal(done.json.data.read, 0);
        const list = (q: Record<string, unknown>) =>
          app.call("/v3/new/alarm/list", {
            startTime: new Date(T0 - 86_400_000).toISOString(),
            endTime: new Date(T0 + 30 * 86_400_000).toISOString(),
            ...q,
          }, a.token);
        assert.equal((await list({ read: 0 })).json.data.total, 1);
        assert.equal((await list({ processed: "processed" })).json.data.total, 1);
        await app.call("/v3/new/alarm/mark", { alerts: [ref], read: -1 }, a.token);
        assert.equal((await list({ read: 0 })).json.data.total, 0);
        const all = await app.call("/v3/new/alarm/markAllRead", {
          startTime: new Date(T0 - 86_400_000).toISOString(),
          endTime: new Date(T0 + 30 * 86_400_000).toISOString(),
        }, a.token);
        assert.ok(all.json.data.changed > 40);
        assert.equal((await list({ read: -1 })).json.data.total, 0);
        // Another account sees none of it.
        const b = await accountWithDevices(app, "engine_b", []);
        assert.equal((await app.call("/v3/new/alarm/list", {}, b.token)).json.data.total, 0);
        assert.equal(
          (await app.call("/v3/new/alarm/list", { imeis: [FENCE] }, b.token)).json.code,
          42012,
        );
      },
    );
  } finally {
    app.services.alertEngine.stop();
    app.services.alertDelivery.stop();
    await app.close();
  }
});
