/**
 * `deno task bench:reports` — reports over months of data, read from the motion analysis.
 *
 * 1. Generates `--devices` devices × `--days` days of positions every `--interval` s (200 × 31
 *    at 30 s ≈ 17.9 M points) through the store API, as the gateway would leave them: each
 *    device-day's points written to the position store (PositionStore.importHistory) and
 *    handed to the motion engine as the pipeline does ("positionsCommitted"), the engine
 *    flushing as it runs. A day: parked overnight (ACC off, GPS drift), 3-6 trips with idling
 *    before each, parking between, an overspeed burst in some. The two months before get copies
 *    of the generated day summaries (so that three months of daily mileage are real records).
 * 2. Times, in process, through the MotionReader (modules/motion/reader.ts): trips of every
 *    device over the month (the full total, and the first page of 20 by start time), daily
 *    summaries of every device over three months.
 * 3. Starts the product on the same data (a real server process on loopback) and times the
 *    report API: POST /v3/new/report/trips (first page of 20 and its total, and the last page)
 *    and /v3/new/report/mileage {view: "day"} over three months; and the fuel reports (issue
 *    21) over the month: each device's fuel level (tests/bench/fuel_days.ts) written through the
 *    sensor store as the recorder leaves it and compacted, timed per trip, per day, fuel daily
 *    and refuelling.
 *
 * `--keep DIR` keeps the data in DIR; `--reuse DIR` skips generation and times DIR's data.
 */
import { loadConfig } from "../../lib/config.ts";
import { compose, type Services } from "../../app/compose.ts";
import { ensureAdministrator } from "../../modules/accounts/bootstrap.ts";
import type { StoredPosition } from "../../modules/devices/model.ts";
import { MotionStore } from "../../modules/motion/store.ts";
import { addDays, DAY_MS, dayOf, dayStart } from "../../modules/motion/days.ts";
import type { DaySummary } from "../../modules/motion/types.ts";
import { startServer } from "../helpers/server.ts";
import { DeviceDays } from "./vehicle_days.ts";
import { FuelDays } from "./fuel_days.ts";
import { SensorStore } from "../../modules/sensors/store.ts";

const opt: Record<string, string | undefined> = {
  devices: "200",
  days: "31",
  interval: "30",
  concurrency: "4",
  runs: "5",
  keep: undefined,
  reuse: undefined,
};
for (let i = 0; i < Deno.args.length; i += 2) {
  const name = Deno.args[i].replace(/^--/, "");
  if (!(name in opt)) throw new Error(`unknown option --${name}`);
  opt[name] = Deno.args[i + 1];
}
const DEVICES = Number(opt.devices), DAYS = Number(opt.days), INTERVAL_S = Number(opt.interval);
const PASSWORD = "Admin12345";
/** The generated month ends with yesterday (UTC). */
const LAST_DAY = addDays(dayOf(Date.now()), -1);
const FIRST_DAY = addDays(LAST_DAY, -(DAYS - 1));
const FROM = dayStart(FIRST_DAY), TO = dayStart(LAST_DAY) + DAY_MS - 1;
/** Three months of daily mileage end with the generated month. */
const MILEAGE_FROM = dayStart(addDays(LAST_DAY, -91));
const imeiOf = (i: number) => `86200${String(i).padStart(10, "0")}`;
const IMEIS = Array.from({ length: DEVICES }, (_, i) => imeiOf(i));

const dir = opt.reuse ?? opt.keep ?? await Deno.makeTempDir({ prefix: "tp-bench-reports-" });
if (opt.keep) await Deno.mkdir(dir, { recursive: true });
const config = loadConfig({ DATA_DIR: dir, ADMIN_PASSWORD: PASSWORD, ALERT_ENGINE: "off" });

// ---- generation --------------------------------------------------------------------------------

