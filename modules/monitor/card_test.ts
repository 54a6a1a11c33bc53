/**
 * The device card's content (popup, tracking, share page) and "show on map" from an alert:
 * the single-device objects answer carries readings, odometer, since-when and the address;
 * the alert's map link carries where the alarm happened.
 */
import assert from "node:assert/strict";
import { testApp } from "../../tests/helpers/harness.ts";
import { accountWithDevices } from "../../tests/helpers/alerting.ts";
import { translator } from "../../lib/i18n/i18n.ts";
import type { Position } from "../gateway/protocols/types.ts";
import { KNOT_IN_KMH } from "../gateway/ingest/convert.ts";
import { sinceText, spanText } from "../../components/monitor/DeviceCard.tsx";
import { alarmFromQuery, alarmMapUrl } from "./alarm_link.ts";
import type { ObjectsPayload } from "./objects.ts";

const FUTIAN = { lat: 22.52192, lng: 114.05617 };

function fix(at: number, kmh: number, extra: Partial<Position> = {}): Position {
  return {
    time: new Date(at),
    valid: true,
    latitude: FUTIAN.lat,
    longitude: FUTIAN.lng,
    altitude: 0,
    speed: kmh / KNOT_IN_KMH,
    course: 0,
    posType: 1,
    attributes: {},
    ...extra,
  };
}

Deno.test("device card: readings, odometer, since when and address of one device; share page too", async (t) => {
  const app = await testApp();
  const IMEI = "359710049400001";
  try {
    const a = await accountWithDevices(app, "card_a", [IMEI]);
    const device = app.services.directory.get(IMEI)!;
    const now = Date.now();
    await app.services.ingestor.submit(device, [
      { type: "position", position: fix(now - 20 * 60_000, 40, { mileage: 1234.5 }) },
      {
        type: "position",
        position: fix(now - 60_000, 0, { acc: false, mileage: 1240.2, battery: 87, signal: 3 }),
      },
    ]);

    await t.step("objects?imei carries facts and the address; the full list does not", async () => {
      const r = await app.call(`/v3/new/monitor/objects?imei=${IMEI}`, undefined, a.token);
      assert.equal(r.json.code, 10000, JSON.stringify(r.json));
      const d = r.json.data as ObjectsPayload;
      assert.equal(d.statuses[d.status[0]], "stopped");
      assert.equal(d.acc[0], false);
      const f = d.facts!;
      assert.equal(f.battery, 87);
      assert.equal(f.signal, 3);
      assert.equal(f.odometerKm, 1240.2);
      assert.ok(f.lastMovingAt! >= now - 20 * 60_000 && f.lastMovingAt! < now - 60_000);
      assert.equal(f.address, "Futian, Shenzhen, Guangdong, China");
      assert.equal(f.driver, null);
      const all = await app.call("/v3/new/monitor/objects", undefined, a.token);
      assert.equal(all.json.data.facts, undefined);
    });

    await t.step("the card says how long it has stood", () => {
      const tr = translator("en");
      const r = sinceText(
        {
          imei: IMEI,
          name: "x",
          status: "stopped",
          speed: 0,
          course: 0,
          gpsTime: now - 60_000,
          hbTime: now - 60_000,
          lat: 1,
          lng: 1,
          facts: {
            battery: null,
            signal: null,
            odometerKm: null,
            lastMovingAt: now - 20 * 60_000,
            address: null,
            driver: null,
          },
        },
        tr,
        now,
      );
      assert.equal(r, "Stopped for 20 min");
      assert.equal(spanText(26 * 3600_000 + 5 * 60_000, tr), "1 d 2 h");
      assert.equal(spanText(65 * 60_000, translator("zh")), "1小时5分");
      const never = sinceText(
        {
          imei: IMEI,
          name: "x",
          status: "inactive",
          speed: 0,
          course: 0,
          gpsTime: null,
          hbTime: null,
          lat: null,
          lng: null,
        },
        tr,
        now,
      );
      assert.equal(never, "Never reported (not activated)");
      const offline = sinceText(
        {
          imei: IMEI,
          name: "x",
          status: "offline",
          speed: 0,
          course: 0,
          gpsTime: null,
          hbTime: now - 3 * 3600_000,
          lat: null,
          lng: null,
        },
        tr,
        now,
      );
      assert.equal(offline, "Offline for 3 h 0 min");
    });

    await t.step("the public share page gets the address (no login)", async () => {
      const link = await app.call(
        "/v3/new/monitor/share/create",
        { imei: IMEI, hours: 1 },
        a.token,
      );
      assert.equal(link.json.code, 10000, JSON.stringify(link.json));
      const view = await app.call(
        `/v3/new/monitor/share/view?token=${encodeURIComponent(link.json.data.token)}`,
      );
      assert.equal(view.json.code, 10000);
      assert.equal(view.json.data.objects.facts.address, "Futian, Shenzhen, Guangdong, China");
    });
  } finally {
    await app.close();
  }
});

Deno.test("alarm map link: carries the alarm's place, time, type and address; bad ones are ignored", () => {
  const url = alarmMapUrl({
    imei: "359710049400001",
    lat: 22.5,
    lng: 114.05,
    time: 1_700_000_000_000,
    type: "sos",
    address: "At Depot Futian",
  });
  const q = new URL(url, "http://x").searchParams;
  assert.equal(new URL(url, "http://x").pathname, "/monitorObject");
  assert.deepEqual(alarmFromQuery(q), {
    lat: 22.5,
    lng: 114.05,
    time: 1_700_000_000_000,
    type: "sos",
    address: "At Depot Futian",
  });
  // Without a position the link is the vehicle's, as before.
  assert.equal(
    alarmMapUrl({ imei: "359710049400001", lat: null, lng: null, time: 1, type: "offline" }),
    "/monitorObject?imei=359710049400001",
  );
  assert.equal(alarmFromQuery(new URLSearchParams("alarmLat=95&alarmLng=1")), null);
  assert.equal(alarmFromQuery(new URLSearchParams("alarmLat=x&alarmLng=1")), null);
  assert.equal(alarmFromQuery(new URLSearchParams("imei=1")), null);
});
