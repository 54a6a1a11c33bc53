/**
 * The report API against a real server process: simulated GT06 devices report a crafted day
 * through the gateway, and every report and overview answers the rows that day holds; a
 * sibling's IMEI refuses a query whole, an account without viewReportFlag is refused, a
 * virtual account reads its master's reports; the range rules answer catalogue errors.
 */
import assert from "node:assert/strict";
import { CATALOGUE } from "../../lib/errors.ts";
import { REPORT_COLUMNS, REPORT_NAMES, type ReportName } from "../../modules/reports/model.ts";
import type { ApiClient } from "../helpers/api_client.ts";
import { buildFleet, DEV1, DEV2, DEV_B, type Fleet } from "../helpers/report_fleet.ts";
import { startServer } from "../helpers/server.ts";

const ADMIN_PASSWORD = "Admin12345";
const MIN = 60_000;
type Row = Record<string, unknown>;

/** The request of a report over the crafted day (an hour before it to now). */
function request(f: Fleet, extra: Record<string, unknown> = {}, imeis = [DEV1, DEV2]) {
  return {
    imeis,
    startTime: new Date(f.base - 60 * MIN).toISOString(),
    endTime: new Date().toISOString(),
    pageNum: 1,
    pageSize: 100,
    ...extra,
  };
}

async function rows(
  api: ApiClient,
  name: string,
  body: unknown,
): Promise<{ total: number; list: Row[] }> {
  return await api.call(`/v3/new/report/${name}`, body);
}

