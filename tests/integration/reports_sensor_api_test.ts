/**
 * The sensor reports on a real server fed over TCP by JT/T 808 terminals (issue 21, S2):
 * a reefer truck reporting fuel (item 0x02, 1/10 L) and two temperature probes (0x51) that
 * parks, is refuelled with 40 L, drives and parks again with probe 1 above its threshold for a
 * while; an OBD van (0x81 rpm, 0x84 coolant, 0x85 fuel rate, 0x8c odometer, 0xa0 fault codes);
 * a plain tracker with no sensor. Checks the rows, charts and summaries, that the plain
 * tracker is listed as unsupported (never rows of zeros), the OBD trip id, the export.
 */
import assert from "node:assert/strict";
import { devicePorts } from "../helpers/gateway.ts";
import { startServer } from "../helpers/server.ts";
import { at, feedSensorFleet, PLAIN, REEFER, VAN } from "../helpers/sensor_fleet.ts";
import { parseTripId } from "../../modules/reports/sensor_model.ts";

const ADMIN_PASSWORD = "Admin12345";
type Row = Record<string, unknown>;
type Answer = {
  total: number;
  list: Row[];
  unsupported: string[];
  chart?: {
    kind: string;
    lines: { imei: string; key: string; index: number; points: [number, number][] }[];
    marks: { imei: string; kind: string; amount: number; time: number }[];
    bands: { imei: string; min: number | null; max: number | null }[];
  };
  summary?: {
    imei: string;
    probe: number;
    temperature: { min: number; max: number; avg: number; count: number } | null;
    outOfRange: { band: string; duration: number; extreme: number }[];
  }[];
};

