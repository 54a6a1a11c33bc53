/**
 * bench:openapi — the Open API's two heaviest reads under 20 concurrent clients:
 * jimi.device.location.get for 100 IMEIs and jimi.device.track.list for 7 days at 10 s
 * (60,480 points). Target: track.list ≤ 300 ms p99 (Tracksolid: ~137 s a call).
 *
 * Until the `/route/rest` dispatcher lands, each call is the method's run() with a real
 * session on the composed services (real KV file) and the answer serialised the way the
 * frame answers (`{code, message, result}` as the JSON fragments it streams: answerParts);
 * 20 clients keep a call each in flight on the one event loop, as 20 HTTP clients would on
 * the server's. The HTTP write itself is not in these figures.
 */
import { loadConfig } from "../../lib/config.ts";
import { compose } from "../../app/compose.ts";
import { ensureAdministrator } from "../../modules/accounts/bootstrap.ts";
import type { StoredPosition } from "../../modules/devices/model.ts";
import type { Session } from "../../lib/http/env.ts";
import { formatOpenTime } from "../../modules/openapi/methods/common.ts";
import { answerParts } from "../../modules/openapi/methods/raw_json.ts";

const PASSWORD = "Admin12345";
const CLIENTS = 20, CALLS_PER_METHOD = 400;
const TRACK_POINTS = 60_480, INTERVAL_MS = 10_000;
const imeis = Array.from({ length: 100 }, (_, i) => `3597100495${String(i).padStart(5, "0")}`);

const dir = await Deno.makeTempDir({ prefix: "tp-bench-openapi-" });
const kv = await Deno.openKv(`${dir}/tracking.kv`);
const s = await compose(kv, loadConfig({ DATA_DIR: dir, ADMIN_PASSWORD: PASSWORD }));
await ensureAdministrator(s.accountStore, PASSWORD);
const adminId = (await s.accountStore.findIdByLogin("admin"))!;
const now = new Date().toISOString();
await s.directory.insertMany(imeis.map((imei) => ({
  imei,
  mcType: "GT06N",
  userId: adminId,
  deviceName: `bench ${imei.slice(-3)}`,
  sim: "",
  enabled: true,
  createdAt: now,
  activationTime: now,
  expiration: null,
  userExpiration: null,
  timezoneOffsetMinutes: null,
})));
// Live positions for the 100 devices, through the ingest as devices send them.
for (const [i, imei] of imeis.entries()) {
  await s.ingestor.submit(s.directory.get(imei)!, [{
    type: "position",
    position: {
      time: new Date(Date.now() - 1000),
      valid: true,
      latitude: 22.5 + i * 1e-3,
      longitude: 114.05,
      altitude: 10,
      speed: 20,
      course: 90,
      posType: 1,
      satellites: 9,
      attributes: {},
    },
  }]);
}
const end = Math.floor(Date.now() / 1000) * 1000 - 3_600_000;
const begin = end - (TRACK_POINTS - 1) * INTERVAL_MS;
const points: StoredPosition[] = Array.from({ length: TRACK_POINTS }, (_, i) => ({
  time: begin + i * INTERVAL_MS,
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
await s.positions.importHistory(imeis[0], points);

const session: Session = {
  accountId: adminId,
  cAccountId: adminId,
  isVirtual: false,
  jti: "bench",
  via: "bearer",
};
async function call(name: string, params: Record<string, string>): Promise<number> {
  const m = s.openMethods.find((x) => x.name === name)!;
  const answer = await m.run({
    session,
    appKey: "bench",
    params: m.params.parse(params) as Record<string, unknown>,
  });
  // The fragments the frame streams (a week's track is ~9 MB: not copied into one buffer).
  return answerParts({ code: 0, message: "success" }, answer).reduce((n, p) => n + p.length, 0);
}

async function measure(label: string, name: string, params: Record<string, string>) {
  // The first call: nothing of this range read or written yet (what a new query meets).
  const cold = performance.now();
  const bytes = await call(name, params);
  console.log(`${label}: first call ${(performance.now() - cold).toFixed(0)} ms`);
  const times: number[] = [];
  let left = CALLS_PER_METHOD;
  const started = performance.now();
  await Promise.all(Array.from({ length: CLIENTS }, async () => {
    while (left-- > 0) {
      const t0 = performance.now();
      await call(name, params);
      times.push(performance.now() - t0);
    }
  }));
  const wall = performance.now() - started;
  times.sort((a, b) => a - b);
  const q = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))];
  console.log(
    `${label}: ${times.length} calls, ${CLIENTS} clients, answer ${
      (bytes / 1024).toFixed(0)
    } KiB — ` +
      `p50 ${q(0.5).toFixed(1)} ms, p99 ${q(0.99).toFixed(1)} ms, ` +
      `${(times.length / (wall / 1000)).toFixed(0)} calls/s`,
  );
}

try {
  await measure("jimi.device.location.get (100 IMEIs)", "jimi.device.location.get", {
    imeis: imeis.join(","),
    map_type: "GOOGLE",
  });
  await measure("jimi.device.track.list (7 days, 60,480 points)", "jimi.device.track.list", {
    imei: imeis[0],
    begin_time: formatOpenTime(begin),
    end_time: formatOpenTime(end),
  });
} finally {
  await s.ingestor.close();
  await s.motion.close();
  await s.alertAddresses.idle();
  kv.close();
  await Deno.remove(dir, { recursive: true }).catch(() => {});
}