/** Polls until `ok` holds for the answer (the analysis flushes every few seconds). */
async function eventually<T>(
  read: () => Promise<T>,
  ok: (v: T) => boolean,
  what: string,
): Promise<T> {
  const end = Date.now() + 20_000;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > end) assert.fail(`${what}: ${JSON.stringify(v).slice(0, 2000)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

const near = (v: unknown, want: number, tol: number, what: string) =>
  assert.ok(
    typeof v === "number" && Math.abs(v - want) <= tol,
    `${what}: ${v} not ${want} ± ${tol}`,
  );
const isoNear = (v: unknown, want: number, tolMs: number, what: string) =>
  near(Date.parse(String(v)), want, tolMs, what);

/** Every row carries imei and deviceName, and every column of its report. */
function assertShape(name: ReportName, list: Row[]) {
  for (const r of list) {
    assert.ok(typeof r.imei === "string" && typeof r.deviceName === "string", JSON.stringify(r));
    for (const c of REPORT_COLUMNS[name]) assert.ok(c.key in r, `${name} row lacks ${c.key}`);
  }
}

type Step = (f: Fleet, api: ApiClient) => Promise<void>;

/** The steps, each over the same fleet; `api` is distA's (both devices are its own). */
const STEPS: [string, Step][] = [
  ["trips", async (f, api) => {
    const r = await eventually(
      () => rows(api, "trips", request(f)),
      (r) => r.total >= 1,
      "a trip",
    );
    assert.equal(r.total, 1);
    const trip = r.list[0];
    assert.deepEqual(Object.keys(trip).sort(), [
      "avgSpeed",
      "deviceName",
      "distance",
      "driverName",
      "duration",
      "endAddress",
      "endLat",
      "endLng",
      "endTime",
      "fuelUsed",
      "harshAcceleration",
      "harshBraking",
      "imei",
      "maxSpeed",
      "startAddress",
      "startLat",
      "startLng",
      "startTime",
    ]);
    assert.equal(trip.imei, DEV1);
    assert.equal(trip.driverName, "", "a device without a fleet vehicle has no driver");
    isoNear(trip.startTime, f.base + 12 * MIN, 60_000, "trip start");
    // Stopped at 22 min with ACC on; the ignition going off (24:30) ends the trip.
    isoNear(trip.endTime, f.base + 23.5 * MIN, 1.5 * MIN, "trip end");
    near(trip.distance, 12.53, 0.5, "distance km");
    near(trip.maxSpeed, 120, 1, "max speed");
    near(trip.endLat, f.p1.lat, 0.003, "end lat");
    assert.equal(
      trip.duration,
      Math.round(
        (Date.parse(String(trip.endTime)) - Date.parse(String(trip.startTime))) / 1000,
      ),
    );
    assert.ok(String(trip.startAddress).length > 0 && String(trip.endAddress).length > 0);
  }],
  ["parking and idling", async (f, api) => {
    const parking = await rows(api, "parking", request(f));
    assertShape("parking", parking.list);
    assert.ok(parking.list.some((p) => p.imei === DEV2), "DEV2 parks");
    assert.ok(parking.list.some((p) => p.imei === DEV1), "DEV1 parks");
    assert.deepEqual(Object.keys(parking.list[0]).sort(), [
      "acc",
      "address",
      "deviceName",
      "duration",
      "endTime",
      "imei",
      "lat",
      "lng",
      "startTime",
    ]);
    const times = parking.list.map((p) => Date.parse(String(p.startTime)));
    assert.deepEqual(times, [...times].sort((a, b) => a - b), "time order across devices");
    const idling = await rows(api, "idling", request(f));
    assertShape("idling", idling.list);
    const before = idling.list.find((i) => Date.parse(String(i.startTime)) < f.base + 12 * MIN);
    assert.ok(before, `idling before the drive: ${JSON.stringify(idling.list)}`);
    assert.equal(before.imei, DEV1);
    near(before.duration, 120, 40, "idling seconds");
  }],
  ["mileage, day and segment views", async (f, api) => {
    const day = await rows(api, "mileage", request(f, { view: "day" }));
    const d1 = day.list.filter((r) => r.imei === DEV1);
    assert.equal(d1.length, 1, JSON.stringify(day.list));
    assert.deepEqual(Object.keys(d1[0]).sort(), [
      "date",
      "deviceName",
      "distance",
      "drivingTime",
      "imei",
      "maxSpeed",
    ]);
    assert.equal(d1[0].date, new Date(f.base).toISOString().slice(0, 10));
    near(d1[0].distance, 12.53, 0.5, "day distance");
    // The day's one trip: its driving time is the trip's duration.
    const trip = (await rows(api, "trips", request(f))).list[0];
    assert.equal(d1[0].drivingTime, trip.duration);
    near(d1[0].drivingTime, 12 * 60, 3 * 60, "driving seconds");
    const seg = await rows(api, "mileage", request(f, { view: "segment" }));
    assert.equal(seg.total, 1);
    near(seg.list[0].distance, 12.53, 0.5, "segment distance");
  }],
  ["overspeed: the device default and custom limits", async (f, api) => {
    const def = await rows(api, "overspeed", request(f));
    assert.equal(def.total, 1, JSON.stringify(def.list));
    assert.deepEqual(Object.keys(def.list[0]).sort(), [
      "avgSpeed",
      "deviceName",
      "duration",
      "endTime",
      "imei",
      "lat",
      "lng",
      "maxSpeed",
      "startTime",
    ]);
    assert.equal(def.list[0].maxSpeed, 120);
    near(def.list[0].duration, 30, 1, "streak seconds");
    const at60 = await rows(api, "overspeed", request(f, { speedLimit: 60 }));
    assert.equal(at60.total, 1);
    near(at60.list[0].duration, 590, 15, "whole drive above 60");
    // 56 fixes at 72 km/h and 4 at 120.
    near(at60.list[0].avgSpeed, 75.2, 0.1, "average of the fixes");
    assert.equal((await rows(api, "overspeed", request(f, { speedLimit: 130 }))).total, 0);
    // Another limit is computed from the points: at most 7 days per query.
    const tenDays = { startTime: new Date(Date.now() - 10 * 86_400_000).toISOString() };
    const long = await api.raw(
      "/v3/new/report/overspeed",
      request(f, { speedLimit: 60, ...tenDays }),
    );
    assert.equal(long.code, CATALOGUE.playbackRangeTooLong);
    assert.equal(
      (await api.raw("/v3/new/report/overspeed", request(f, tenDays))).code,
      CATALOGUE.success,
    );
  }],
  ["ignition, online, offline, geoRegion", async (f, api) => {
    const ign = await rows(api, "ignition", request(f));
    assertShape("ignition", ign.list);
    const on = ign.list.filter((g) => g.imei === DEV1 && g.state === "on");
    assert.ok(on.length >= 1, JSON.stringify(ign.list));
    isoNear(on[0].startTime, f.base + 10 * MIN, 60_000, "ignition on");
    near(on[0].duration, 14 * 60, 90, "ignition on seconds");
    const online = await rows(api, "online", request(f));
    assertShape("online", online.list);
    assert.ok(online.list.some((o) => o.imei === DEV1), JSON.stringify(online.list));
    assertShape("offline", (await rows(api, "offline", request(f))).list);
    const visits = await eventually(
      () => rows(api, "geoRegion", request(f)),
      (r) => r.total >= 1,
      "a fence visit",
    );
    assertShape("geoRegion", visits.list);
    assert.equal(visits.list[0].fenceName, "Depot");
    isoNear(visits.list[0].enterTime, f.base + 22 * MIN, 2 * MIN, "fence entered");
  }],
  ["alert details and statistics", async (f, api) => {
    const all = await rows(api, "alertDetails", request(f));
    assertShape("alertDetails", all.list);
    const types = all.list.map((a) => `${a.imei}:${a.alertType}`);
    assert.ok(
      types.includes(`${DEV1}:sos`) && types.includes(`${DEV2}:vibration`),
      types.join(),
    );
    const sos = await rows(api, "alertDetails", request(f, { alertType: "sos" }));
    assert.equal(sos.total, 1);
    assert.equal(sos.list[0].read, false);
    assert.equal((await rows(api, "alertDetails", request(f, { read: 0 }))).total, 0);
    assert.equal((await rows(api, "alertDetails", request(f, { read: -1 }))).total, all.total);
    const stats = await rows(api, "alertStatistics", request(f));
    assertShape("alertStatistics", stats.list);
    assert.ok(
      stats.list.some((s) => s.imei === DEV1 && s.alertType === "sos" && s.count === 1),
    );
    assert.ok(
      stats.list.some((s) => s.imei === DEV2 && s.alertType === "vibration" && s.count === 1),
    );
  }],
  [
    "track details: every point, paged in time order, positioning filter",
    async (f, api) => {
      const body = { ...request(f, {}, [DEV1, DEV2]), pageSize: 10 };
      const first = await rows(api, "trackDetails", body);
      // DEV1 sent 105 locations and an alarm fix; DEV2 11 and an alarm fix.
      assert.ok(first.total >= 116, String(first.total));
      assertShape("trackDetails", first.list);
      const pages: Row[] = [];
      for (let n = 1; (n - 1) * 50 < first.total; n++) {
        pages.push(
          ...(await rows(api, "trackDetails", { ...body, pageNum: n, pageSize: 50 })).list,
        );
      }
      assert.equal(pages.length, first.total);
      const times = pages.map((p) => Date.parse(String(p.time)));
      assert.deepEqual(times, [...times].sort((a, b) => a - b));
      assert.deepEqual(pages.slice(0, 10).map((p) => p.time), first.list.map((p) => p.time));
      assert.equal(
        (await rows(api, "trackDetails", { ...body, positioning: "gps" })).total,
        first.total,
      );
      assert.equal((await rows(api, "trackDetails", { ...body, positioning: "lbs" })).total, 0);
    },
  ],
  ["vehicle status", async (f, api) => {
    const r = await rows(api, "vehicleStatus", request(f));
    assert.equal(r.total, 2);
    assertShape("vehicleStatus", r.list);
    const v1 = r.list.find((v) => v.imei === DEV1)!;
    near(v1.distance, 12.53, 0.5, "status distance");
    assert.ok(Number(v1.parkingTime) >= 10 * 60, JSON.stringify(v1));
    assert.ok(String(v1.address).length > 0);
  }],
  ["overviews", async (f, api) => {
    const dev = await api.call("/v3/new/report/overview/device", {});
    assert.equal(dev.total, 2);
    assert.equal(dev.online + dev.offline + dev.inactive, 2);
    assert.equal(dev.activation.activated, 2);
    const range = { startTime: request(f).startTime, endTime: request(f).endTime };
    const moving = await api.call("/v3/new/report/overview/moving", range);
    assert.equal(moving.devices, 2);
    assert.equal(moving.distanceRanking[0].imei, DEV1);
    near(moving.distance, 12.53, 0.5, "overview distance");
    assert.ok(moving.perDay.some((d: Row) => d.trips === 1));
    const alerts = await api.call("/v3/new/report/overview/alert", range);
    assert.ok(alerts.total >= 2);
    assert.ok(alerts.byType.some((b: Row) => b.alertType === "sos" && b.count === 1));
    assert.equal(
      alerts.perDay.reduce((n: number, d: Row) => n + Number(d.total), 0),
      alerts.total,
    );
  }],
  ["visibility: a sibling's IMEI refuses the whole query", async (f, api) => {
    for (const name of REPORT_NAMES) {
      for (const imeis of [[DEV1, DEV_B], [DEV1, "359710049999999"]]) {
        const r = await api.raw(`/v3/new/report/${name}`, request(f, {}, imeis));
        assert.equal(
          r.code,
          CATALOGUE.deviceNoPermission,
          `${name} ${imeis}: ${JSON.stringify(r)}`,
        );
      }
    }
    const sibling = await f.api.distB.raw("/v3/new/report/trips", request(f, {}, [DEV1]));
    assert.equal(sibling.code, CATALOGUE.deviceNoPermission);
    const overview = await f.api.distB.raw("/v3/new/report/overview/moving", {
      imeis: [DEV1],
      startTime: request(f).startTime,
      endTime: request(f).endTime,
    });
    assert.equal(overview.code, CATALOGUE.deviceNoPermission);
    assert.equal((await f.api.distB.call("/v3/new/report/overview/device", {})).total, 1);
  }],
  [
    "viewReportFlag 0 is refused; a virtual account reads its master's",
    async (f) => {
      for (const path of ["/v3/new/report/trips", "/v3/new/report/overview/device"]) {
        const r = await f.api.noReports.raw(path, path.endsWith("device") ? {} : request(f));
        assert.equal(r.code, CATALOGUE.permissionDenied, `${path}: ${JSON.stringify(r)}`);
      }
      const v = await rows(f.api.virtualA, "trips", request(f));
      assert.equal(v.total, 1);
      const refused = await f.api.virtualA.raw("/v3/new/report/trips", request(f, {}, [DEV_B]));
      assert.equal(refused.code, CATALOGUE.deviceNoPermission);
    },
  ],
  ["range and body rules", async (f, api) => {
    const now = Date.now();
    const at = (ms: number) => new Date(ms).toISOString();
    const cases: [Record<string, unknown>, number][] = [
      [{ startTime: at(now - MIN), endTime: at(now - 2 * MIN) }, CATALOGUE.startAfterEnd],
      [
        { startTime: at(now + 10 * MIN), endTime: at(now + 20 * MIN) },
        CATALOGUE.reportStartInFuture,
      ],
      [
        { startTime: at(now - 200 * 86_400_000), endTime: at(now - 199 * 86_400_000) },
        CATALOGUE.reportBeyondLookback,
      ],
      [
        { startTime: at(now - 8 * 86_400_000), endTime: at(now) },
        CATALOGUE.playbackRangeTooLong,
      ],
      [{ startTime: "yesterday" }, CATALOGUE.illegalParameter],
      [{ positioning: "gsm" }, CATALOGUE.illegalParameter],
      [{ imeis: [] }, CATALOGUE.illegalParameter],
      [
        { imeis: Array.from({ length: 201 }, (_, i) => String(359710040000000 + i)) },
        CATALOGUE.illegalParameter,
      ],
      [{ extra: 1 }, CATALOGUE.illegalParameter],
    ];
    for (const [change, code] of cases) {
      const r = await api.raw("/v3/new/report/trackDetails", { ...request(f), ...change });
      assert.equal(r.code, code, `${JSON.stringify(change)} → ${JSON.stringify(r)}`);
      assert.ok(r.msg.length > 0);
    }
    // Trips may span 92 days, parking 31.
    const long = { startTime: at(now - 60 * 86_400_000), endTime: at(now) };
    assert.equal(
      (await api.raw("/v3/new/report/trips", { ...request(f), ...long })).code,
      CATALOGUE.success,
    );
    assert.equal(
      (await api.raw("/v3/new/report/parking", { ...request(f), ...long })).code,
      CATALOGUE.playbackRangeTooLong,
    );
  }],
];

Deno.test({
  name: "report API: every report over simulated devices, visibility and range rules",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async (t) => {
    const server = await startServer({ ADMIN_PASSWORD });
    try {
      const f = await buildFleet(server, ADMIN_PASSWORD);
      for (const [name, step] of STEPS) await t.step(name, () => step(f, f.api.distA));
    } finally {
      await server.stop();
    }
  },
});
