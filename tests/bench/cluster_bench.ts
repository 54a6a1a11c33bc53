/**
 * `deno task bench:cluster` — cluster mode against single mode on this machine (issue 23).
 *
 * 1. Single mode: one instance on its KV file; `--devices` GT06 devices (tests/bench/
 *    cluster_load.ts over the ingest bench's epoll generator) saturate it, then offer
 *    `--rate` positions/s: committed positions/s and ack latency p50/p99.
 * 2. Cluster mode: PostgreSQL, nats-server, `--instances` instances and HAProxy on loopback
 *    (tests/helpers/cluster.ts); the same devices connect through the balancer's GT06 port
 *    (least connections spreads them) and the same two measurements run.
 * 3. Live events across instances: a device on instance 1, an SSE client on instance 2; the
 *    time from writing a fix to its `pos` row arriving, p50/p99 over `--live` fixes.
 * 4. Playback of 31 days at 10 s (≈ 268,000 points, seeded into PostgreSQL before the
 *    instances start) through the balancer: the first call and the median of 7 more.
 *
 * Everything shares the machine's cores (the instances, PostgreSQL, NATS, HAProxy and the load
 * generator): the figures are one machine's, and say nothing of what more machines add.
 */
import { compose } from "../../app/compose.ts";
import { loadConfig } from "../../lib/config.ts";
import { openBackend } from "../../lib/kv/open.ts";
import { ensureAdministrator } from "../../modules/accounts/bootstrap.ts";
import type { StoredPosition } from "../../modules/devices/model.ts";
import { imeiFor } from "../../modules/simulator/imei.ts";
import { PlatformApi } from "../../modules/simulator/api.ts";
import { startCluster, type TestCluster } from "../helpers/cluster.ts";
import { type ServerProcess, startServer } from "../helpers/server.ts";
import { AckedGt06 } from "../cluster/gt06_acked.ts";
import { liveStream, loginToken } from "../cluster/live_stream.ts";
import { GtLoad, type LoadResult } from "./cluster_load.ts";
import { Histogram } from "./latency_histogram.ts";

const OPTIONS = {
  devices: 2000,
  instances: 3,
  seconds: 15,
  warmup: 3,
  /** Packets outstanding per device at saturation (with 1, latency caps the rate). */
  window: 4,
  "paced-seconds": 10,
  rate: 20000,
  live: 40,
  timeout: 900,
};
type Options = typeof OPTIONS;

function parseOptions(args: string[]): Options {
  const out = { ...OPTIONS };
  for (let i = 0; i < args.length; i++) {
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(args[i]);
    if (!m || !(m[1] in OPTIONS)) {
      console.error(`unknown argument ${args[i]}; options: ${Object.keys(OPTIONS).join(", ")}`);
      Deno.exit(2);
    }
    out[m[1] as keyof Options] = Number(m[2] ?? args[++i]);
  }
  return out;
}

const opt = parseOptions(Deno.args);
const ADMIN_PASSWORD = "Bench12345";
const PLAYBACK_IMEI = "359710049000001";
const WARM_UP_IMEI = "359710049000002";
const DAYS = 31, INTERVAL_S = 10;
const started = Date.now();
/** Other work on the machine skews every figure: printed with them. */
const LOAD_AT_START = Deno.loadavg().map((x) => x.toFixed(2)).join(" ");
const log = (m: string) =>
  console.log(`[${((Date.now() - started) / 1000).toFixed(1).padStart(6)}s] ${m}`);
const fmt = (n: number) => Math.round(n).toLocaleString("en");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

if (!GtLoad.supported()) {
  console.error("bench:cluster drives its sockets through libc epoll: Linux x86-64 or arm64 only");
  Deno.exit(2);
}
const hardStop = setTimeout(() => {
  console.error(`bench:cluster: still running after ${opt.timeout} s; giving up.`);
  Deno.exit(3);
}, opt.timeout * 1000);

