/**
 * `deno task bench:fleet [devices] [routes] [legs] [seconds]` — the cost of the route
 * deviation check per position, in process: `devices` vehicles (default 10,000) at 1 Hz, bound
 * to `routes` planned routes (1,000) of `legs` legs (50, about 1 km each, random walks across a
 * 400 km square), `devices / routes` vehicles per route. Each vehicle drives along its route with
 * up to 60 m of lateral noise; one in ten wanders 400-600 m off for 80 s and back, so deviation and
 * return alerts are raised too. Every fix goes through the same CorridorWatch.observe the alert
 * engine calls (modules/fleet/paths_watch.ts). Reports µs per position and the share of one
 * `bench:ingest` saturated position's server time (ingest ~38,000 positions/s on this machine,
 * docs/performance.md, 2026-11-26) the check adds; also the brute-force variant without the
 * leg grid, for comparison.
 */
import process from "node:process";
import { corridor } from "../../modules/fleet/paths_geometry.ts";
import type { PlannedRoute, RoutePoint } from "../../modules/fleet/paths_model.ts";
import { CorridorWatch } from "../../modules/fleet/paths_watch.ts";

const DEVICES = Number(Deno.args[0] ?? 10_000);
const ROUTES = Number(Deno.args[1] ?? 1_000);
const LEGS = Number(Deno.args[2] ?? 50);
const SECONDS = Number(Deno.args[3] ?? 120);
/** bench:ingest saturation on this machine (positions/s), for the share. */
const INGEST_SATURATION = Number(Deno.env.get("INGEST_SATURATION") ?? 38_000);

/** A deterministic random sequence, so runs compare. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (s * 1_664_525 + 1_013_904_223) >>> 0) / 2 ** 32);
}
const rand = rng(42);

const M_LAT = 111_195;
function move(p: RoutePoint, eastM: number, northM: number): RoutePoint {
  return {
    lat: p.lat + northM / M_LAT,
    lng: p.lng + eastM / (M_LAT * Math.cos((p.lat * Math.PI) / 180)),
  };
}

function makeRoute(i: number): PlannedRoute {
  let p = move({ lat: 22.5, lng: 114 }, rand() * 400_000 - 200_000, rand() * 400_000 - 200_000);
  let heading = rand() * 2 * Math.PI;
  const line = [p];
  for (let k = 0; k < LEGS; k++) {
    heading += (rand() - 0.5) * 1.2;
    p = move(p, Math.cos(heading) * 1000, Math.sin(heading) * 1000);
    line.push(p);
  }
  return {
    id: `r${i}`,
    accountId: "1",
    name: `Route ${i}`,
    points: [line[0], line[line.length - 1]],
    line,
    lineKind: "road",
    lengthM: LEGS * 1000,
    offset: 100,
    weekdays: [1, 2, 3, 4, 5, 6, 7],
    startTime: "00:00",
    endTime: "23:59",
    timeZone: "Asia/Shanghai",
    minOffMinutes: 1,
    imeis: [],
    createdAt: "",
    updatedAt: "",
  };
}

/** Each device's fixes, SECONDS of them at 1 Hz, as lat,lng pairs. */
function makeTracks(routes: PlannedRoute[], imeis: string[]): Float64Array[] {
  return imeis.map((_, d) => {
    const line = routes[d % ROUTES].line;
    const wanders = d % 10 === 0;
    let along = rand() * (line.length - 2);
    const out = new Float64Array(SECONDS * 2);
    for (let s = 0; s < SECONDS; s++) {
      along = Math.min(line.length - 1.001, along + 15 / 1000); // 15 m/s on ~1 km legs
      const i = Math.floor(along), f = along - i;
      const a = line[i], b = line[i + 1];
      const base = { lat: a.lat + (b.lat - a.lat) * f, lng: a.lng + (b.lng - a.lng) * f };
      const lateral = wanders && s >= 10 && s < 90 // 80 s off: past minOffMinutes (1)
        ? 400 + rand() * 200
        : (rand() - 0.5) * 120;
      const p = move(base, lateral * 0.7, lateral * 0.7);
      out[s * 2] = p.lat;
      out[s * 2 + 1] = p.lng;
    }
    return out;
  });
}

function run(watch: CorridorWatch, imeis: string[], tracks: Float64Array[]) {
  const t0 = Date.UTC(2026, 10, 23, 2, 0); // 10:00 in Shanghai, inside every window
  let transitions = 0;
  const cpu0 = process.cpuUsage();
  const start = performance.now();
  for (let s = 0; s < SECONDS; s++) {
    for (let d = 0; d < imeis.length; d++) {
      const tr = tracks[d];
      const found = watch.observe(imeis[d], tr[s * 2], tr[s * 2 + 1], t0 + s * 1000);
      if (found) transitions += found.length;
    }
  }
  const ms = performance.now() - start;
  const cpu = process.cpuUsage(cpu0);
  const n = SECONDS * imeis.length;
  return {
    usPerPosition: (cpu.user + cpu.system) / n,
    wallUsPerPosition: (ms * 1000) / n,
    transitions,
  };
}

const routes = Array.from({ length: ROUTES }, (_, i) => makeRoute(i));
const imeis = Array.from({ length: DEVICES }, (_, d) => `86400${String(d).padStart(10, "0")}`);
for (const [d, imei] of imeis.entries()) routes[d % ROUTES].imeis.push(imei);
const tracks = makeTracks(routes, imeis);

const build0 = performance.now();
const watch = new CorridorWatch();
for (const r of routes) watch.set(r);
const buildMs = performance.now() - build0;

// The same routes without the leg grid: a scan of every leg after the bounding box.
const flat = new CorridorWatch();
for (const r of routes) flat.set(r);
for (const r of routes) {
  const c = (flat as unknown as { routes: Map<string, { watched: { corridor: unknown } }> })
    .routes.get(r.id)!.watched;
  c.corridor = { ...corridor(r.line, r.offset), grid: null };
}

run(watch, imeis, tracks); // warm-up (JIT, clock cache)
const results = [];
for (let i = 0; i < 3; i++) results.push(run(watch, imeis, tracks));
const flatResult = run(flat, imeis, tracks);
const median = results.map((r) => r.usPerPosition).sort((a, b) => a - b)[1];
const ingestUs = 1e6 / INGEST_SATURATION;

console.log(
  `bench:fleet — ${DEVICES} devices at 1 Hz, ${ROUTES} routes × ${LEGS} legs, ${SECONDS} s`,
);
console.log(`  corridor index built in ${buildMs.toFixed(0)} ms`);
console.log(
  `  check per position (grid): ${
    results.map((r) => r.usPerPosition.toFixed(3)).join(" / ")
  } µs CPU (median ${median.toFixed(3)} µs; wall ${
    results.map((r) => r.wallUsPerPosition.toFixed(3)).join(" / ")
  } µs), ${results[0].transitions} transitions per run`,
);
console.log(
  `  check per position (no leg grid: box, last leg, then every leg): ${
    flatResult.usPerPosition.toFixed(3)
  } µs`,
);
console.log(
  `  at 1 Hz: ${(median * DEVICES / 1e4).toFixed(2)} % of one core for ${DEVICES} devices`,
);
console.log(
  `  vs bench:ingest saturation (${INGEST_SATURATION}/s = ${
    ingestUs.toFixed(1)
  } µs per position): +${(median / ingestUs * 100).toFixed(2)} %`,
);
