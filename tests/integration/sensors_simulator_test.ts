/**
 * The sensor readings end to end (issue 21, S1): simulated GT06 and JT/T 808 trackers carrying
 * sensors report to a real server process over TCP for a few seconds; the readings the gateway
 * decoded (JT/T 808 location items; GT06 0x94 information and 0x8C OBD packets) are kept by the
 * sensor stage of the position pipeline and answered by the sensor reports.
 */
import assert from "node:assert/strict";
import { freePort, startServer } from "../helpers/server.ts";
import { MODEL_FOR, PlatformApi } from "../../modules/simulator/api.ts";
import { Simulator } from "../../modules/simulator/simulator.ts";

const PASSWORD = "Admin12345";
type Row = Record<string, unknown>;
type Answer = { total: number; list: Row[]; unsupported: string[] };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

Deno.test({
  name: "sensors: simulated GT06 and JT/T 808 trackers' sensors reach the sensor reports",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const ports = { gt06: freePort(), jt808: freePort(), h02: freePort(), osmand: freePort() };
    const server = await startServer({
      ADMIN_PASSWORD: PASSWORD,
      GT06_PORT: String(ports.gt06),
      JT808_PORT: String(ports.jt808),
      H02_PORT: String(ports.h02),
      OSMAND_PORT: String(ports.osmand),
    });
    const sims: Simulator[] = [];
    try {
      const api = await PlatformApi.login(server.url, "admin", PASSWORD);
      const userId = await api.currentUserId();
      const began = Date.now();
      for (const [i, protocol] of (["gt06", "jt808"] as const).entries()) {
        const sim = new Simulator({
          protocol,
          devices: 2,
          port: ports[protocol],
          intervalSeconds: 1,
          imeiPrefix: "86100000",
          startIndex: 10 * i,
          seed: 4,
          alarmScale: 0,
          reconnectsPerHour: 0,
        });
        const r = await api.importDevices(userId, MODEL_FOR[protocol], sim.imeis);
        assert.equal(r.imported, 2, JSON.stringify(r));
        sims.push(sim);
      }
      for (const s of sims) s.start();
      await sleep(8_000);
      for (const s of sims) await s.stop();
      const [gt06, jt808] = sims.map((s) => s.imeis);
      const all = [...gt06, ...jt808];
      const report = (name: string, imeis: string[]) =>
        api.call<Answer>(`/v3/new/report/${name}`, {
          imeis,
          startTime: new Date(began - 60_000).toISOString(),
          endTime: new Date(Date.now() + 60_000).toISOString(),
          pageNum: 1,
          pageSize: 500,
        });
      const devicesIn = (a: Answer) => new Set(a.list.map((r) => r.imei as string));

      // Temperatures: JT/T 808 0x51 (two probes) on every report; GT06 0x94/0x1E on every third.
      const temps = await report("temperatureHumidity", all);
      assert.deepEqual(temps.unsupported, [], JSON.stringify(temps.unsupported));
      assert.deepEqual([...devicesIn(temps)].sort(), [...all].sort());
      for (const row of temps.list) {
        assert.equal(typeof row.temperature, "number", JSON.stringify(row));
        assert.ok((row.temperature as number) >= -19 && (row.temperature as number) <= 28);
      }
      assert.ok(temps.list.some((r) => r.imei === jt808[0] && r.probe === 2), "the cabin probe");

      // Supply volts: JT/T 808 0xD3, GT06 0x94/0x00.
      const power = await report("externalBattery", all);
      assert.deepEqual([...devicesIn(power)].sort(), [...all].sort());
      assert.ok(power.list.every((r) => r.externalVoltage === 13.8 || r.externalVoltage === 12.4));

      // Fuel: JT/T 808 litres (0x02, 1/10 L); GT06 a percent (its OBD packet), no tank set up.
      const fuel = await report("currentFuel", all);
      assert.deepEqual(fuel.unsupported, []);
      const jtFuel = fuel.list.filter((r) => jt808.includes(r.imei as string));
      // An unchanged level is kept once per 5 minutes: at least one reading per device.
      assert.deepEqual([...new Set(jtFuel.map((r) => r.imei))].sort(), [...jt808].sort());
      assert.ok(
        jtFuel.every((r) => (r.fuelLitres as number) > 0 && (r.fuelLitres as number) <= 120),
      );
      const gtFuel = fuel.list.filter((r) => gt06.includes(r.imei as string));
      assert.ok(gtFuel.length >= 1 && gtFuel.every((r) => typeof r.fuelPercent === "number"));

      // OBD: rpm and coolant from JT/T 808 0xF3 and GT06 0x8C.
      const can = await report("canData", all);
      assert.deepEqual(
        [...devicesIn(can)].sort(),
        [...all].sort(),
        JSON.stringify(can.unsupported),
      );
    } finally {
      for (const s of sims) await s.stop().catch(() => {});
      await server.stop();
    }
  },
});