/** Imports the load's devices through `base` and measures saturation and the paced rate. */
async function measureIngest(base: string, gt06Port: number, label: string) {
  const api = await PlatformApi.login(base, "admin", ADMIN_PASSWORD);
  const imeis = Array.from({ length: opt.devices }, (_, i) => imeiFor("86200000", i));
  const imported = await api.importDevices(await api.currentUserId(), "GT06N", imeis);
  if (imported.imported !== imeis.length) throw new Error(`${label}: import failed`);
  // Every instance's directory accepts them (cache sync across instances: ≤ 5 s).
  await sleep(label === "cluster" ? 5000 : 0);
  const load = new GtLoad(imeis, Math.floor(Date.now() / 1000) * 1000 - 5 * 60_000);
  try {
    await load.connect(gt06Port);
    log(`${label}: ${fmt(imeis.length)} devices logged in`);
    const saturation = await load.saturate(opt.warmup, opt.seconds, opt.window);
    log(`${label}: saturation ${fmt(saturation.committed)}/s, p99 ${saturation.p99} ms`);
    const paced = await load.paced(opt.rate, opt["paced-seconds"]);
    log(`${label}: ${fmt(opt.rate)}/s offered → ${fmt(paced.committed)}/s, p99 ${paced.p99} ms`);
    return { saturation, paced, dropped: load.dropped };
  } finally {
    await load.close();
  }
}

/** Seeds 31 days of one device (and a warm-up twin) straight into the cluster's database. */
async function seedPlayback(databaseUrl: string): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "tp-bench-cluster-" });
  const config = loadConfig({
    DATA_DIR: dir,
    ADMIN_PASSWORD,
    DATABASE_URL: databaseUrl,
    NATS_URL: "nats://127.0.0.1:4222",
  });
  const backend = await openBackend(config);
  const services = await compose(backend.kv, config);
  await ensureAdministrator(services.accountStore, ADMIN_PASSWORD);
  const adminId = (await services.accountStore.findIdByLogin("admin"))!;
  const now = new Date().toISOString();
  await services.deviceStore.insertMany([PLAYBACK_IMEI, WARM_UP_IMEI].map((imei) => ({
    imei,
    mcType: "GT06N",
    userId: adminId,
    deviceName: "bench",
    sim: "",
    enabled: true,
    createdAt: now,
    activationTime: now,
    expiration: null,
    userExpiration: null,
    timezoneOffsetMinutes: null,
  })));
  const points = monthOfPoints();
  const t0 = performance.now();
  await services.positions.importHistory(PLAYBACK_IMEI, points);
  await services.positions.importHistory(WARM_UP_IMEI, points);
  log(`seeded 2 × ${fmt(points.length)} points into PostgreSQL in ${ms(t0)} ms`);
  await backend.close();
  await Deno.remove(dir, { recursive: true }).catch(() => {});
}

