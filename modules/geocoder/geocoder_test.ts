import assert from "node:assert/strict";
import { type TestApp, testApp } from "../../tests/helpers/harness.ts";
import { accountWithDevices } from "../../tests/helpers/alerting.ts";
import { loadConfig } from "../../lib/config.ts";
import type { Position } from "../gateway/protocols/types.ts";
import { haversine, loadPlaces, PlaceIndex } from "./places.ts";
import { Geocoder } from "./service.ts";
import { nearLine } from "./text.ts";
import type { Address } from "./types.ts";

/** Futian district's GeoNames point in Shenzhen, and Shenzhen's civic centre nearby. */
const FUTIAN = { lat: 22.52192, lng: 114.05617 };
const CIVIC_CENTRE = { lat: 22.5431, lng: 114.0579 };
const ALEXANDERPLATZ = { lat: 52.5219, lng: 13.4132 };
/** The Pacific, about 500 km east of Hawaii's Big Island. */
const AT_SEA = { lat: 20, lng: -150 };

const places = await loadPlaces();
const noLandmarks = new Geocoder({
  landmarks: { landmarksOf: () => [] },
  loadIndex: () => Promise.resolve(places),
});

Deno.test("embedded dataset: known places in English and Chinese", async () => {
  assert.ok(places.size > 150_000, `${places.size} places`);
  const futian = await noLandmarks.describe(FUTIAN.lat, FUTIAN.lng, "u", "en");
  assert.equal(futian.text, "Futian, Shenzhen, Guangdong, China");
  assert.equal(futian.source, "place");
  assert.equal(futian.country, "CN");
  const civic = await noLandmarks.describe(CIVIC_CENTRE.lat, CIVIC_CENTRE.lng, "u", "en");
  assert.match(civic.text, /^[A-Z][a-z]+, Shenzhen, Guangdong, China$/);
  assert.ok(civic.distanceM < 1000, `${civic.distanceM} m`);
  const berlin = await noLandmarks.describe(ALEXANDERPLATZ.lat, ALEXANDERPLATZ.lng, "u", "en");
  assert.equal(berlin.text, "Berlin, State of Berlin, Germany");
  const zh = await noLandmarks.describe(FUTIAN.lat, FUTIAN.lng, "u", "zh");
  assert.equal(zh.text, "中国 Guangdong Shenzhen Futian");
});

Deno.test("embedded dataset: a point at sea names the nearest place with distance and direction", async () => {
  const sea = await noLandmarks.describe(AT_SEA.lat, AT_SEA.lng, "u", "en");
  assert.equal(sea.text, "517 km E of Hawaiian Beaches, Hawaii County, Hawaii, United States");
  assert.ok(sea.distanceM > 500_000 && sea.distanceM < 530_000);
  const zh = await noLandmarks.describe(AT_SEA.lat, AT_SEA.lng, "u", "zh");
  assert.equal(zh.text, "美国 Hawaii Hawaii County Hawaiian Beaches正东方向517公里");
  // A few km out of a town: one decimal.
  const near = places.nearest(22.6, 114.3)!;
  assert.match(nearLine(near, "en"), /^\d\.\d km (N|NE|E|SE|S|SW|W|NW) of /);
  // No fix (0, 0) and invalid points have no address rather than "Gulf of Guinea".
  assert.equal((await noLandmarks.describe(0, 0, "u", "en")).text, "");
  assert.equal(noLandmarks.describeNow(Number.NaN, 1, "u", "en"), null);
});