/** The administrator's session: JSON calls (data unwrapped) and raw responses (files). */
async function adminSession(base: string) {
  const login = await (await fetch(`${base}/v3/new/account/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ account: "admin", password: ADMIN_PASSWORD }),
  })).json();
  const headers = {
    "content-type": "application/json",
    authorization: `Bearer ${login.data.token}`,
  };
  const post = (path: string, body?: unknown) =>
    fetch(`${base}${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  return {
    post,
    async call<T = Row>(path: string, body?: unknown): Promise<T> {
      const r = await (await post(path, body)).json();
      if (r.code !== 10000) throw new Error(`${path}: ${r.code} ${r.msg}`);
      return r.data as T;
    },
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(what: string, get: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  const end = Date.now() + 30_000;
  for (;;) {
    const v = await get();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v)}`);
    await sleep(300);
  }
}

Deno.test({
  name: "sensor reports: fuel, temperature, OBD and unsupported devices over real JT/T 808 frames",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async (t) => {
    const server = await startServer({ ADMIN_PASSWORD });
    try {
      const api = await adminSession(server.url);
      const me = await api.call<{ userId: string }>("/v3/new/account/current");
      const imported = await api.call<Row>("/v3/new/newEquipment/importEquipment", {
        userId: me.userId,
        mcType: "JT808",
        imeis: [REEFER, VAN, PLAIN],
      });
      assert.equal(imported.succeeded, 3, JSON.stringify(imported));
      await api.call("/v3/new/alarm/device/save", {
        imei: REEFER,
        minTemperature: 2,
        maxTemperature: 8,
      });
      await feedSensorFleet(devicePorts(server).jt808);

      const range = {
        startTime: new Date(at(-5)).toISOString(),
        endTime: new Date().toISOString(),
        pageNum: 1,
        pageSize: 100,
      };
      const run = (name: string, imeis: string[], extra: Row = {}) =>
        api.call<Answer>(`/v3/new/report/${name}`, { ...range, imeis, ...extra });

      await t.step(
        "refuelling: one refuel of about 40 L, the plain tracker unsupported",
        async () => {
          const r = await until(
            "refuel",
            () => run("refueling", [REEFER, PLAIN]),
            (a) => a.total >= 1,
          );
          assert.equal(r.total, 1, JSON.stringify(r));
          assert.deepEqual(r.unsupported, [PLAIN]);
          const row = r.list[0];
          assert.equal(row.imei, REEFER);
          for (const key of ["time", "lat", "lng", "address", "before", "after", "amount"]) {
            assert.ok(key in row, key);
          }
          assert.ok(Math.abs(Number(row.amount) - 40) <= 3, `amount ${row.amount}`);
          assert.ok(Math.abs(Number(row.before) - 60) <= 3, `before ${row.before}`);
          assert.ok(Math.abs(Number(row.after) - 100) <= 3, `after ${row.after}`);
          const t0 = Date.parse(String(row.time));
          assert.ok(t0 >= at(9) && t0 <= at(14), String(row.time));
        },
      );

      await t.step("current fuel: every reading, a chart line with the refuel marked", async () => {
        const r = await run("currentFuel", [REEFER, PLAIN]);
        // Every change is kept, an unchanged level every 5 minutes: 26 changes and the rest.
        assert.ok(r.total >= 26 && r.total <= 51, `${r.total} readings`);
        assert.deepEqual(r.unsupported, [PLAIN]);
        assert.equal(r.list[0].fuelLitres, 60);
        assert.ok(r.list.some((x) => x.fuelLitres === 100));
        assert.equal(r.chart!.kind, "volume");
        assert.equal(r.chart!.lines.length, 1);
        assert.equal(r.chart!.lines[0].points.length, r.total);
        assert.deepEqual(r.chart!.marks.map((m) => m.kind), ["refuel"]);
        // Page 2 carries no chart (it is drawn from the first).
        const p2 = await api.call<Answer>("/v3/new/report/currentFuel", {
          ...range,
          imeis: [REEFER],
          pageNum: 2,
          pageSize: 20,
        });
        assert.equal(p2.chart, undefined);
        assert.equal(p2.list.length, Math.min(20, r.total - 20));
      });

      await t.step("fuel consumption: the trip's 3 L over 20 km, refuel left out", async () => {
        const trips = await until(
          "a closed trip",
          () => run("fuelConsumption", [REEFER]),
          (a) => a.total >= 1 && a.list.every((x) => x.fuelUsed !== null),
        );
        assert.equal(trips.total, 1, JSON.stringify(trips.list));
        const trip = trips.list[0];
        assert.ok(Math.abs(Number(trip.distance) - 20) < 2, `distance ${trip.distance}`);
        assert.ok(Math.abs(Number(trip.fuelUsed) - 3) < 1, `fuel ${trip.fuelUsed}`);
        assert.ok(Math.abs(Number(trip.per100km) - 15) < 5, `rate ${trip.per100km}`);
        const days = await run("fuelDaily", [REEFER]);
        const refuelled = days.list.reduce((a, x) => a + Number(x.refuelled), 0);
        assert.ok(Math.abs(refuelled - 40) <= 3, `refuelled ${refuelled}`);
        const used = days.list.reduce((a, x) => a + Number(x.fuelUsed), 0);
        assert.ok(Math.abs(used - 3) < 1.5, `used ${used}`);
        const perDay = await run("fuelConsumption", [REEFER], { view: "day" });
        assert.ok(perDay.list.every((x) => typeof x.date === "string"));
      });

      await t.step("temperature: readings per probe, summary, out-of-range interval", async () => {
        const r = await run("temperatureHumidity", [REEFER, PLAIN]);
        // Changes kept, an unchanged reading every 5 minutes (probe 2 never changes).
        const probe2 = r.list.filter((x) => x.probe === 2).length;
        assert.ok(probe2 >= 10 && probe2 <= 12, `${probe2} readings of probe 2`);
        assert.deepEqual(r.unsupported, [PLAIN]);
        const p1 = r.summary!.find((p) => p.probe === 1)!;
        const p2 = r.summary!.find((p) => p.probe === 2)!;
        assert.deepEqual([p1.temperature!.min, p1.temperature!.max], [5, 11.5]);
        assert.deepEqual([p2.temperature!.min, p2.temperature!.max], [-18, -18]);
        assert.deepEqual(p1.outOfRange.map((o) => [o.band, o.duration, o.extreme]), [
          ["high", 6 * 60, 11.5],
        ]);
        // Probe 2 is below the 2 °C minimum all along.
        assert.equal(p2.outOfRange.length, 1);
        assert.equal(p2.outOfRange[0].band, "low");
        assert.ok(r.list.some((x) => x.outOfRange === true));
        assert.deepEqual(r.chart!.bands, [{ imei: REEFER, min: 2, max: 8 }]);
        assert.equal(r.chart!.lines.length, 2);
        const light = await run("sensorData", [REEFER], { sensorType: 4 });
        assert.deepEqual([light.total, light.unsupported], [0, [REEFER]]);
        const temp = await run("sensorData", [REEFER], { sensorType: 1 });
        assert.equal(temp.total, r.total);
      });

      await t.step("logistics: the trip with its temperatures", async () => {
        const r = await run("logistics", [REEFER]);
        assert.equal(r.total, 1);
        assert.deepEqual(r.unsupported, []);
        assert.equal(r.list[0].maxTemperature, 5);
        assert.equal(r.list[0].minTemperature, -18);
        assert.equal(r.list[0].doorOpenings, 0);
      });

      await t.step("OBD: the trip with rpm and coolant, its details, fault codes", async () => {
        const trips = await until(
          "OBD trip",
          () => run("obdTrip", [VAN, PLAIN]),
          (a) => a.total >= 1,
        );
        assert.deepEqual(trips.unsupported, [PLAIN]);
        const trip = trips.list[0];
        assert.ok(Number(trip.maxRpm) >= 1800 + 24 * 10 - 10, `rpm ${trip.maxRpm}`);
        assert.ok(Number(trip.maxCoolant) >= 90, `coolant ${trip.maxCoolant}`);
        assert.ok(Math.abs(Number(trip.fuelUsed) - 2) < 0.7, `fuel ${trip.fuelUsed}`);
        const id = parseTripId(String(trip.id))!;
        assert.equal(id.imei, VAN);
        const info = await api.call<Answer>("/v3/new/report/obdTripInfo", {
          imeis: [VAN],
          startTime: new Date(id.start).toISOString(),
          endTime: new Date(id.end).toISOString(),
          pageNum: 1,
          pageSize: 100,
        });
        assert.ok(info.total >= 15, `${info.total} readings in the trip`);
        assert.ok(info.list.every((x) => typeof x.obdRpm === "number"));
        const can = await run("canData", [VAN, REEFER]);
        assert.ok(can.total >= 20 && can.total <= 31, `${can.total} CAN rows`);
        assert.deepEqual(can.unsupported, [REEFER]);
        const faults = await run("obdFault", [VAN]);
        assert.equal(faults.total, 1, JSON.stringify(faults));
        assert.match(String(faults.list[0].faultCode), /P0301.*P0420/);
        const odo = await run("carriageMileage", [VAN, PLAIN]);
        assert.ok(odo.total >= 1);
        assert.ok(!odo.unsupported.includes(VAN));
      });

      await t.step("driving behaviour: the van's three harsh events per 100 km", async () => {
        const r = await until(
          "harsh events",
          () => run("drivingBehavior", [VAN, PLAIN]),
          (a) => a.total === 1 && a.list[0].harshCornering === 1,
        );
        assert.deepEqual(r.unsupported, [PLAIN]);
        const row = r.list[0];
        assert.deepEqual([row.harshAcceleration, row.harshBraking, row.harshCornering], [1, 1, 1]);
        const distance = Number(row.distance);
        assert.ok(distance > 14 && distance < 18, `distance ${distance}`);
        assert.equal(row.eventsPer100km, Math.round((3 / distance) * 100 * 100) / 100);
        // 100 − 10 × 18.75 events per 100 km: nothing left.
        assert.equal(row.score, 0);
      });

      await t.step("clock-in: swipes, clock-ins only, shifts", async () => {
        const all = await until("swipes", () => run("clockIn", [VAN, PLAIN]), (a) => a.total >= 2);
        assert.deepEqual(all.unsupported, [PLAIN]);
        assert.deepEqual(all.list.map((x) => x.clockType), ["in", "out"]);
        assert.equal(all.list[0].driverName, `Driver ${VAN.slice(-4)}`);
        const ins = await run("clockIn", [VAN], { clockType: 1 });
        assert.deepEqual(ins.list.map((x) => x.clockType), ["in"]);
        const shifts = await run("clockIn", [VAN], { clockType: 2 });
        assert.equal(shifts.total, 1);
        assert.equal(shifts.list[0].duration, 22 * 60);
        assert.equal(shifts.list[0].cardNo, all.list[0].cardNo);
        const bt = await run("bluetoothClockIn", [VAN]);
        assert.deepEqual(bt, { total: 0, list: [], unsupported: [VAN] });
      });

      await t.step("a device without the sensor: total 0, empty list, listed", async () => {
        for (const name of ["refueling", "fuelConsumption", "temperatureHumidity", "obdTrip"]) {
          const r = await run(name, [PLAIN]);
          assert.deepEqual(r, { total: 0, list: [], unsupported: [PLAIN] }, name);
        }
        const behaviour = await run("drivingBehavior", [PLAIN]);
        assert.deepEqual(behaviour, { total: 0, list: [], unsupported: [PLAIN] });
        const states = await run("stateStatistics", [PLAIN, REEFER]);
        assert.equal(states.total, 2);
      });

      await t.step("export: refuelling as csv in the user's units", async () => {
        const res = await api.post("/v3/new/report/export", {
          report: "refueling",
          params: { ...range, imeis: [REEFER] },
          format: "csv",
        });
        assert.equal(res.status, 200);
        const text = await res.text();
        assert.match(text, /Added \(L\)/);
        assert.match(text, new RegExp(REEFER));
      });
    } finally {
      await server.stop();
    }
  },
});