async function generate(): Promise<void> {
  const kv = await Deno.openKv(`${dir}/tracking.kv`);
  const s = await compose(kv, config);
  await ensureAdministrator(s.accountStore, PASSWORD);
  const adminId = (await s.accountStore.findIdByLogin("admin"))!;
  const now = new Date().toISOString();
  await s.deviceStore.insertMany(IMEIS.map((imei, i) => ({
    imei,
    mcType: "GT06N",
    userId: adminId,
    deviceName: `Truck ${i + 1}`,
    sim: "",
    enabled: true,
    createdAt: now,
    activationTime: now,
    expiration: null,
    userExpiration: null,
    timezoneOffsetMinutes: null,
  })));
  await s.directory.load();
  const engine = s.motion.engine!;
  const sensors = new SensorStore(kv);
  let fuelReadings = 0, fuelMs = 0;
  const started = performance.now();
  let points = 0, analysisMs = 0;
  const next = { i: 0 };
  const worker = async () => {
    while (next.i < IMEIS.length) {
      const i = next.i++;
      const imei = IMEIS[i];
      const gen = new DeviceDays(i, INTERVAL_S);
      const fuel = new FuelDays();
      const month: StoredPosition[] = [];
      const fuelSeries = [], fuelEvents = [];
      for (let d = 0; d < DAYS; d++) {
        const date = addDays(FIRST_DAY, d);
        const day = gen.day(dayStart(date));
        const f = fuel.day(day);
        fuelSeries.push({ imei, series: "fuelLitres" as const, day: date, samples: f.samples });
        fuelEvents.push({ imei, day: date, events: f.events });
        fuelReadings += f.samples.length;
        const t = performance.now();
        engine.onCommitted({ type: "positionsCommitted", imei, userId: adminId, points: day });
        analysisMs += performance.now() - t;
        for (const p of day) month.push(p);
        points += day.length;
      }
      await s.positions.importHistory(imei, month);
      // The fuel readings as the sensor recorder leaves them, compacted as after midnight.
      const tf = performance.now();
      await sensors.append(
        fuelSeries,
        fuelEvents.filter((e) => e.events.length),
        new Map([[imei, { series: ["fuelLitres"], events: ["refuel"] }]]),
      );
      for (let d = 0; d < DAYS; d++) await sensors.compactDay(imei, addDays(FIRST_DAY, d));
      fuelMs += performance.now() - tf;
      if (i % 10 === 9) await engine.flush();
    }
  };
  await Promise.all(Array.from({ length: Number(opt.concurrency) }, worker));
  await engine.flush(true);
  const genSeconds = (performance.now() - started) / 1000;
  await copyEarlierMonths(s, new MotionStore(kv));
  await s.ingestor.close();
  await s.motion.close();
  kv.close();
  const bytes = (await Deno.stat(`${dir}/tracking.kv`)).size;
  console.log(
    `generated ${DEVICES} devices × ${DAYS} days at ${INTERVAL_S} s: ${
      (points / 1e6).toFixed(2)
    } M points in ${genSeconds.toFixed(0)} s (${
      (points / genSeconds / 1000).toFixed(0)
    } k points/s, of which the motion analysis ${(analysisMs / 1000).toFixed(1)} s = ${
      (analysisMs * 1e6 / points).toFixed(0)
    } ns per point); store ${(bytes / 1e6).toFixed(0)} MB`,
  );
  console.log(
    `  engine: ${engine.stats.segments} segments closed, ${engine.stats.flushes} flushes`,
  );
  console.log(
    `  fuel: ${
      (fuelReadings / 1e6).toFixed(2)
    } M level readings kept (changes, else every 5 min), written and compacted in ${
      (fuelMs / 1000).toFixed(0)
    } s`,
  );
}

/** The two months before get the generated month's summaries again (three months of rows). */
async function copyEarlierMonths(s: Services, store: MotionStore): Promise<void> {
  const copies: DaySummary[] = [];
  for (const imei of IMEIS) {
    const days = await s.motion.reader.days(imei, FROM, TO);
    for (let shift = 1; shift <= 2; shift++) {
      for (const d of days) {
        copies.push({ ...d, date: addDays(d.date, -DAYS * shift) });
      }
    }
  }
  const batch = store.newBatch();
  await store.saveDays(copies.filter((d) => d.date >= dayOf(MILEAGE_FROM)), batch);
  await batch.commit();
}

// ---- timings -----------------------------------------------------------------------------------

/** Runs `fn` `runs` times: the first (cold) and the median of the rest, in ms. */
async function timed<T>(fn: () => Promise<T>): Promise<{ first: number; median: number; r: T }> {
  const times: number[] = [];
  let r!: T;
  for (let i = 0; i < Number(opt.runs); i++) {
    const t = performance.now();
    r = await fn();
    times.push(performance.now() - t);
  }
  const rest = times.slice(1).sort((a, b) => a - b);
  return { first: times[0], median: rest[Math.floor(rest.length / 2)] ?? times[0], r };
}

const fmt = (x: { first: number; median: number }) =>
  `first ${x.first.toFixed(0)} ms, median ${x.median.toFixed(0)} ms`;

