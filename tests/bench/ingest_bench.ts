/**
 * `deno task bench:ingest` — device ingest against a real server process on loopback.
 *
 * 1. Starts the product on a fresh temporary DATA_DIR and imports 10,000 GT06 devices.
 * 2. Opens 10,000 TCP connections, logs each device in, lets them sit idle and reads the
 *    server's RSS (/proc/<pid>/status VmRSS).
 * 3. Keeps 5,000 of them and makes each send GT06 0x16 location frames (GPS + LBS + status,
 *    which the gateway acknowledges only after the group commit that stores them) as fast as
 *    the acknowledgements come back — one frame outstanding per device (`--window`) — for
 *    `--seconds` after a warm-up: committed positions/s, write → ack latency p50/p99, RSS.
 * 4. Then offers a fixed rate (`--rate`, default 20,000/s spread over the devices) for
 *    `--paced-seconds`: the latency at the target throughput rather than at saturation.
 * 5. Cross-checks a sample of devices through the playback API (stored ≥ acknowledged).
 *
 * Everything runs on 127.0.0.1 and the bench stops by itself (hard limit `--timeout`). The
 * load generator shares the machine's cores with the server: its CPU use is printed too. On
 * Linux x86-64 it drives its sockets through libc epoll (`--generator ffi`, loopback_fleet.ts)
 * so that it takes as little of the machine as the kernel's TCP work allows.
 */
import { PlatformApi } from "../../modules/simulator/api.ts";
import { imeiFor } from "../../modules/simulator/imei.ts";
import { configureAlerts } from "./alerts_setup.ts";
import {
  type BenchDeviceSetup,
  drainDevices,
  Gt06BenchDevice,
  linkOpener,
  offerRate,
} from "./gt06_bench_device.ts";
import { Histogram } from "./latency_histogram.ts";
import { LoopbackFleet } from "./loopback_fleet.ts";
import { SERVER_V8_ARG } from "../../lib/v8_flags.ts";
import { SHARED_NODE_MODULES } from "../../lib/deno_child.ts";
import { freePort } from "../helpers/server.ts";

// ---- options ---------------------------------------------------------------------------------

const OPTIONS = {
  devices: 5000,
  idle: 10000,
  seconds: 20,
  warmup: 3,
  "paced-seconds": 10,
  rate: 20000,
  window: 1,
  sample: 50,
  timeout: 420,
  "imei-prefix": "86100000",
  /** Extra `deno run` flags for the server, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof". */
  "server-flags": "",
  /** Append the server's stdout and stderr to this file (e.g. with --v8-flags=--trace-gc). */
  "server-log": "",
  /** GATEWAY_WORKERS for the server ("" = the product's default for this machine). */
  workers: "",
  /** Alert engine: "off" (ALERT_ENGINE=off), "idle" (on, nothing configured), "full" (20 fences, all thresholds and types). */
  alerts: "idle",
  /** Motion analysis (trips, stops, day summaries): "on" (the default) or "off" (MOTION_ANALYSIS=off). */
  motion: "on",
  /**
   * How the load generator drives its sockets: "ffi" (libc epoll, a few µs of CPU per frame;
   * Linux x86-64) or "deno" (one Deno.TcpConn per device, ~30 µs per frame).
   */
  generator: LoopbackFleet.supported() ? "ffi" : "deno",
};
type Options = typeof OPTIONS;

function parseOptions(args: string[]): Options {
  const out: Options = { ...OPTIONS };
  for (let i = 0; i < args.length; i++) {
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(args[i]);
    if (!m || !(m[1] in OPTIONS)) {
      console.error(`unknown argument ${args[i]}; options: ${Object.keys(OPTIONS).join(", ")}`);
      Deno.exit(2);
    }
    const value = m[2] ?? args[++i];
    const key = m[1] as keyof Options;
    if (
      key === "imei-prefix" || key === "server-flags" || key === "server-log" ||
      key === "alerts" || key === "workers" || key === "generator" || key === "motion"
    ) out[key] = value;
    else (out as Record<string, number | string>)[key] = Number(value);
  }
  out.idle = Math.max(out.idle, out.devices);
  if (out.generator !== "deno" && (out.generator !== "ffi" || !LoopbackFleet.supported())) {
    console.error(`--generator must be "deno" or (on Linux x86-64) "ffi"`);
    Deno.exit(2);
  }
  return out;
}

