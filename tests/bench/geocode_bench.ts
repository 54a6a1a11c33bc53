/**
 * `deno task bench:geocode` — the embedded reverse geocoder (modules/geocoder): load time of
 * the GeoNames dataset, then nearest-place lookups per second and µs per point on one core,
 * for points where a fleet drives (around Shenzhen and across Europe), for random points over
 * the whole globe (mostly sea: the k-d tree's slowest case), and for the full address line.
 */
import { loadPlaces } from "../../modules/geocoder/places.ts";
import { Geocoder } from "../../modules/geocoder/service.ts";

const N = 1_000_000;
let seed = 42;
const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;

const t0 = performance.now();
const places = await loadPlaces();
const loadMs = performance.now() - t0;
console.log(`dataset: ${places.size} places loaded and indexed in ${loadMs.toFixed(0)} ms`);

const fleet = Array.from(
  { length: 10_000 },
  (_, i) =>
    i % 2
      ? [22.4 + rnd() * 0.4, 113.8 + rnd() * 0.5] // Shenzhen
      : [45 + rnd() * 10, 0 + rnd() * 20],
); // Europe
const globe = Array.from({ length: 10_000 }, () => [rnd() * 140 - 60, rnd() * 360 - 180]);

function run(label: string, pts: number[][], n: number, fn: (lat: number, lng: number) => unknown) {
  for (let i = 0; i < 20_000; i++) fn(pts[i % pts.length][0], pts[i % pts.length][1]);
  const start = performance.now();
  for (let i = 0; i < n; i++) fn(pts[i % pts.length][0], pts[i % pts.length][1]);
  const ms = performance.now() - start;
  console.log(
    `${label.padEnd(34)} ${Math.round(n / (ms / 1000)).toLocaleString("en")} lookups/s  ` +
      `${(ms * 1000 / n).toFixed(2)} µs/point`,
  );
}

run("nearest place, fleet points", fleet, N, (a, b) => places.nearestPosition(a, b));
run("nearest place, random on the globe", globe, N / 4, (a, b) => places.nearestPosition(a, b));
const geocoder = new Geocoder({
  landmarks: { landmarksOf: () => [] },
  loadIndex: () => Promise.resolve(places),
});
await geocoder.ready();
run(
  "address line (en), fleet points",
  fleet,
  N / 4,
  (a, b) => geocoder.describeNow(a, b, "u", "en"),
);
