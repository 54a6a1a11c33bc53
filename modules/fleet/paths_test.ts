import assert from "node:assert/strict";
import { testApp } from "../../tests/helpers/harness.ts";
import { loadConfig } from "../../lib/config.ts";
import { PathStore } from "./paths_store.ts";
import { fleetAccount, offsetPoint } from "./paths_test_support.ts";

const LAT = 22.5431, LNG = 114.0579;
const IMEI = "359710049400001";
const SIBLING_IMEI = "359710049400002";

const route = (over: Record<string, unknown> = {}) => ({
  name: "Depot to port",
  points: [{ lat: LAT, lng: LNG }, offsetPoint(LAT, LNG, 5000), offsetPoint(LAT, LNG, 5000, 5000)],
  offset: 200,
  weekdays: [1, 2, 3, 4, 5],
  startTime: "07:00",
  endTime: "19:00",
  imeis: [IMEI],
  ...over,
});

Deno.test("route planning: enterprise-only, every validation rule, isolation", async (t) => {
  const app = await testApp();
  try {
    const ent = await fleetAccount(app, "paths_ent", 9, [IMEI]);
    const sibling = await fleetAccount(app, "paths_sib", 9, [SIBLING_IMEI]);

    await t.step(
      "distributors, sales and end users are refused with the spec's message",
      async () => {
        for (const [name, type] of [["paths_dist", 8], ["paths_sales", 11], ["paths_user", 12]]) {
          const acc = await fleetAccount(app, name as string, type as number);
          for (const op of ["list", "add"]) {
            const r = await app.call(
              `/v3/new/fleet/route/${op}`,
              op === "add" ? route() : {},
              acc.token,
            );
            assert.equal(r.status, 200);
            assert.equal(r.json.code, 40019, `${name} ${op}: ${JSON.stringify(r.json)}`);
            assert.match(r.json.msg, /enterprise/);
          }
        }
      },
    );

    let id = "";
    await t.step("an enterprise plans a route: straight legs, its length, defaults", async () => {
      const r = await app.call("/v3/new/fleet/route/add", route(), ent.token);
      assert.equal(r.json.code, 10000, JSON.stringify(r.json));
      id = r.json.data.id;
      const list = await app.call("/v3/new/fleet/route/list", {}, ent.token);
      assert.equal(list.json.data.total, 1);
      const saved = list.json.data.list[0];
      assert.equal(saved.lineKind, "straight");
      assert.equal(saved.minOffMinutes, 1);
      assert.deepEqual(saved.imeis, [IMEI]);
      assert.deepEqual(saved.line, saved.points);
      assert.ok(Math.abs(saved.lengthM - 10_000) < 30, String(saved.lengthM));
      assert.equal(saved.timeZone, "UTC");
    });

    await t.step("validation: length, points, window, name, devices, ranges", async () => {
      const cases: [Record<string, unknown>, number][] = [
        // 3 legs of 200 km each: 600 km > 500 km.
        [{
          points: [0, 200_000, 400_000, 600_000].map((m) => offsetPoint(LAT, LNG, m)),
          name: "far",
        }, 48102],
        [{
          points: Array.from({ length: 21 }, (_, i) => offsetPoint(LAT, LNG, i * 100)),
          name: "many",
        }, 48103],
        [{ startTime: "08:00", endTime: "08:00", name: "same" }, 48104],
        [{ name: "DEPOT TO PORT" }, 48105],
        [{ imeis: [SIBLING_IMEI], name: "foreign" }, 45013],
        [{ imeis: ["359710049499999"], name: "unknown" }, 45013],
      ];
      for (const [over, code] of cases) {
        const r = await app.call("/v3/new/fleet/route/add", route(over), ent.token);
        assert.equal(r.json.code, code, `${JSON.stringify(over).slice(0, 60)}: ${r.json.msg}`);
      }
      const invalid: Record<string, unknown>[] = [
        { offset: 5 },
        { offset: 5001 },
        { weekdays: [0] },
        { weekdays: [8] },
        { startTime: "24:00" },
        { endTime: "7:00" },
        { minOffMinutes: 0 },
        { points: [{ lat: LAT, lng: LNG }] },
        { points: [{ lat: 91, lng: 0 }, { lat: 0, lng: 0 }] },
        { name: "" },
        { name: "x".repeat(51) },
        { extra: 1 },
      ];
      for (const over of invalid) {
        const r = await app.call("/v3/new/fleet/route/add", route(over), ent.token);
        assert.notEqual(r.json.code, 10000, JSON.stringify(over));
      }
      assert.equal((await app.call("/v3/new/fleet/route/list", {}, ent.token)).json.data.total, 1);
    });

    await t.step("an overnight window is accepted; update keeps the id", async () => {
      const r = await app.call(
        "/v3/new/fleet/route/update",
        { id, ...route({ startTime: "22:00", endTime: "06:00", minOffMinutes: 5 }) },
        ent.token,
      );
      assert.equal(r.json.code, 10000, JSON.stringify(r.json));
      const saved = (await app.call("/v3/new/fleet/route/list", {}, ent.token)).json.data.list[0];
      assert.equal(saved.id, id);
      assert.equal(saved.startTime, "22:00");
      assert.equal(saved.minOffMinutes, 5);
    });

    await t.step("a sibling enterprise sees nothing and cannot change or delete", async () => {
      const list = await app.call("/v3/new/fleet/route/list", {}, sibling.token);
      assert.equal(list.json.data.total, 0);
      const upd = await app.call(
        "/v3/new/fleet/route/update",
        { id, ...route({ imeis: [] }) },
        sibling.token,
      );
      assert.equal(upd.json.code, 49003);
      const del = await app.call("/v3/new/fleet/route/delete", { ids: [id] }, sibling.token);
      assert.equal(del.json.code, 49003);
      // The administrator sees every enterprise's routes.
      const all = await app.call("/v3/new/fleet/route/list", {}, ent.admin);
      assert.equal(all.json.data.total, 1);
    });

    await t.step("the stored route reads back whole (packed line), then is deleted", async () => {
      const [stored] = await new PathStore(app.services.kv).all();
      const listed = (await app.call("/v3/new/fleet/route/list", {}, ent.token)).json.data.list[0];
      assert.equal(stored.id, id);
      assert.deepEqual(stored.line, listed.line);
      const del = await app.call("/v3/new/fleet/route/delete", { ids: [id] }, ent.token);
      assert.equal(del.json.code, 10000);
      assert.equal((await app.call("/v3/new/fleet/route/list", {}, ent.token)).json.data.total, 0);
      assert.equal((await new PathStore(app.services.kv).all()).length, 0);
    });
  } finally {
    await app.close();
  }
});