Deno.test("k-d tree: the nearest place equals a brute-force scan", () => {
  let seed = 7;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const records = Array.from({ length: 3000 }, (_, i) => ({
    name: `p${i}`,
    admin1: "",
    admin2: "",
    country: "XX",
    lat: rnd() * 180 - 90,
    lng: rnd() * 360 - 180,
  }));
  const idx = new PlaceIndex(records);
  for (let q = 0; q < 500; q++) {
    const lat = rnd() * 180 - 90, lng = rnd() * 360 - 180;
    let best = Infinity;
    for (const r of records) best = Math.min(best, haversine(r.lat, r.lng, lat, lng));
    assert.ok(Math.abs(idx.nearest(lat, lng)!.distanceM - best) < 0.01, `query ${lat},${lng}`);
  }
  // Across the antimeridian: 179.9 E is next to -179.9.
  const edge = new PlaceIndex([
    { name: "west", admin1: "", admin2: "", country: "XX", lat: 0, lng: -179.9 },
    { name: "far", admin1: "", admin2: "", country: "XX", lat: 0, lng: 170 },
  ]);
  assert.equal(edge.nearest(0, 179.9)!.name, "west");
});

Deno.test("embedded dataset: a lookup takes well under 50 µs", () => {
  const pts = Array.from({ length: 1000 }, (_, i) => [22.4 + (i % 37) / 90, 113.8 + (i % 41) / 80]);
  for (const [a, b] of pts) places.nearestPosition(a, b);
  const n = 20_000, t0 = performance.now();
  for (let i = 0; i < n; i++) places.nearestPosition(pts[i % 1000][0], pts[i % 1000][1]);
  const us = (performance.now() - t0) * 1000 / n;
  assert.ok(us < 50, `${us.toFixed(2)} µs per lookup`);
});

Deno.test("place search: names with accents folded, exact first", () => {
  const hits = places.search("shenzhen", 5);
  assert.equal(hits[0].name, "Shenzhen");
  assert.equal(hits[0].admin1, "Guangdong");
  assert.ok(places.search("Kopenick", 3).some((p) => p.name.includes("Köpenick")));
  assert.deepEqual(places.search("   ", 5), []);
});

Deno.test("config: GEOCODER_URL must be an http(s) address without a query", () => {
  assert.equal(loadConfig({}).GEOCODER_URL, undefined);
  assert.equal(loadConfig({}).GEOCODER_RATE, 1);
  assert.equal(
    loadConfig({ GEOCODER_URL: "http://127.0.0.1:8080/nominatim" }).GEOCODER_URL,
    "http://127.0.0.1:8080/nominatim",
  );
  assert.throws(() => loadConfig({ GEOCODER_URL: "ftp://host/" }), /GEOCODER_URL/);
  assert.throws(() => loadConfig({ GEOCODER_URL: "not a url" }), /GEOCODER_URL/);
  assert.throws(() => loadConfig({ GEOCODER_URL: "http://h/?format=xml" }), /GEOCODER_URL/);
});

async function reverse(app: TestApp, token: string, points: unknown[], userId?: string) {
  const r = await app.call("/v3/new/geocoder/reverse", { points, userId }, token);
  assert.equal(r.json.code, 10000, JSON.stringify(r.json));
  return r.json.data.list as Address[];
}

/** Feeds one located alarm through the real ingest pipeline. */
async function alarmAt(app: TestApp, imei: string, lat: number, lng: number, at: number) {
  const position: Position = {
    time: new Date(at),
    valid: true,
    latitude: lat,
    longitude: lng,
    altitude: 0,
    speed: 0,
    course: 0,
    posType: 1,
    alarm: "sos",
    attributes: {},
  };
  await app.services.ingestor.submit(app.services.directory.get(imei)!, [
    { type: "position", position },
  ]);
  await app.services.alertEngine.idle();
  await app.services.alertAddresses.idle();
}