const opt = parseOptions(Deno.args);
const ADMIN_PASSWORD = "Bench12345";
const ROOT = new URL("../../", import.meta.url).pathname;
const started = Date.now();
const hardStop = setTimeout(() => {
  console.error(`bench:ingest: still running after ${opt.timeout} s; giving up.`);
  server?.kill();
  Deno.exit(3);
}, opt.timeout * 1000);

const log = (m: string) =>
  console.log(`[${((Date.now() - started) / 1000).toFixed(1).padStart(6)}s] ${m}`);

// ---- machine checks -----------------------------------------------------------------------------

async function sh(cmd: string): Promise<string> {
  try {
    const out = await new Deno.Command("sh", { args: ["-c", cmd], stdout: "piped", stderr: "null" })
      .output();
    return new TextDecoder().decode(out.stdout).trim();
  } catch {
    return "";
  }
}

const fdLimit = Number(await sh("ulimit -n"));
const needFds = opt.idle + 256;
if (Number.isFinite(fdLimit) && fdLimit < needFds) {
  console.error(
    `bench:ingest needs ${needFds} open files per process (${opt.idle} connections) but the ` +
      `limit is ${fdLimit}.\nRaise it in this shell and rerun:\n\n    ulimit -n 65536\n\n` +
      `(or pass --idle ${Math.max(opt.devices, fdLimit - 256)} to measure fewer idle connections)`,
  );
  Deno.exit(2);
}
const mem = Deno.systemMemoryInfo();
if (mem.available < 1.5 * 1024 ** 3) {
  console.warn(
    `bench:ingest: only ${(mem.available / 1024 ** 3).toFixed(1)} GiB of memory available; ` +
      `the figures may suffer.`,
  );
}
const cores = navigator.hardwareConcurrency;
const loadAvg = Deno.loadavg().map((x) => x.toFixed(2)).join(" ");

// ---- server process -------------------------------------------------------------------------------

let server: Deno.ChildProcess | null = null;
let serverLog = "";

async function ensureBuild(): Promise<void> {
  try {
    await Deno.stat(`${ROOT}build/manifest.json`);
  } catch {
    log("building the client bundles (build/ missing)…");
    const r = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "scripts/build.ts"],
      cwd: ROOT,
    }).output();
    if (!r.success) throw new Error("scripts/build.ts failed");
  }
}

async function startServer(dataDir: string) {
  const port = freePort();
  const gt06Port = freePort();
  server = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      SHARED_NODE_MODULES,
      SERVER_V8_ARG,
      ...opt["server-flags"].split(" ").filter(Boolean),
      "-A",
      "main.ts",
    ],
    cwd: ROOT,
    env: {
      PORT: String(port),
      HOSTNAME: "127.0.0.1",
      DATA_DIR: dataDir,
      CAPTCHA: "off",
      ADMIN_PASSWORD,
      GT06_PORT: String(gt06Port),
      JT808_PORT: String(freePort()),
      H02_PORT: String(freePort()),
      OSMAND_PORT: String(freePort()),
      ALERT_ENGINE: opt.alerts === "off" ? "off" : "on",
      MOTION_ANALYSIS: opt.motion === "off" ? "off" : "on",
      ...(opt.workers ? { GATEWAY_WORKERS: opt.workers } : {}),
    },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const logFile = opt["server-log"]
    ? await Deno.open(opt["server-log"], { create: true, append: true })
    : null;
  const keep = async (s: ReadableStream<Uint8Array>) => {
    const d = new TextDecoder();
    for await (const c of s) {
      serverLog = (serverLog + d.decode(c, { stream: true })).slice(-20_000);
      await logFile?.write(c);
    }
  };
  keep(server.stdout).catch(() => {});
  keep(server.stderr).catch(() => {});
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      const r = await fetch(`${url}/health`);
      await r.body?.cancel();
      if (r.ok) break;
    } catch { /* starting */ }
    if (Date.now() > deadline) throw new Error(`server did not start:\n${serverLog}`);
    await sleep(100);
  }
  return { url, gt06Port, pid: server.pid };
}