function monthOfPoints(): StoredPosition[] {
  const start = Date.UTC(2026, 9, 1);
  return Array.from({ length: (DAYS * 86_400) / INTERVAL_S }, (_, i) => ({
    time: start + i * INTERVAL_S * 1000,
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
}

const ms = (t0: number) => (performance.now() - t0).toFixed(0);

/**
 * Playback of the month through the balancer: every instance warmed up on the twin first (round
 * robin: one call each), then the device's first call and the median of 3 more per instance.
 * Timed to the answer's last byte, as bench:playback does (decoding 45 MB of JSON would time the
 * client); the points are counted once.
 */
async function measurePlayback(cluster: TestCluster) {
  const from = new Date(Date.UTC(2026, 9, 1)), to = new Date(Date.UTC(2026, 10, 1));
  const caller = async (base: string) => {
    const token = await loginToken(base, "admin", ADMIN_PASSWORD);
    return async (imei: string) => {
      const t0 = performance.now();
      const res = await fetch(`${base}/v3/new/monitor/playback`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
        body: JSON.stringify({ imei, startTime: from.toISOString(), endTime: to.toISOString() }),
      });
      const answer = new Uint8Array(await res.arrayBuffer());
      return { ms: performance.now() - t0, answer };
    };
  };
  const timed = await caller(cluster.url);
  for (const _ of cluster.instances) await timed(WARM_UP_IMEI);
  const first = await timed(PLAYBACK_IMEI);
  const points = JSON.parse(new TextDecoder().decode(first.answer)).data.points.length;
  const again: number[] = [];
  for (let i = 0; i < 3 * cluster.instances.length; i++) {
    again.push((await timed(PLAYBACK_IMEI)).ms);
  }
  again.sort((a, b) => a - b);
  // The same call straight to one instance: what the balancer adds.
  const direct = await caller(cluster.instances[0].url);
  const straight: number[] = [];
  for (let i = 0; i < 5; i++) straight.push((await direct(PLAYBACK_IMEI)).ms);
  straight.sort((a, b) => a - b);
  return {
    first: first.ms,
    median: again[Math.floor(again.length / 2)],
    direct: straight[2],
    points,
  };
}

/** A device on instance 1, an SSE client on instance 2: write → `pos` row arrival. */
async function measureLive(cluster: TestCluster) {
  const [a, b] = cluster.instances;
  const imei = "359710049000010";
  const token = await loginToken(cluster.url, "admin", ADMIN_PASSWORD);
  const api = await PlatformApi.login(a.url, "admin", ADMIN_PASSWORD);
  await api.importDevices(await api.currentUserId(), "GT06N", [imei]);
  await sleep(5000);
  const stream = liveStream(b.url, token);
  await stream.connected();
  const device = new AckedGt06(imei, Math.floor(Date.now() / 1000) * 1000 - 120_000);
  if (!await device.connect(a.ports.gt06)) throw new Error("live: the device's login failed");
  const hist = new Histogram();
  try {
    for (let i = 0; i < opt.live; i++) {
      const t0 = performance.now();
      const fix = await device.send();
      hist.add(await stream.waitPosition(imei, fix.lat, 10_000) - t0);
      await sleep(100 + Math.random() * 200);
    }
  } finally {
    stream.close();
    await device.close();
  }
  return { p50: hist.percentile(50), p99: hist.percentile(99) };
}

const line = (r: LoadResult) =>
  `${fmt(r.committed)} positions/s committed, ack p50 ${r.p50.toFixed(1)} ms, p99 ${
    r.p99.toFixed(1)
  } ms`;

let single: ServerProcess | null = null;
let cluster: TestCluster | null = null;
let exitCode = 0;
try {
  log(`single mode: one instance on its KV file, ${fmt(opt.devices)} devices`);
  single = await startServer({ ADMIN_PASSWORD });
  const singlePort = Number(/GT06 (\d+)/.exec(single.output())![1]);
  const kv = await measureIngest(single.url, singlePort, "single");
  await single.stop();
  await Deno.remove(single.dataDir, { recursive: true }).catch(() => {});
  single = null;

  log(`cluster mode: PostgreSQL, NATS, ${opt.instances} instances, HAProxy`);
  cluster = await startCluster({
    instances: opt.instances,
    env: { ADMIN_PASSWORD },
    prepare: seedPlayback,
  });
  const playback = await measurePlayback(cluster);
  log(`playback: ${fmt(playback.points)} points, first ${playback.first.toFixed(0)} ms`);
  const live = await measureLive(cluster);
  log(`live across instances: p50 ${live.p50} ms, p99 ${live.p99} ms`);
  const pg = await measureIngest(cluster.url, cluster.ports.gt06, "cluster");

  console.log([
    "",
    `Cluster benchmark — ${new Date().toISOString()} — deno ${Deno.version.deno}, ` +
    `${navigator.hardwareConcurrency} cores shared by everything below, load average at start ` +
    LOAD_AT_START,
    `command: deno task bench:cluster ${Deno.args.join(" ")}`.trim(),
    `single instance, KV (${fmt(opt.devices)} devices, window ${opt.window}): saturation ${
      line(kv.saturation)
    }; ` +
    `${fmt(opt.rate)}/s offered: ${line(kv.paced)}`,
    `cluster, ${opt.instances} instances + PostgreSQL + NATS + HAProxy (devices through the ` +
    `balancer): saturation ${line(pg.saturation)}; ${fmt(opt.rate)}/s offered: ${
      line(pg.paced)
    }; ${pg.dropped} connections dropped`,
    `live event, device on instance 1 → SSE client on instance 2 (${opt.live} fixes): ` +
    `p50 ${live.p50.toFixed(1)} ms, p99 ${live.p99.toFixed(1)} ms (target ≤ 2,000 ms)`,
    `playback of ${DAYS} days (${fmt(playback.points)} points) from PostgreSQL through the ` +
    `balancer: first call ${playback.first.toFixed(0)} ms, then median ${
      playback.median.toFixed(0)
    } ms; straight to one instance: median ${playback.direct.toFixed(0)} ms (target ≤ 300 ms)`,
  ].join("\n"));
} catch (e) {
  console.error(`bench:cluster failed: ${(e as Error).stack ?? e}`);
  for (const i of cluster?.instances ?? []) {
    console.error(`instance ${i.index + 1} output (tail):\n${i.server.output().slice(-2000)}`);
  }
  exitCode = 1;
} finally {
  clearTimeout(hardStop);
  await single?.stop();
  await cluster?.stop();
}
Deno.exit(exitCode);