Deno.test("geocoder API and alerts: landmarks first, then the nearest place; alerts store the address", async (t) => {
  const app = await testApp();
  const IMEI = "359710049300001", OTHER = "359710049300002";
  try {
    const a = await accountWithDevices(app, "geo_a", [IMEI]);
    const b = await accountWithDevices(app, "geo_b", [OTHER]);
    const depot = await app.call("/v3/new/geofence/save", {
      kind: "landmark",
      name: "Depot Futian",
      shape: { kind: "circle", center: FUTIAN, radius: 300 },
    }, a.token);
    assert.equal(depot.json.code, 10000, JSON.stringify(depot.json));

    await t.step("a point inside the account's landmark is 'At <landmark>'", async () => {
      const [inside, outside] = await reverse(app, a.token, [
        { lat: FUTIAN.lat + 0.001, lng: FUTIAN.lng },
        ALEXANDERPLATZ,
      ]);
      assert.equal(inside.text, "At Depot Futian");
      assert.equal(inside.source, "landmark");
      assert.equal(inside.landmarkId, depot.json.data.id);
      assert.equal(outside.text, "Berlin, State of Berlin, Germany");
      // Another account does not see a's landmark: it gets the place.
      const [forB] = await reverse(app, b.token, [FUTIAN]);
      assert.equal(forB.text, "Futian, Shenzhen, Guangdong, China");
    });

    await t.step("a device's owner's landmark names the point for a viewer above it", async () => {
      const [viaDevice] = await reverse(app, b.admin, [{ ...FUTIAN, imei: IMEI }]);
      assert.equal(viaDevice.text, "At Depot Futian");
      // An IMEI the caller cannot see does not lend its owner's landmarks.
      const [foreign] = await reverse(app, b.token, [{ ...FUTIAN, imei: IMEI }]);
      assert.equal(foreign.text, "Futian, Shenzhen, Guangdong, China");
    });

    await t.step("the zh console gets Chinese text", async () => {
      const r = await app.app.request("/v3/new/geocoder/reverse", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          authorization: `Bearer ${a.token}`,
          "x-locale": "zh",
        },
        body: JSON.stringify({ points: [{ lat: FUTIAN.lat, lng: FUTIAN.lng + 0.001 }] }),
      });
      assert.equal((await r.json()).data.list[0].text, "位于Depot Futian");
    });

    await t.step("search: the account's landmarks, then places", async () => {
      const r = await app.call("/v3/new/geocoder/search", { q: "futian", limit: 5 }, a.token);
      assert.equal(r.json.code, 10000);
      const list = r.json.data.list;
      assert.equal(list[0].kind, "landmark");
      assert.equal(list[0].name, "Depot Futian");
      assert.equal(list[0].lat, FUTIAN.lat);
      assert.ok(list.slice(1).every((h: { kind: string }) => h.kind === "place"));
      assert.ok(
        list.some((h: { text: string }) => h.text === "Futian, Shenzhen, Guangdong, China"),
      );
      const bad = await app.call("/v3/new/geocoder/search", { q: "" }, a.token);
      assert.equal(bad.json.code, 49004);
      const tooMany = await app.call("/v3/new/geocoder/reverse", {
        points: Array.from({ length: 201 }, () => FUTIAN),
      }, a.token);
      assert.equal(tooMany.json.code, 49004);
    });

    await t.step("an alarm stores where it happened: landmark, or the place", async () => {
      const t0 = Date.UTC(2026, 0, 5, 3, 0, 0);
      await alarmAt(app, IMEI, FUTIAN.lat, FUTIAN.lng, t0);
      await alarmAt(app, IMEI, ALEXANDERPLATZ.lat, ALEXANDERPLATZ.lng, t0 + 60_000);
      const stored = await app.services.alerts.query(
        { imeis: [IMEI] },
        t0 - 1,
        t0 + 120_000,
        () => true,
      );
      const byTime = new Map(stored.map((s) => [s.time, s.address]));
      assert.equal(byTime.get(t0), "At Depot Futian");
      assert.equal(byTime.get(t0 + 60_000), "Berlin, State of Berlin, Germany");
      // The alert centre answers the stored address.
      const list = await app.call("/v3/new/alarm/list", {
        imeis: [IMEI],
        startTime: new Date(t0 - 1000).toISOString(),
        endTime: new Date(t0 + 120_000).toISOString(),
      }, a.token);
      assert.ok(
        list.json.data.list.some((x: { address?: string }) => x.address === "At Depot Futian"),
      );
    });
  } finally {
    await app.close();
  }
});