async function timeReader(): Promise<void> {
  const kv = await Deno.openKv(`${dir}/tracking.kv`);
  const s = await compose(kv, config);
  const reader = s.motion.reader;
  try {
    const trips = await timed(async () => {
      const lists = await Promise.all(IMEIS.map((i) => reader.segments("trip", i, FROM, TO)));
      const all = lists.flat();
      const page = all.sort((a, b) => a.start - b.start).slice(0, 20);
      return { total: all.length, page: page.length };
    });
    console.log(
      `MotionReader trips, ${DEVICES} devices × ${DAYS} days: ${trips.r.total} trips, first page ` +
        `of ${trips.r.page}: ${fmt(trips)} (target ≤ 1 s)`,
    );
    const days = await timed(async () => {
      const lists = await Promise.all(IMEIS.map((i) => reader.days(i, MILEAGE_FROM, TO)));
      return lists.reduce((n, l) => n + l.length, 0);
    });
    console.log(
      `MotionReader daily summaries, ${DEVICES} devices × 3 months: ${days.r} rows: ${
        fmt(days)
      } (target ≤ 500 ms)`,
    );
  } finally {
    await s.ingestor.close();
    await s.motion.close();
    kv.close();
  }
}

async function timeApi(): Promise<void> {
  const server = await startServer(
    { ADMIN_PASSWORD: PASSWORD, ALERT_ENGINE: "off" },
    { dataDir: dir },
  );
  try {
    const login = await fetch(`${server.url}/v3/new/account/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ account: "admin", password: PASSWORD }),
    }).then((r) => r.json());
    const token = login.data.token;
    const post = async (path: string, body: unknown) => {
      const res = await fetch(`${server.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      });
      const json = await res.json();
      if (json.code !== 10000) throw new Error(`${path}: ${JSON.stringify(json).slice(0, 300)}`);
      return json.data as { total: number; list: unknown[] };
    };
    // The server's first report (code compiled, place dataset loaded) is not what is timed.
    const warm = performance.now();
    await post("/v3/new/report/trips", {
      imeis: [IMEIS[0]],
      startTime: new Date(TO - DAY_MS).toISOString(),
      endTime: new Date(TO).toISOString(),
      pageNum: 1,
      pageSize: 20,
    });
    console.log(`API warm-up (one device, one day): ${(performance.now() - warm).toFixed(0)} ms`);
    const range = (from: number) => ({
      imeis: IMEIS,
      startTime: new Date(from).toISOString(),
      endTime: new Date(TO).toISOString(),
    });
    const first = await timed(() =>
      post("/v3/new/report/trips", { ...range(FROM), pageNum: 1, pageSize: 20 })
    );
    console.log(
      `API /v3/new/report/trips, ${DEVICES} devices × ${DAYS} days, page 1 of 20: total ${first.r.total}: ${
        fmt(first)
      } (target ≤ 1 s)`,
    );
    const lastPage = Math.max(1, Math.ceil(first.r.total / 20));
    const last = await timed(() =>
      post("/v3/new/report/trips", { ...range(FROM), pageNum: lastPage, pageSize: 20 })
    );
    console.log(`  last page (${lastPage}): ${fmt(last)}`);
    const mileage = await timed(() =>
      post("/v3/new/report/mileage", {
        ...range(MILEAGE_FROM),
        view: "day",
        pageNum: 1,
        pageSize: 20,
      })
    );
    console.log(
      `API /v3/new/report/mileage day view, ${DEVICES} devices × 3 months: total ${mileage.r.total}: ${
        fmt(mileage)
      } (target ≤ 500 ms)`,
    );
    await timeFuel(post, range(FROM));
  } finally {
    await server.stop();
  }
}

/** The fuel reports over the month (issue 21): per trip, per day, fuel daily, refuelling. */
async function timeFuel(
  post: (path: string, body: unknown) => Promise<{ total: number; list: unknown[] }>,
  range: { imeis: string[]; startTime: string; endTime: string },
): Promise<void> {
  const cases: [string, string, Record<string, unknown>][] = [
    ["fuelConsumption per trip", "fuelConsumption", { view: "segment" }],
    ["fuelConsumption per day", "fuelConsumption", { view: "day" }],
    ["fuelDaily", "fuelDaily", {}],
    ["refueling", "refueling", {}],
  ];
  for (const [label, name, extra] of cases) {
    const r = await timed(() =>
      post(`/v3/new/report/${name}`, { ...range, ...extra, pageNum: 1, pageSize: 20 })
    );
    // The page's litres are read from the level series: say how many rows have them.
    const litres = (r.r.list as Record<string, unknown>[]).filter((x) =>
      typeof (x.fuelUsed ?? x.amount) === "number"
    ).length;
    console.log(
      `API ${label}, ${DEVICES} devices × ${DAYS} days, page 1 of 20: total ${r.r.total}: ${
        fmt(r)
      }${
        name === "fuelConsumption" ? " (target ≤ 1 s)" : ""
      }; ${litres} of ${r.r.list.length} rows with litres`,
    );
  }
}

// ---- run ---------------------------------------------------------------------------------------

try {
  if (!opt.reuse) await generate();
  await timeReader();
  await timeApi();
} finally {
  if (!opt.keep && !opt.reuse) await Deno.remove(dir, { recursive: true });
}
