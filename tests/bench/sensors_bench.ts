/**
 * `deno task bench:sensors [devices] [reports]` — the sensor store (issue 21, S1), on a real
 * KV file:
 *
 *   1. write: a fleet's reports (default 10,000 devices × 60 reports, 10 s apart: ten minutes)
 *      each with fuel, two temperature probes, supply volts, rpm, coolant and battery, through
 *      the recorder (extraction, the unchanged-value rule) and appended to KV;
 *   2. read: 200 devices × 31 days of fuel (a reading a minute while driving 8 h a day, an
 *      unchanged level every 5 minutes otherwise), compacted into day blocks, read back per
 *      device as the fuel reports do (8 devices at a time).
 */
import type { StoredPosition } from "../../modules/devices/model.ts";
import { SensorReadings } from "../../modules/sensors/reader.ts";
import { SensorRecorder } from "../../modules/sensors/recorder.ts";
import { SensorStore } from "../../modules/sensors/store.ts";
import type { SensorSample } from "../../modules/sensors/types.ts";
import { dayOf } from "../../modules/sensors/codec.ts";
import { detectFuelChanges } from "../../modules/sensors/fuel_events.ts";

const DEVICES = Number(Deno.args[0] ?? 10_000);
const REPORTS = Number(Deno.args[1] ?? 60);
const READ_DEVICES = 200;
const DAYS = 31;
const MIN = 60_000;
const DAY = 86_400_000;

const dir = await Deno.makeTempDir({ prefix: "sensors_bench_" });
const kv = await Deno.openKv(`${dir}/kv.sqlite3`);
const store = new SensorStore(kv);
const imei = (i: number) => `86200000${String(i).padStart(7, "0")}`;
const fmt = (n: number) => Math.round(n).toLocaleString("en");

function report(i: number, k: number, t: number): StoredPosition {
  return {
    time: t,
    lat: 22.5 + i * 1e-4,
    lng: 114 + k * 1e-4,
    speed: 40,
    course: 0,
    altitude: 0,
    satellites: 9,
    posType: 1,
    valid: true,
    acc: true,
    mileage: null,
    battery: 90,
    signal: 4,
    attributes: {
      fuel: Math.round((100 - k * 0.05 - (i % 7)) * 10) / 10,
      temp1: -18 + (k % 4) * 0.1,
      temp2: 24 + (i % 3),
      power: 13.8,
      rpm: 1500 + (k % 5) * 20,
      coolantTemp: 88 + (k % 2),
    },
  };
}

// ---- 1. write -------------------------------------------------------------------------------
{
  const start = Date.UTC(2026, 9, 1, 8, 0, 0);
  const recorder = new SensorRecorder({
    store,
    tanks: () => Promise.resolve([]),
    now: () => start,
    flushAgeMs: Infinity,
  });
  const t0 = performance.now();
  for (let k = 0; k < REPORTS; k++) {
    const t = start + k * 10_000;
    for (let i = 0; i < DEVICES; i++) {
      recorder.onCommitted({
        type: "positionsCommitted",
        imei: imei(i),
        userId: "u",
        points: [report(i, k, t)],
      });
    }
  }
  const taken = performance.now() - t0;
  const t1 = performance.now();
  await recorder.stop();
  const stored = performance.now() - t1;
  const reports = DEVICES * REPORTS;
  console.log(
    `write: ${fmt(reports)} reports (${fmt(DEVICES)} devices × ${REPORTS}) → ` +
      `${fmt(recorder.stats.samples)} samples kept; taken in ${fmt(taken)} ms ` +
      `(${fmt(reports / (taken / 1000))} reports/s), appended in ${fmt(stored)} ms ` +
      `(${fmt(recorder.stats.parts)} parts, ${
        fmt(recorder.stats.samples / (stored / 1000))
      } samples/s)`,
  );
}

