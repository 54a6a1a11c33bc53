import assert from "node:assert/strict";
import type { StoredPosition } from "../devices/model.ts";
import { packBlock } from "./codec.ts";
import { blockJson, pointsJson } from "./json.ts";

const decode = (b: Uint8Array) => new TextDecoder().decode(b);

/** What the writer must produce: JavaScript's own printing of the rounded values. */
function expected(p: StoredPosition): string {
  const round = (v: number, scale: number) => {
    const r = Math.round(v * scale) / scale;
    return Number.isFinite(r) ? String(r) : "null";
  };
  const num = (v: number) => (Number.isFinite(v) ? String(v) : "null");
  return `{"gpsTime":"${new Date(p.time).toISOString()}","lat":${round(p.lat, 1e6)},"lng":${
    round(p.lng, 1e6)
  },"speed":${round(p.speed, 10)},"course":${num(p.course)},"altitude":${
    round(p.altitude, 10)
  },"posType":${num(p.posType)},"acc":${p.acc},"satellites":${num(p.satellites)},"mileage":${
    p.mileage === null ? "null" : round(p.mileage, 100)
  }}`;
}

function point(i: number, over: Partial<StoredPosition> = {}): StoredPosition {
  return {
    time: Date.UTC(2026, 0, 1) + i * 7_777,
    lat: 22.5 + i / 1e7,
    lng: 114.05 - i / 3e6,
    speed: (i * 1.37) % 120,
    course: (i * 7) % 360,
    altitude: 20 - i / 10,
    satellites: i % 15,
    posType: 1,
    valid: true,
    acc: i % 3 === 0 ? null : i % 3 === 1,
    mileage: i % 5 === 0 ? null : 1000 + i * 0.017,
    battery: 90,
    signal: 4,
    attributes: {},
    ...over,
  };
}

/** Values where printing goes wrong easily: signs, zeros, halves, carries, tiny and huge. */
const EDGE_CASES: Partial<StoredPosition>[] = [
  { lat: 0, lng: -0, speed: 0, altitude: -0, mileage: 0 },
  { lat: -0.0000004, lng: 0.0000005, speed: 0.04, altitude: -0.05, mileage: 0.004 },
  { lat: -33.8688, lng: 151.2093, speed: 99.95, altitude: -12.34, mileage: 0.005 },
  { lat: 89.9999995, lng: -179.9999995, speed: 0.05, altitude: 8848.86, mileage: 1e9 + 0.015 },
  { lat: 1.000001, lng: -1.0000001, speed: 10, altitude: 100, mileage: 123456.7 },
  { lat: 12.3, lng: 45.000010, speed: 1234.5, altitude: 0.1, mileage: 99.999 },
  { course: 359.5, satellites: 0, posType: 3, mileage: 5e15 },
  { time: Date.UTC(1969, 11, 31, 23, 59, 59, 999), acc: true },
  { time: Date.UTC(2030, 1, 28, 23, 59, 59, 7), acc: false },
  { time: 0, mileage: null },
  { time: 86_399_999 },
];

Deno.test("playback JSON: each point prints as JavaScript prints its rounded values", () => {
  const random = (lo: number, hi: number) => lo + Math.random() * (hi - lo);
  const points = [
    ...Array.from({ length: 3000 }, (_, i) => point(i)),
    ...EDGE_CASES.map((over, i) => point(i, over)),
    ...Array.from({ length: 5000 }, (_, i) =>
      point(i, {
        time: Math.floor(random(0, 4e12)),
        lat: random(-90, 90),
        lng: random(-180, 180),
        speed: random(0, 300),
        altitude: random(-500, 9000),
        mileage: random(0, 1e7),
      })),
  ];
  for (const p of points) assert.equal(decode(pointsJson([p])), expected(p), JSON.stringify(p));
  const all = decode(pointsJson(points));
  assert.equal(all, points.map(expected).join(","));
  assert.equal(JSON.parse(`[${all}]`).length, points.length);
});

Deno.test("playback JSON: numbers JSON cannot hold become null, never NaN", () => {
  const bad = point(1, { lat: NaN, lng: Infinity, speed: -Infinity, course: NaN });
  const parsed = JSON.parse(decode(pointsJson([bad])));
  assert.equal(parsed.lat, null);
  assert.equal(parsed.lng, null);
  assert.equal(parsed.speed, null);
  assert.equal(parsed.course, null);
});

Deno.test("playback JSON: a block gives its points within the range, empty when none", () => {
  const points = Array.from({ length: 500 }, (_, i) => point(i));
  const block = packBlock(points, points.map(() => ""));
  const whole = decode(blockJson(block, -Infinity, Infinity));
  // The block stores course as an integer and speed and altitude as 32-bit floats.
  const stored = points.map((p) => ({
    ...p,
    course: Math.trunc(p.course),
    speed: Math.fround(p.speed),
    altitude: Math.fround(p.altitude),
  }));
  assert.equal(whole, stored.map(expected).join(","));
  const from = points[100].time, to = points[199].time;
  const part = JSON.parse(`[${decode(blockJson(block, from, to))}]`);
  assert.equal(part.length, 100);
  assert.equal(part[0].gpsTime, new Date(from).toISOString());
  assert.equal(blockJson(block, 0, 1).length, 0);
  assert.equal(pointsJson([]).length, 0);
});
