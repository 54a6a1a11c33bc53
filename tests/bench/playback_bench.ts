/**
 * bench:playback — one device with 31 days at 10 s (≈ 268,000 points): how long the
 * playback API takes to return them, measured from a client on loopback against a real
 * server process. Target: ≤ 300 ms.
 */
import { loadConfig } from "../../lib/config.ts";
import { createServices } from "../../lib/services.ts";
import { ensureAdministrator } from "../../modules/accounts/bootstrap.ts";
import type { StoredPosition } from "../../modules/devices/model.ts";
import { startServer } from "../helpers/server.ts";

const IMEI = "359710049000001";
const DAYS = 31, INTERVAL_S = 10;
const N = (DAYS * 86_400) / INTERVAL_S;
const START = Date.UTC(2026, 9, 1);
const PASSWORD = "Admin12345";

const dir = await Deno.makeTempDir({ prefix: "tp-bench-playback-" });
{
  const kv = await Deno.openKv(`${dir}/tracking.kv`);
  const services = await createServices(
    kv,
    loadConfig({ DATA_DIR: dir, ADMIN_PASSWORD: PASSWORD }),
  );
  await ensureAdministrator(services.accountStore, PASSWORD);
  const adminId = (await services.accountStore.findIdByLogin("admin"))!;
  await services.directory.store.insertMany([{
    imei: IMEI,
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
  }]);
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
  await services.positions.importHistory(IMEI, points);
  console.log(`seeded ${N} points in ${(performance.now() - t0).toFixed(0)} ms`);
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
  const body = JSON.stringify({
    imei: IMEI,
    startTime: new Date(START).toISOString(),
    endTime: new Date(START + DAYS * 86_400_000).toISOString(),
  });
  const times: number[] = [];
  let count = 0, bytes = 0;
  for (let run = 0; run < 8; run++) {
    const t = performance.now();
    const res = await fetch(`${server.url}/v3/new/monitor/playback`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body,
    });
    const text = await res.text();
    times.push(performance.now() - t);
    bytes = text.length;
    if (run === 0) count = JSON.parse(text).data.points.length;
  }
  const warm = times.slice(1).sort((a, b) => a - b);
  console.log(`playback: ${count} points, ${(bytes / 1e6).toFixed(1)} MB JSON`);
  console.log(
    `  first ${times[0].toFixed(0)} ms; warm min ${warm[0].toFixed(0)} ms, median ${
      warm[Math.floor(warm.length / 2)].toFixed(0)
    } ms, max ${warm.at(-1)!.toFixed(0)} ms (target ≤ 300 ms)`,
  );
} finally {
  await server.stop();
  await Deno.remove(dir, { recursive: true });
}
