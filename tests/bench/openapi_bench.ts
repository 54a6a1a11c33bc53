/**
 * bench:openapi — the Open API's two heaviest reads through signed `POST /route/rest` calls
 * on a real server process, from 20 concurrent clients on loopback:
 * jimi.device.location.get for 100 IMEIs and jimi.device.track.list for 7 days at 10 s
 * (60,480 points, ~9 MB). Target: track.list ≤ 300 ms p99 (Tracksolid: ~137 s a call).
 * The bench's key and address get rate limits that do not throttle it. Answers come gzipped, as
 * fetch asks for them; `--identity` asks for plain ones.
 *
 * Each call is timed from the request to the answer's last byte (read as bytes, not parsed:
 * parsing 9 MB per call would time the client). The first track call is timed on its own:
 * nothing of that range read or written yet, what a new query meets.
 *
 * The machine has 2 cores, so the 20 Deno clients take CPU from the server they time. When
 * Debian's `wrk` is installed (a C load generator that discards the bodies), the same signed
 * calls are then timed by it too (20 connections, 2 threads, 20 s): the server's own figure.
 * A signed body stays valid for the ±10 minutes the timestamp check allows.
 */
import { createHash } from "node:crypto";
import { loadConfig } from "../../lib/config.ts";
import { compose } from "../../app/compose.ts";
import { ensureAdministrator } from "../../modules/accounts/bootstrap.ts";
import type { StoredPosition } from "../../modules/devices/model.ts";
import { startServer } from "../helpers/server.ts";

const PASSWORD = "Admin12345";
const CLIENTS = 20, CALLS_PER_METHOD = 400;
const TRACK_POINTS = 60_480, INTERVAL_MS = 10_000;
const UNLIMITED = "1000000";
const IDENTITY = Deno.args.includes("--identity");
const imeis = Array.from({ length: 100 }, (_, i) => `3597100495${String(i).padStart(5, "0")}`);
const md5 = (s: string) => createHash("md5").update(s, "utf8").digest("hex");
const utc = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace("T", " ");

const dir = await Deno.makeTempDir({ prefix: "tp-bench-openapi-" });
const end = Math.floor(Date.now() / 1000) * 1000 - 3_600_000;
const begin = end - (TRACK_POINTS - 1) * INTERVAL_MS;
{
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
  await s.ingestor.close();
  await s.motion.close();
  await s.alertAddresses.idle();
  kv.close();
}

const server = await startServer({
  ADMIN_PASSWORD: PASSWORD,
  OPENAPI_KEY_RATE: UNLIMITED,
  OPENAPI_KEY_BURST: UNLIMITED,
  OPENAPI_IP_RATE: UNLIMITED,
}, { dataDir: dir });
try {
  const post = async (path: string, body: unknown, token: string) =>
    await (await fetch(`${server.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    })).json();
  const login = await post("/v3/new/account/login", { account: "admin", password: PASSWORD }, "");
  const key = (await post("/v3/new/openapi/key/create", {
    name: "bench",
    scope: ["read"],
  }, login.data.token)).data;

  /** A signed form call as the public description gives it; the answer as bytes. */
  const signed = (method: string, own: Record<string, string>, accessToken = "") => {
    const params: Record<string, string> = {
      method,
      timestamp: utc(Date.now()),
      app_key: key.appKey,
      sign_method: "md5",
      v: "1.0",
      format: "json",
      ...(accessToken ? { access_token: accessToken } : {}),
      ...own,
    };
    const names = Object.keys(params).filter((k) => params[k] !== "").sort();
    params.sign = md5(key.appSecret + names.map((k) => k + params[k]).join("") + key.appSecret)
      .toUpperCase();
    return new URLSearchParams(params).toString();
  };
  const call = (method: string, own: Record<string, string>, accessToken = "") =>
    fetch(`${server.url}/route/rest`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        // fetch asks for gzip by default (and undoes it); --identity measures plain answers.
        ...(IDENTITY ? { "accept-encoding": "identity" } : {}),
      },
      body: signed(method, own, accessToken),
    }).then(async (r) => new Uint8Array(await r.arrayBuffer()));
  const tokenAnswer = JSON.parse(new TextDecoder().decode(
    await call("jimi.oauth.token.get", {
      user_id: "admin",
      user_pwd_md5: md5(PASSWORD),
      expires_in: "7200",
    }),
  ));
  const accessToken: string = tokenAnswer.result.accessToken;

  const measure = async (label: string, method: string, own: Record<string, string>) => {
    const cold = performance.now();
    const first = await call(method, own, accessToken);
    const head = new TextDecoder().decode(first.subarray(0, 40));
    if (!head.startsWith('{"code":0')) throw new Error(`${method}: ${head}`);
    console.log(`${label}: first call ${(performance.now() - cold).toFixed(0)} ms`);
    const times: number[] = [];
    let left = CALLS_PER_METHOD;
    const started = performance.now();
    await Promise.all(Array.from({ length: CLIENTS }, async () => {
      while (left-- > 0) {
        const t0 = performance.now();
        await call(method, own, accessToken);
        times.push(performance.now() - t0);
      }
    }));
    const wall = performance.now() - started;
    times.sort((a, b) => a - b);
    const q = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))];
    console.log(
      `${label}: ${times.length} calls, ${CLIENTS} clients, answer ${
        (first.length / 1024).toFixed(0)
      } KiB — p50 ${q(0.5).toFixed(1)} ms, p99 ${q(0.99).toFixed(1)} ms, ${
        (times.length / (wall / 1000)).toFixed(0)
      } calls/s`,
    );
    await timeWithWrk(label, signed(method, own, accessToken));
  };

  /** The same call from wrk (C, bodies discarded), when installed: p50/p99 and calls/s. */
  const timeWithWrk = async (label: string, body: string) => {
    const script = await Deno.makeTempFile({ suffix: ".lua" });
    await Deno.writeTextFile(
      script,
      `wrk.method = "POST"\nwrk.body = ${JSON.stringify(body)}\n` +
        `wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"\n` +
        (IDENTITY ? "" : `wrk.headers["Accept-Encoding"] = "gzip"\n`),
    );
    try {
      const out = await new Deno.Command("wrk", {
        args: [
          "-t2",
          `-c${CLIENTS}`,
          "-d20s",
          "--latency",
          "-s",
          script,
          `${server.url}/route/rest`,
        ],
        stdout: "piped",
        stderr: "piped",
      }).output();
      const text = new TextDecoder().decode(out.stdout);
      const pct = (p: string) => text.match(new RegExp(`^\\s+${p}%\\s+(\\S+)`, "m"))?.[1] ?? "?";
      const rate = text.match(/Requests\/sec:\s+(\S+)/)?.[1] ?? "?";
      console.log(
        `${label}, wrk ${CLIENTS} connections: p50 ${pct("50")}, p99 ${pct("99")}, ${rate} calls/s`,
      );
    } catch {
      console.log(
        `${label}: wrk not installed (apt-get install -y wrk) — server-only figure skipped`,
      );
    } finally {
      await Deno.remove(script);
    }
  };

  await measure("jimi.device.location.get (100 IMEIs)", "jimi.device.location.get", {
    imeis: imeis.join(","),
    map_type: "GOOGLE",
  });
  await measure("jimi.device.track.list (7 days, 60,480 points)", "jimi.device.track.list", {
    imei: imeis[0],
    begin_time: utc(begin),
    end_time: utc(end),
  });
} finally {
  await server.stop();
  await Deno.remove(dir, { recursive: true }).catch(() => {});
}