// ---- 1b. refuel/drain checks: each device's 3-hour window (10 s levels) once a minute ------
{
  const window = Array.from({ length: 1080 }, (_, k) => ({
    time: k * 10_000,
    litres: 80 - k * 0.01 + (k % 3) * 0.3 +
      (k > 730 && k < 735 ? (k - 730) * 10 : k >= 735 ? 50 : 0),
    speed: k % 200 < 120 ? 40 : 0,
  }));
  const t0 = performance.now();
  let found = 0;
  for (let i = 0; i < DEVICES; i++) found += detectFuelChanges(window).length;
  const ms = performance.now() - t0;
  console.log(
    `fuel checks: ${fmt(DEVICES)} devices × 1,080-level windows in ${fmt(ms)} ms ` +
      `(${found / DEVICES} change each; run once a minute per device)`,
  );
}

// ---- 2. read a month of fuel ------------------------------------------------------------------
const monthStart = Date.UTC(2026, 9, 1);
{
  const t0 = performance.now();
  let samples = 0;
  for (let d = 0; d < READ_DEVICES; d++) {
    const days = [];
    for (let day = 0; day < DAYS; day++) {
      const list = fuelDay(monthStart + day * DAY, d);
      samples += list.length;
      days.push({
        imei: imei(d),
        series: "fuelLitres" as const,
        day: dayOf(monthStart + day * DAY),
        samples: list,
      });
    }
    await store.append(days, [], new Map([[imei(d), { series: ["fuelLitres"], events: [] }]]));
  }
  const recorder = new SensorRecorder({
    store,
    tanks: () => Promise.resolve([]),
    now: () => monthStart + (DAYS + 1) * DAY,
  });
  const compacted = await recorder.compact();
  console.log(
    `month: ${fmt(samples)} fuel samples of ${READ_DEVICES} devices × ${DAYS} days written and ` +
      `${fmt(compacted)} device-days compacted in ${fmt(performance.now() - t0)} ms`,
  );
}
const reader = new SensorReadings(store);
for (const round of [1, 2, 3]) {
  const t0 = performance.now();
  let n = 0;
  let next = 0;
  await Promise.all(Array.from({ length: 8 }, async () => {
    while (next < READ_DEVICES) {
      const d = next++;
      const list = await reader.series(imei(d), "fuelLitres", monthStart, monthStart + DAYS * DAY);
      n += list.length;
    }
  }));
  console.log(
    `read ${round}: ${READ_DEVICES} devices × ${DAYS} days of fuel = ${fmt(n)} samples in ` +
      `${fmt(performance.now() - t0)} ms`,
  );
}

for (const round of [1, 2, 3]) {
  const t0 = performance.now();
  let n = 0;
  let next = 0;
  await Promise.all(Array.from({ length: 8 }, async () => {
    while (next < READ_DEVICES) {
      const d = next++;
      const c = await reader.seriesColumns(
        imei(d),
        "fuelLitres",
        monthStart,
        monthStart + DAYS * DAY,
      );
      n += c.length;
    }
  }));
  console.log(
    `columns ${round}: ${READ_DEVICES} devices × ${DAYS} days of fuel = ${fmt(n)} samples in ` +
      `${fmt(performance.now() - t0)} ms`,
  );
}

kv.close();
await Deno.remove(dir, { recursive: true });

/** One day of a device's kept fuel readings: a minute apart over 8 h of driving, else 5. */
function fuelDay(day: number, d: number): SensorSample[] {
  const out: SensorSample[] = [];
  let level = 110 - (d % 20);
  for (let m = 0; m < 1440; m++) {
    const driving = m >= 7 * 60 && m < 15 * 60;
    if (driving) level -= 0.12;
    if (!driving && m % 5 !== 0) continue;
    out.push({
      time: day + m * MIN,
      value: Math.round(level * 10) / 10,
      index: 0,
      lat: 22.5,
      lng: 114,
    });
  }
  return out;
}
