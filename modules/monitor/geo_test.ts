import assert from "node:assert/strict";
import {
  bd09ToGcj02,
  compass,
  compassBucket,
  fromDatum,
  gcj02ToBd09,
  gcj02ToWgs84,
  haversine,
  mercatorInto,
  outOfChina,
  toDatum,
  wgs84ToGcj02,
} from "./geo.ts";
import { quadKey, tileTemplates, tileUrl } from "./providers.ts";
import { gridCluster } from "./cluster.ts";
import { fromLonLat } from "ol/proj.js";

const close = (a: number, b: number, eps: number) =>
  assert.ok(Math.abs(a - b) < eps, `${a} vs ${b} (±${eps})`);

Deno.test("GCJ-02 matches the published offset for Beijing (Tiananmen)", () => {
  // Reference pair used by the common coordtransform implementations.
  const [lng, lat] = wgs84ToGcj02(116.391, 39.907);
  close(lng, 116.39724, 0.00002);
  close(lat, 39.90840, 0.00002);
});

Deno.test("GCJ-02 round trip stays within half a metre", () => {
  for (const [lng, lat] of [[114.0579, 22.5431], [121.4737, 31.2304], [104.0665, 30.5723]]) {
    const [gx, gy] = wgs84ToGcj02(lng, lat);
    assert.ok(haversine(lat, lng, gy, gx) > 100, "the offset is hundreds of metres");
    const [bx, by] = gcj02ToWgs84(gx, gy);
    assert.ok(haversine(lat, lng, by, bx) < 0.5);
  }
});

Deno.test("BD-09 ↔ GCJ-02 round trip and known Baidu offset", () => {
  const [bx, by] = gcj02ToBd09(116.404, 39.915);
  close(bx, 116.41036, 0.00005);
  close(by, 39.92134, 0.00005);
  const [gx, gy] = bd09ToGcj02(bx, by);
  close(gx, 116.404, 0.000005);
  close(gy, 39.915, 0.000005);
});

Deno.test("outside China no datum shift is applied", () => {
  assert.equal(outOfChina(13.405, 52.52), true);
  assert.deepEqual(wgs84ToGcj02(13.405, 52.52), [13.405, 52.52]);
  assert.deepEqual(toDatum("BD09", -74.006, 40.7128), [-74.006, 40.7128]);
  assert.deepEqual(toDatum("WGS84", 114.05, 22.54), [114.05, 22.54]);
});

Deno.test("toDatum/fromDatum invert each other for every datum in China", () => {
  for (const datum of ["WGS84", "GCJ02", "BD09"] as const) {
    const [x, y] = toDatum(datum, 114.0579, 22.5431);
    const [lng, lat] = fromDatum(datum, x, y);
    assert.ok(haversine(22.5431, 114.0579, lat, lng) < 1, datum);
  }
});

Deno.test("compass buckets are 45° with north for 0-22 and 338 up (spec)", () => {
  const cases: [number, string][] = [
    [0, "N"],
    [22, "N"],
    [23, "NE"],
    [67, "NE"],
    [68, "E"],
    [90, "E"],
    [180, "S"],
    [202, "S"],
    [203, "SW"],
    [270, "W"],
    [337, "NW"],
    [338, "N"],
    [359, "N"],
    [360, "N"],
    [-45, "NW"],
  ];
  for (const [course, want] of cases) assert.equal(compass(course), want, `course ${course}`);
  assert.equal(compassBucket(22.4), 0);
  assert.equal(compassBucket(22.6), 1);
});

Deno.test("Bing quadkeys and tile templates", () => {
  assert.equal(quadKey(3, 5, 3), "213");
  assert.equal(quadKey(0, 0, 1), "0");
  assert.equal(
    tileUrl("https://t{s}.example/{z}/{x}/{y}.png?q={q}&l={lang}&k={key}", 3, 5, 3, {
      lang: "zh",
      key: "a b",
    }),
    "https://t0.example/3/3/5.png?q=213&l=zh-CN&k=a%20b",
  );
});

Deno.test("tile addresses can be pointed at a local tile server per provider and type", () => {
  const env: Record<string, string> = {
    MAP_TILE_URL_OSM: "http://tiles.local/osm/{z}/{x}/{y}.png",
    MAP_TILE_URL_GOOGLE_SATELLITE: "http://tiles.local/gsat/{z}/{x}/{y}.jpg",
  };
  const t = tileTemplates((n) => env[n]);
  assert.equal(t.OpenStreetMap.standard, env.MAP_TILE_URL_OSM);
  assert.equal(t.Google.satellite, env.MAP_TILE_URL_GOOGLE_SATELLITE);
  assert.match(t.Google.standard!, /google\.com/);
  assert.match(t.Bing.hybrid!, /virtualearth/);
});

Deno.test("grid clustering groups nearby points and skips missing ones", () => {
  const xs = [0, 10, 20, 1000, NaN];
  const ys = [0, 10, 20, 1000, 5];
  const cells = gridCluster(xs, ys, 1, 64);
  assert.equal(cells.length, 2);
  const big = cells.find((c) => c.count === 3)!;
  assert.equal(big.x, 10);
  assert.equal(cells.find((c) => c.count === 1)!.first, 3);
  // Only the points inside the view, when it is given.
  const inView = gridCluster(xs, ys, 1, 64, { within: [-5, -5, 15, 15] });
  assert.deepEqual(inView.map((c) => c.count), [2]);
  // Members per class (the map's status ring).
  const byStatus = gridCluster(xs, ys, 1, 64, { classOf: [0, 3, 0, 2, 1] });
  assert.deepEqual(byStatus[0].byClass, [2, 0, 0, 1, 0, 0, 0, 0]);
  assert.deepEqual(byStatus[1].byClass, [0, 0, 1, 0, 0, 0, 0, 0]);
  // Negative coordinates fall into their own cells.
  assert.equal(gridCluster([-10, 10], [-10, 10], 1, 64).length, 2);
});

Deno.test("mercatorInto matches OpenLayers' fromLonLat in every datum", () => {
  const lng = [114.0579, -0.1276, 180, 116.397];
  const lat = [22.5431, 51.5072, 89.9, 39.909];
  for (const datum of ["WGS84", "GCJ02", "BD09"] as const) {
    const xs = new Float64Array(4), ys = new Float64Array(4);
    mercatorInto(datum, lng, lat, xs, ys);
    lng.forEach((_, i) => {
      const [x, y] = fromLonLat(toDatum(datum, lng[i], lat[i]));
      assert.ok(Math.abs(xs[i] - x) < 1e-6 && Math.abs(ys[i] - y) < 1e-6, `${datum} ${i}`);
    });
  }
});
