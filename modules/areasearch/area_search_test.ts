/**
 * Area car-finding against a real server with real GT06 devices: the devices within the
 * radius of a point, nearest first, with their distance; a radius of 50 km or more (or 0)
 * refused by the catalogue; another subtree's caller finds none of them.
 */
import assert from "node:assert/strict";
import { startServer } from "../../tests/helpers/server.ts";
import { ApiClient } from "../../tests/helpers/api_client.ts";
import { devicePorts, importDevices } from "../../tests/helpers/gateway.ts";
import { RawDevice } from "../../tests/helpers/raw_device.ts";
import { gt06Heartbeat, gt06Location, gt06Login } from "../../tests/helpers/gt06_frames.ts";
import { CATALOGUE } from "../../lib/errors.ts";

const ADMIN_PASSWORD = "Admin12345";
const NEAR = "359710049660011", FAR = "359710049660029", NEXT = "359710049660037";

async function report(port: number, imei: string, lat: number, lng: number) {
  const d = await RawDevice.open(port);
  await d.send(gt06Login(imei, 1));
  await d.take(10);
  await d.send(
    gt06Location({ time: new Date(Date.now() - 60_000), lat, lng, speedKmh: 0, course: 0 }, 2),
  );
  await d.send(gt06Heartbeat(3));
  await d.take(10);
  await d.done();
}

Deno.test({
  name: "area search: devices within the radius, nearest first; 50 km refused; subtree only",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const server = await startServer({ ADMIN_PASSWORD });
    try {
      const admin = await importDevices(server, ADMIN_PASSWORD, [NEAR, FAR, NEXT]);
      const port = devicePorts(server).gt06;
      await report(port, NEAR, 22.54, 114.06);
      await report(port, NEXT, 22.56, 114.06);
      await report(port, FAR, 23.5, 114.06);

      const found = await admin.call("/v3/new/monitor/areaSearch", {
        lat: 22.53,
        lng: 114.06,
        radiusKm: 5,
      });
      assert.deepEqual(found.list.map((h: { imei: string }) => h.imei), [NEAR, NEXT]);
      assert.ok(Math.abs(found.list[0].distanceKm - 1.112) < 0.01, found.list[0].distanceKm);
      assert.ok(Math.abs(found.list[1].distanceKm - 3.336) < 0.01, found.list[1].distanceKm);
      assert.equal(found.total, 2);
      const wider = await admin.call("/v3/new/monitor/areaSearch", {
        lat: 22.53,
        lng: 114.06,
        radiusKm: 49.9,
      });
      assert.equal(wider.total, 2, "the far device is about 108 km away");

      for (const radiusKm of [50, 0, 120]) {
        const r = await admin.raw("/v3/new/monitor/areaSearch", {
          lat: 22.53,
          lng: 114.06,
          radiusKm,
        });
        assert.equal(r.code, CATALOGUE.areaRadiusInvalid, String(radiusKm));
        assert.match(r.msg, /50 km/);
      }

      const me = await admin.call("/v3/new/account/current");
      await admin.call("/v3/new/account/add", {
        account: "area_other",
        nickName: "Area other",
        password: "Passw0rd1",
        accountType: 8,
        parentId: me.userId,
      });
      const other = await ApiClient.login(server.url, "area_other", "Passw0rd1");
      const none = await other.call("/v3/new/monitor/areaSearch", {
        lat: 22.53,
        lng: 114.06,
        radiusKm: 10,
      });
      assert.deepEqual(none, { total: 0, list: [] });
    } finally {
      await server.stop();
    }
  },
});