/** A stand-in for OSRM on loopback: answers a road line, or fails when asked to. */
function fakeOsrm() {
  const seen: string[] = [];
  let failing = false;
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, (req) => {
    const url = new URL(req.url);
    seen.push(url.pathname + url.search);
    if (failing) return new Response("down", { status: 503 });
    const m = url.pathname.match(/\/route\/v1\/driving\/(.+)$/);
    if (!m) return new Response("no", { status: 404 });
    const pts = m[1].split(";").map((s) => s.split(",").map(Number));
    // A road that bends: via a point 1 km north of each leg's middle.
    const coordinates: number[][] = [];
    for (let i = 0; i < pts.length - 1; i++) {
      coordinates.push(pts[i], [(pts[i][0] + pts[i + 1][0]) / 2, pts[i][1] + 0.009]);
    }
    coordinates.push(pts[pts.length - 1]);
    return Response.json({
      code: "Ok",
      routes: [{ geometry: { type: "LineString", coordinates } }],
    });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}/osrm`,
    seen,
    fail: (on: boolean) => failing = on,
    close: () => server.shutdown(),
  };
}

Deno.test("route planning: ROUTING_URL snaps the line to roads; a silent server is 'route generation failed'", async () => {
  const osrm = fakeOsrm();
  const app = await testApp({ ROUTING_URL: osrm.url });
  try {
    const ent = await fleetAccount(app, "paths_osrm", 9, [IMEI]);
    const r = await app.call("/v3/new/fleet/route/add", route(), ent.token);
    assert.equal(r.json.code, 10000, JSON.stringify(r.json));
    assert.match(
      osrm.seen[0],
      /^\/osrm\/route\/v1\/driving\/114\.057900,22\.543100;[^?]+\?overview=full&geometries=geojson$/,
    );
    const saved = (await app.call("/v3/new/fleet/route/list", {}, ent.token)).json.data.list[0];
    assert.equal(saved.lineKind, "road");
    assert.equal(saved.line.length, 5);
    assert.deepEqual(saved.points.length, 3);
    assert.ok(saved.lengthM > 10_100, String(saved.lengthM));
    // Asked for straight legs, the server is not asked.
    const straight = await app.call(
      "/v3/new/fleet/route/add",
      route({ name: "straight", snap: false }),
      ent.token,
    );
    assert.equal(straight.json.code, 10000);
    assert.equal(osrm.seen.length, 1);
    osrm.fail(true);
    const failed = await app.call("/v3/new/fleet/route/add", route({ name: "b" }), ent.token);
    assert.equal(failed.json.code, 48101);
    assert.match(failed.json.msg, /Route generation failed/);
    await osrm.close();
    const gone = await app.call("/v3/new/fleet/route/add", route({ name: "c" }), ent.token);
    assert.equal(gone.json.code, 48101);
  } finally {
    await app.close();
    await osrm.close().catch(() => {});
  }
});

Deno.test("config: ROUTING_URL must be an http(s) address without a query", () => {
  assert.equal(loadConfig({}).ROUTING_URL, undefined);
  assert.equal(
    loadConfig({ ROUTING_URL: "http://127.0.0.1:5000" }).ROUTING_URL,
    "http://127.0.0.1:5000",
  );
  assert.throws(() => loadConfig({ ROUTING_URL: "ftp://host/" }), /ROUTING_URL/);
  assert.throws(() => loadConfig({ ROUTING_URL: "http://h/?x=1" }), /ROUTING_URL/);
});