function sleep(ms: number) {
  return new Promise((r) => setTimeout(r, ms));
}

/** VmRSS of a process in MiB. */
function rssMiB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(Deno.readTextFileSync(`/proc/${pid}/status`));
  return m ? Number(m[1]) / 1024 : NaN;
}

/** utime + stime of a process, seconds (USER_HZ = 100 on Linux). */
function cpuSeconds(pid: number): number {
  const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * Jiffies of the whole machine (/proc/stat "cpu" line): busy (idle and iowait are idle),
 * total, and stolen — time the hypervisor gave this VM's cores to other guests, which no
 * process here could use (counted in busy too).
 */
function machineJiffies(): { busy: number; total: number; steal: number } {
  const line = Deno.readTextFileSync("/proc/stat").split("\n")[0];
  const v = line.trim().split(/\s+/).slice(1).map(Number);
  const total = v.slice(0, 8).reduce((a, b) => a + b, 0);
  return { busy: total - v[3] - v[4], total, steal: v[7] ?? 0 };
}

// ---- simulated GT06 devices ---------------------------------------------------------------------------

type Phase = "login" | "saturate" | "paced" | "drain";
let phase: Phase = "login";
/** Acks and latencies counted only inside a phase's measured window. */
interface Window {
  from: number;
  to: number;
  acks: number;
  sent: number;
  hist: Histogram;
}
/** Acks count in a window by arrival time; latencies by the send time of their frame. */
const windows: Window[] = [];
function newWindow(fromMs: number, seconds: number): Window {
  const w = { from: fromMs, to: fromMs + seconds * 1000, acks: 0, sent: 0, hist: new Histogram() };
  windows.push(w);
  return w;
}
let totalAcks = 0;
let totalSent = 0;
/** Worst ack latency since the monitor's last line. */
let secondMax = 0;
/**
 * The load generator's own event-loop stalls (a 10 ms timer firing late): an acknowledgement
 * read late by the generator looks slow although the server was not, so they are reported.
 */
let generatorLag = 0;
{
  let last = performance.now();
  setInterval(() => {
    const now = performance.now();
    generatorLag = Math.max(generatorLag, now - last - 10);
    last = now;
  }, 10);
}
let connectErrors = 0;
let lastConnectError = "";

/**
 * Positions carry synthetic fix times a second apart (GT06 times have 1 s resolution),
 * starting 5 minutes ago: like live reports, they stay "hot" for the whole run (the
 * compaction job packs points older than 10 minutes, which would otherwise compete).
 */
const BASE_TIME = Math.floor(Date.now() / 1000) * 1000 - 5 * 60_000;

/** `--generator ffi`: one epoll loop for all sockets (see loopback_fleet.ts). */
const fleet = opt.generator === "ffi" ? new LoopbackFleet() : null;
fleet?.start();

/** Every device's writes and acknowledgements, counted in the phases' windows. */
const deviceSetup: BenchDeviceSetup = {
  base: BASE_TIME,
  open: linkOpener(fleet),
  onSent(now) {
    totalSent++;
    for (const w of windows) if (now >= w.from && now < w.to) w.sent++;
  },
  onAck(device, sentAt, now) {
    totalAcks++;
    if (now - sentAt > secondMax) secondMax = now - sentAt;
    for (const w of windows) {
      if (now >= w.from && now < w.to) w.acks++;
      if (sentAt >= w.from && sentAt < w.to) w.hist.add(now - sentAt);
    }
    if (phase === "saturate") {
      while (device.inFlight < opt.window && !device.closed) device.send();
    }
  },
};

async function connectAll(devices: Gt06BenchDevice[], port: number, concurrency = 200) {
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < devices.length) {
      const d = devices[next++];
      for (let attempt = 0;; attempt++) {
        try {
          await d.login(port);
          break;
        } catch (e) {
          connectErrors++;
          lastConnectError = (e as Error).message;
          d.close();
          d.closed = false;
          if (/too many open files|os error 24/i.test(lastConnectError)) {
            throw new Error(
              `out of file descriptors after ${done} connections: run "ulimit -n 65536" first`,
            );
          }
          if (attempt >= 3) throw e;
          await sleep(200 * (attempt + 1));
        }
      }
      if (++done % 2000 === 0) log(`  ${done}/${devices.length} logged in`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

// ---- per-second monitor -----------------------------------------------------------------------------

interface Sample {
  rss: number;
  maxLatency: number;
  serverCpu: number;
  clientCpu: number;
  /** Busy share of all cores (server, load generator, kernel, anything else). */
  machineBusy: number;
  /** Share of all cores the hypervisor gave to other guests. */
  steal: number;
  /** Longest stall of the load generator's event loop in the second. */
  generatorLag: number;
  acksPerSecond: number;
}

function monitor(pid: number, label: string) {
  const samples: Sample[] = [];
  let lastAcks = totalAcks, lastT = performance.now();
  let lastServer = cpuSeconds(pid), lastClient = cpuSeconds(Deno.pid);
  let lastMachine = machineJiffies();
  const timer = setInterval(() => {
    const t = performance.now();
    const dt = (t - lastT) / 1000;
    const s = cpuSeconds(pid), c = cpuSeconds(Deno.pid);
    const m = machineJiffies();
    const sample: Sample = {
      rss: rssMiB(pid),
      maxLatency: secondMax,
      serverCpu: ((s - lastServer) / dt) * 100,
      clientCpu: ((c - lastClient) / dt) * 100,
      machineBusy: ((m.busy - lastMachine.busy) / Math.max(1, m.total - lastMachine.total)) * 100,
      steal: ((m.steal - lastMachine.steal) / Math.max(1, m.total - lastMachine.total)) * 100,
      generatorLag,
      acksPerSecond: (totalAcks - lastAcks) / dt,
    };
    samples.push(sample);
    log(
      `  ${label}: ${Math.round(sample.acksPerSecond).toLocaleString("en")} acks/s (slowest ` +
        `${sample.maxLatency.toFixed(0)} ms), server RSS ` +
        `${sample.rss.toFixed(0)} MiB, CPU server ${sample.serverCpu.toFixed(0)}% client ` +
        `${sample.clientCpu.toFixed(0)}%, machine ${sample.machineBusy.toFixed(0)}% busy ` +
        `(${sample.steal.toFixed(0)}% stolen), ` +
        `generator stall ${sample.generatorLag.toFixed(0)} ms`,
    );
    lastAcks = totalAcks;
    secondMax = 0;
    lastT = t;
    lastServer = s;
    lastClient = c;
    lastMachine = m;
    generatorLag = 0;
  }, 1000);
  return {
    samples,
    stop: () => clearInterval(timer),
  };
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const fmt = (n: number) => Math.round(n).toLocaleString("en");

/** Waits (bounded) until every frame in flight is answered. */
async function drain(load: Gt06BenchDevice[]): Promise<void> {
  phase = "drain";
  await drainDevices(load);
}

/** A fixed offered rate spread evenly over the devices (open loop, at most MAX_QUEUED each). */
async function paced(load: Gt06BenchDevice[], rate: number, pid: number) {
  log(
    `paced: ${fmt(rate)}/s offered (${(rate / load.length).toFixed(2)}/s per device), 2 s ` +
      `settling + ${opt["paced-seconds"]} s`,
  );
  phase = "paced";
  const mon = monitor(pid, `paced ${fmt(rate)}/s`);
  const w = newWindow(performance.now() + 2000, opt["paced-seconds"]);
  let skipped = 0;
  const stop = offerRate(load, rate, (now) => {
    if (now >= w.from && now < w.to) skipped++;
  });
  await sleep(2000 + opt["paced-seconds"] * 1000);
  stop();
  mon.stop();
  await drain(load);
  return { rate, w, samples: mon.samples.slice(2, 2 + opt["paced-seconds"]), skipped };
}

// ---- the run ------------------------------------------------------------------------------------------

const dataDir = await Deno.makeTempDir({ prefix: "tp-bench-ingest-" });
let exitCode = 0;
try {
  await ensureBuild();
  const srv = await startServer(dataDir);
  log(`server pid ${srv.pid} on ${srv.url}, GT06 port ${srv.gt06Port}, data ${dataDir}`);
  const rssStart = rssMiB(srv.pid);

  const api = await PlatformApi.login(srv.url, "admin", ADMIN_PASSWORD);
  const userId = await api.currentUserId();
  const imeis = Array.from({ length: opt.idle }, (_, i) => imeiFor(opt["imei-prefix"], i));
  let t0 = performance.now();
  const imported = await api.importDevices(userId, "GT06N", imeis);
  const importSeconds = (performance.now() - t0) / 1000;
  if (imported.imported !== imeis.length) {
    throw new Error(
      `imported ${imported.imported} of ${imeis.length}: ${JSON.stringify(imported.failed[0])}`,
    );
  }
  log(`imported ${fmt(imeis.length)} GT06N devices in ${importSeconds.toFixed(1)} s`);
  if (opt.alerts === "full") {
    t0 = performance.now();
    await configureAlerts(api, imeis);
    log(
      `alerts: 20 fences, every type pushed, thresholds on ${fmt(imeis.length)} devices (${
        ((performance.now() - t0) / 1000).toFixed(1)
      } s)`,
    );
  } else log(`alerts: engine ${opt.alerts === "off" ? "off" : "on, nothing configured"}`);
  log(`motion analysis: ${opt.motion === "off" ? "off (MOTION_ANALYSIS=off)" : "on"}`);
  const rssImported = rssMiB(srv.pid);

  // Idle connections.
  const devices = imeis.map((imei, i) => new Gt06BenchDevice(imei, i, deviceSetup));
  t0 = performance.now();
  await connectAll(devices, srv.gt06Port);
  const loginSeconds = (performance.now() - t0) / 1000;
  log(
    `${fmt(devices.length)} connections logged in in ${
      loginSeconds.toFixed(1)
    } s (${connectErrors} retries)`,
  );
  await sleep(5000);
  const idleRss: number[] = [];
  for (let i = 0; i < 3; i++) {
    idleRss.push(rssMiB(srv.pid));
    await sleep(1000);
  }
  const rssIdle = Math.max(...idleRss);
  log(`server RSS with ${fmt(devices.length)} idle connections: ${rssIdle.toFixed(0)} MiB`);

  // Keep the load set, close the rest.
  const load = devices.slice(0, opt.devices);
  for (const d of devices.slice(opt.devices)) d.close();
  await sleep(2000);

  // Saturation: as fast as acknowledgements come back.
  log(
    `saturation: ${fmt(load.length)} devices, window ${opt.window}, ` +
      `${opt.warmup} s warm-up + ${opt.seconds} s`,
  );
  const satMon = monitor(srv.pid, "saturation");
  phase = "saturate";
  for (const d of load) while (d.inFlight < opt.window) d.send();
  const sat = newWindow(performance.now() + opt.warmup * 1000, opt.seconds);
  await sleep((opt.warmup + opt.seconds) * 1000);
  satMon.stop();
  const satSamples = satMon.samples.slice(opt.warmup);
  await drain(load);
  const satRate = sat.acks / opt.seconds;

  // Paced: the target rate, then — if the server cannot sustain it — half the saturation
  // throughput, to show the latency below capacity.
  const rates = opt["paced-seconds"] > 0 ? [opt.rate] : [];
  if (rates.length && satRate < opt.rate) rates.push(Math.round(satRate / 2 / 100) * 100);
  const pacedResults: { rate: number; w: Window; samples: Sample[]; skipped: number }[] = [];
  for (const rate of rates) pacedResults.push(await paced(load, rate, srv.pid));

  const rssAfter = rssMiB(srv.pid);
  const lost = load.reduce((n, d) => n + d.inFlight, 0);
  const dropped = load.filter((d) => d.closed).length;

  // Cross-check a sample through the playback API.
  const sample = load.slice(0, Math.min(opt.sample, load.length));
  let stored = 0, acked = 0, sent = 0;
  for (const d of sample) {
    const { points } = await api.playback(
      d.imei,
      new Date(BASE_TIME - 1000),
      new Date(BASE_TIME + (d.next + 1) * 1000),
    );
    stored += points.length;
    acked += d.acked;
    sent += d.sent;
  }
  for (const d of load) d.close();

  // ---- report ----
  const satP99 = sat.hist.percentile(99);
  const satRss = Math.max(...satSamples.map((s) => s.rss));
  const cpu = (xs: Sample[]) =>
    `CPU server ${mean(xs.map((s) => s.serverCpu)).toFixed(0)}%, client ${
      mean(xs.map((s) => s.clientCpu)).toFixed(0)
    }% (of ${cores * 100}%), machine ${mean(xs.map((s) => s.machineBusy)).toFixed(0)}% busy (${
      mean(xs.map((s) => s.steal)).toFixed(0)
    }% stolen by the hypervisor)`;
  const latency = (w: Window) =>
    `ack latency p50 ${w.hist.percentile(50).toFixed(1)} ms, p99 ${
      w.hist.percentile(99).toFixed(1)
    } ms, max ${w.hist.max.toFixed(0)} ms`;
  const lines = [
    "",
    `Ingest benchmark — ${new Date().toISOString()} — deno ${Deno.version.deno}, ${cores} cores, ` +
    `load average at start ${loadAvg}, load generator "${opt.generator}"`,
    `command: deno task bench:ingest ${Deno.args.join(" ")}`.trim(),
    `import ${fmt(opt.idle)} devices: ${importSeconds.toFixed(1)} s; ${fmt(opt.idle)} ` +
    `connections + logins: ${loginSeconds.toFixed(1)} s`,
    `server RSS: start ${rssStart.toFixed(0)} MiB, after import ${rssImported.toFixed(0)} MiB, ` +
    `${fmt(opt.idle)} idle connections ${rssIdle.toFixed(0)} MiB, under load (peak) ` +
    `${satRss.toFixed(0)} MiB, at the end ${rssAfter.toFixed(0)} MiB`,
    `saturation (${fmt(opt.devices)} devices, window ${opt.window}, ${opt.seconds} s): ` +
    `${fmt(satRate)} positions/s committed; ${latency(sat)}; ${cpu(satSamples)}`,
  ];
  for (const r of pacedResults) {
    lines.push(
      `paced (${fmt(r.rate)}/s offered, ${opt["paced-seconds"]} s): ` +
        `${fmt(r.w.acks / opt["paced-seconds"])} positions/s committed; ${latency(r.w)}; ` +
        `${fmt(r.skipped)} not sent (device queue full); ${cpu(r.samples)}`,
    );
  }
  const target = pacedResults[0];
  lines.push(
    `total: ${fmt(totalSent)} frames sent, ${fmt(totalAcks)} acknowledged, ${lost} unanswered ` +
      `at the end, ${dropped} connections dropped`,
    `playback cross-check (${sample.length} devices): ${fmt(sent)} sent, ${fmt(acked)} ` +
      `acknowledged, ${fmt(stored)} stored` +
      (stored >= acked && stored <= sent ? " — consistent" : " — INCONSISTENT"),
    `targets: ≥ 20,000 positions/s ${
      Math.max(satRate, target ? target.w.acks / opt["paced-seconds"] : 0) >= 20000
        ? "met"
        : "MISSED"
    } (best of saturation and ${target ? fmt(target.rate) : "no"}/s offered); ack p99 ≤ 100 ms ` +
      `${satP99 <= 100 ? "met" : "MISSED"} at saturation` +
      (target
        ? `, ${target.w.hist.percentile(99) <= 100 ? "met" : "MISSED"} at ${
          fmt(target.rate)
        }/s offered`
        : "") +
      `; RSS ≤ 400 MiB with ${fmt(opt.idle)} idle connections ${rssIdle <= 400 ? "met" : "MISSED"}`,
  );
  console.log(lines.join("\n"));
  if (stored < acked) exitCode = 1;
} catch (e) {
  console.error(`bench:ingest failed: ${(e as Error).message}`);
  if (lastConnectError) console.error(`last connection error: ${lastConnectError}`);
  console.error(`server output (tail):\n${serverLog.slice(-3000)}`);
  exitCode = 1;
} finally {
  clearTimeout(hardStop);
  const child = server as Deno.ChildProcess | null;
  if (child) {
    try {
      child.kill("SIGTERM");
    } catch { /* gone */ }
    const quit = await Promise.race([
      child.status.then(() => true),
      sleep(10_000).then(() => false),
    ]);
    if (!quit) {
      try {
        child.kill("SIGKILL");
      } catch { /* gone */ }
    }
  }
  await Deno.remove(dataDir, { recursive: true }).catch(() => {});
}
Deno.exit(exitCode);
