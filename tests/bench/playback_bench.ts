/**
 * bench:playback — one device with 31 days at 10 s (≈ 268,000 points): how long the
 * playback API takes to return them, measured from a client on loopback against a real
 * server process. Target: ≤ 300 ms.
 *
 * Two devices carry the same month. The first call, for the other device, meets a server
 * that has compiled nothing yet (start-up); then the measured device's month is asked for
 * the first time (nothing of it cached: what a user opening a track meets on a running
 * server) and seven more times (its blocks' JSON cached).
 */
import { loadConfig } from "../../lib/config.ts";
import { compose } from "../../app/compose.ts";
import { ensureAdministrator } from "../../modules/accounts/bootstrap.ts";
import type { StoredPosition } from "../../modules/devices/model.ts";
import { packBlock, splitIntoBlocks } from "../../modules/positions/codec.ts";
import { blockJson } from "../../modules/positions/json.ts";
import { startServer } from "../helpers/server.ts";

const IMEI = "359710049000001";
/** Same month, asked for first so that start-up costs are not charged to IMEI's first call. */
const WARM_UP_IMEI = "359710049000002";
const DAYS = 31, INTERVAL_S = 10;
const N = (DAYS * 86_400) / INTERVAL_S;
const START = Date.UTC(2026, 9, 1);
const PASSWORD = "Admin12345";

const dir = await Deno.makeTempDir({ prefix: "tp-bench-playback-" });
/** The month's blocks, to time the JSON writer alone in this process at the end. */
let monthBlocks: ReturnType<typeof packBlock>[] = [];
{
  const kv = await Deno.openKv(`${dir}/tracking.kv`);
  const services = await compose(
    kv,
    loadConfig({ DATA_DIR: dir, ADMIN_PASSWORD: PASSWORD }),
  );
  await ensureAdministrator(services.accountStore, PASSWORD);
  const adminId = (await services.accountStore.findIdByLogin("admin"))!;
  await services.deviceStore.insertMany([IMEI, WARM_UP_IMEI].map((imei) => ({
    imei,
    mcType: "GT06N",
    userId: adminId,
    deviceName: "bench",
    sim: "",
    enabled: true,
    createdAt: new Date().toISOString(),
    activationTime: new Date().toISOString(),
    expiration: null,
    userExpiration: null,
    timezoneOffsetMinutes: null,
  })));
  const t0 = performance.now();
  const points: StoredPosition[] = Array.from({ length: N }, (_, i) => ({
    time: START + i * INTERVAL_S * 1000,
    lat: 22.5 + Math.sin(i / 500) * 0.05,
    lng: 114.05 + Math.cos(i / 700) * 0.05,
    speed: i % 90 < 60 ? 30 + (i % 40) : 0,
    course: (i * 3) % 360,
    altitude: 20,
    satellites: 10,
    posType: 1,
    valid: true,
    acc: i % 90 < 70,
    mileage: 10_000 + i * 0.08,
    battery: 90,
    signal: 4,
    attributes: {},
  }));
  monthBlocks = splitIntoBlocks(points).map((b) => packBlock(b));
  await services.positions.importHistory(IMEI, points);
  await services.positions.importHistory(WARM_UP_IMEI, points);
  console.log(`seeded 2 × ${N} points in ${(performance.now() - t0).toFixed(0)} ms`);
  kv.close();
}

const server = await startServer({ ADMIN_PASSWORD: PASSWORD }, { dataDir: dir });
try {
  const login = await fetch(`${server.url}/v3/new/account/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ account: "admin", password: PASSWORD }),
  }).then((r) => r.json());
  const token = login.data.token;
  const month = (imei: string) =>
    JSON.stringify({
      imei,
      startTime: new Date(START).toISOString(),
      endTime: new Date(START + DAYS * 86_400_000).toISOString(),
    });
  /** One playback call: milliseconds until the last byte, and the answer. */
  const call = async (body: string) => {
    const t = performance.now();
    const res = await fetch(`${server.url}/v3/new/monitor/playback`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body,
    });
    // Counted as bytes, not decoded: 45 MB of text per call would time the client's string
    // building and garbage collection more than the server.
    const answer = new Uint8Array(await res.arrayBuffer());
    return { ms: performance.now() - t, answer };
  };
  const startUp = await call(month(WARM_UP_IMEI));
  const first = await call(month(IMEI));
  const count = JSON.parse(new TextDecoder().decode(first.answer)).data.points.length;
  const warm: number[] = [];
  for (let run = 0; run < 7; run++) warm.push((await call(month(IMEI))).ms);
  warm.sort((a, b) => a - b);
  console.log(`playback: ${count} points, ${(first.answer.length / 1e6).toFixed(1)} MB JSON`);
  console.log(
    `  first call after start-up (other device) ${startUp.ms.toFixed(0)} ms; first call of ` +
      `the month ${first.ms.toFixed(0)} ms; repeated: min ${warm[0].toFixed(0)} ms, median ${
        warm[3].toFixed(0)
      } ms, max ${warm[6].toFixed(0)} ms (target ≤ 300 ms)`,
  );
} finally {
  await server.stop();
  await Deno.remove(dir, { recursive: true });
}

// The JSON writer alone (what the first call of a month spends most of its time in).
const writes: number[] = [];
for (let round = 0; round < 7; round++) {
  const t = performance.now();
  for (const b of monthBlocks) blockJson(b, -Infinity, Infinity);
  writes.push(performance.now() - t);
}
const writeMs = writes.slice(2).sort((a, b) => a - b); // the first two rounds compile it
console.log(
  `  JSON writer in process, ${monthBlocks.length} blocks: median ${writeMs[2].toFixed(0)} ms (${
    (writeMs[2] * 1000 / N).toFixed(2)
  } µs per point)`,
);
