/**
 * Idle connections must not take the process down (issue 14): device connections are capped
 * (MAX_DEVICE_CONNECTIONS, or the descriptor limit less a reserve), connections that never
 * identify are closed after DEVICE_LOGIN_SECONDS, and an HTTP listener whose accept loop
 * fails is re-created. Real server processes, connections opened from this process.
 */
import assert from "node:assert/strict";
import { gt06Heartbeat, gt06Location, gt06Login } from "../helpers/gt06_frames.ts";
import { devicePorts as ports, importDevices } from "../helpers/gateway.ts";
import { RawDevice } from "../helpers/raw_device.ts";
import { type ServerProcess, startServer } from "../helpers/server.ts";
import { RUN_MAIN_ARGS } from "../../lib/deno_child.ts";
import { parseMetrics } from "../helpers/prometheus.ts";
import { waitFor } from "../helpers/wait_for.ts";

const ADMIN_PASSWORD = "Admin12345";
const DEVICE_A = "359710049000011";
const DEVICE_B = "359710049000022";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const importBoth = (server: ServerProcess) =>
  importDevices(server, ADMIN_PASSWORD, [DEVICE_A, DEVICE_B]);

/** Opens `n` silent connections spread over the three device ports. */
async function flood(server: ServerProcess, n: number): Promise<RawDevice[]> {
  const p = ports(server);
  const targets = [p.gt06, p.jt808, p.h02];
  const idle: RawDevice[] = [];
  for (let i = 0; i < n; i++) idle.push(await RawDevice.open(targets[i % 3]));
  return idle;
}

const closedCount = (conns: RawDevice[]) => conns.filter((c) => c.closedByServer).length;

/**
 * Until the server has accepted `n` device connections (its gauge; a client's connect returns
 * once the kernel queued it, before the server took it). Sockets on the main thread count at
 * once; I/O workers report their counts about once a second, so there a pause stands in.
 */
async function accepted(server: ServerProcess, workers: string, n: number): Promise<void> {
  if (workers !== "0") return void await sleep(200);
  await waitFor(`the server accepting ${n} connections`, async () => {
    const text = await fetch(`${server.url}/metrics`, { client: fresh }).then((r) => r.text());
    return parseMetrics(text).sum("tp_gateway_connections") >= n;
  }, 5000);
}

async function until(what: string, ok: () => boolean, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for: ${what}`);
    await sleep(20);
  }
}

/**
 * A client that opens a new connection per request: a pooled keep-alive connection would
 * answer even when the listener no longer accepts.
 */
const fresh = Deno.createHttpClient({ poolMaxIdlePerHost: 0 });

/** /health answers "ok" and the administrator can log in: the console accepts and serves. */
async function consoleServes(server: ServerProcess): Promise<void> {
  const health = await fetch(`${server.url}/health`, { client: fresh }).then((r) => r.json());
  assert.equal(health.status, "ok");
  const login = await fetch(`${server.url}/v3/new/account/login`, {
    client: fresh,
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ account: "admin", password: ADMIN_PASSWORD }),
  }).then((r) => r.json());
  assert.equal(login.code, 10000, JSON.stringify(login));
}

/** Logs a GT06 device in and has one location acknowledged (heartbeat answered after it). */
async function reportingDevice(port: number, imei: string, i: number): Promise<RawDevice> {
  const d = await RawDevice.open(port);
  await d.send(gt06Login(imei, 1));
  await d.take(10);
  await report(d, i);
  return d;
}

async function report(d: RawDevice, i: number): Promise<void> {
  const time = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000 + i * 1000);
  await d.send(gt06Location({ time, lat: 22.5, lng: 114.05, speedKmh: 30, course: 0 }, 10 + i));
  await d.send(gt06Heartbeat(100 + i));
  await d.take(10);
}

const MODES = [
  { workers: "0", io: "epoll", label: "epoll sockets on the main thread" },
  { workers: "0", io: "deno", label: "Deno sockets on the main thread" },
  { workers: "2", io: "auto", label: "two I/O workers" },
];

const CAP = 30;
/** Long enough for the checks between the flood and the deadline on a loaded machine. */
const LOGIN_SECONDS = 3;

for (const mode of MODES) {
  Deno.test({
    name: `gateway limits (${mode.label}): past MAX_DEVICE_CONNECTIONS the newest unidentified ` +
      "connection is shed, identified devices and the console keep working, silent " +
      "connections close after DEVICE_LOGIN_SECONDS",
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async () => {
      const server = await startServer({
        ADMIN_PASSWORD,
        MAX_DEVICE_CONNECTIONS: String(CAP),
        DEVICE_LOGIN_SECONDS: String(LOGIN_SECONDS),
        GATEWAY_WORKERS: mode.workers,
        GATEWAY_IO: mode.io,
      });
      const opened: RawDevice[] = [];
      try {
        const limits =
          /File descriptors: soft limit (\d+), hard limit (\d+); device connections at most (\d+)/
            .exec(server.output());
        assert.ok(limits, server.output());
        assert.equal(limits[1], limits[2], "soft limit raised to the hard limit");
        assert.equal(Number(limits[3]), CAP);
        await importBoth(server);
        const gt06 = ports(server).gt06;
        const a = await reportingDevice(gt06, DEVICE_A, 1);
        opened.push(a);

        // Up to the cap (device A is one), then as many again.
        // (The last one after a pause: the three ports' connections are accepted port by
        // port, so only a pause makes it the newest accepted.)
        const early = await flood(server, CAP - 2);
        await accepted(server, mode.workers, CAP - 1);
        early.push(await RawDevice.open(ports(server).h02));
        await accepted(server, mode.workers, CAP);
        const late = await flood(server, CAP);
        const idle = [...early, ...late];
        opened.push(...idle);
        const expectShed = late.length;
        await until(`${expectShed} connections shed`, () => closedCount(idle) >= expectShed, 3000);
        // Shed on accept, not at the login deadline, and the newest first: each new connection
        // over the cap sheds the newest before it, so of the connections that came before the
        // cap was reached only the last is shed (with I/O workers, each worker sheds its own
        // newest: at most one early connection per worker).
        const earlyShed = closedCount(early);
        if (mode.workers === "0") {
          assert.equal(earlyShed, 1);
          assert.ok(early[early.length - 1].closedByServer, "the newest early one is shed");
        } else {
          assert.ok(earlyShed <= Number(mode.workers), `${earlyShed} early connections shed`);
        }
        assert.ok(!a.closedByServer, "an identified device is never shed");

        // A device connecting while the cap is full of idle sockets still gets in.
        const b = await reportingDevice(gt06, DEVICE_B, 3);
        opened.push(b);
        await until("one more shed for it", () => closedCount(idle) >= expectShed + 1, 2000);
        await sleep(100);
        assert.equal(closedCount(idle), expectShed + 1, "no more than needed is shed");
        await report(a, 2);
        await consoleServes(server);

        // Every connection that never identified is closed at its login deadline.
        await until(
          "silent connections closed",
          () => closedCount(idle) === idle.length,
          LOGIN_SECONDS * 1000 + 2000,
        );
        assert.ok(!a.closedByServer && !b.closedByServer, "identified devices stay");
        await report(a, 4);
        await report(b, 5);
        await consoleServes(server);
        assert.match(server.output(), /device connections: .*shed \d+ unidentified/);
      } finally {
        await Promise.all(opened.map((c) => c.done()));
        await server.stop();
      }
    },
  });
}

/** `prlimit` (util-linux) lowers the spawned server's descriptor limit. */
const prlimit = await new Deno.Command("prlimit", { args: ["--version"], stdout: "null" })
  .output().then((o) => o.success, () => false);
if (!prlimit) console.warn("gateway limits: prlimit not found, descriptor-limit tests ignored");

/** Runs the server under `prlimit --nofile=N:N`. */
const limitedServer = (nofile: number, env: Record<string, string>) =>
  startServer({ ADMIN_PASSWORD, GATEWAY_WORKERS: "0", ...env }, {
    command: [
      "prlimit",
      `--nofile=${nofile}:${nofile}`,
      Deno.execPath(),
      ...RUN_MAIN_ARGS,
    ],
  });

Deno.test({
  name: "gateway limits: with a low descriptor limit the default cap keeps a reserve, so a " +
    "flood of idle connections never reaches the HTTP listeners",
  ignore: !prlimit,
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const server = await limitedServer(300, { DEVICE_LOGIN_SECONDS: "30" });
    const opened: RawDevice[] = [];
    try {
      assert.match(
        server.output(),
        /File descriptors: soft limit 300, hard limit 300; device connections at most 150 \(150 kept/,
      );
      await importBoth(server);
      const a = await reportingDevice(ports(server).gt06, DEVICE_A, 1);
      opened.push(a);
      const idle = await flood(server, 400);
      opened.push(...idle);
      await until("connections over the cap shed", () => closedCount(idle) >= 400 - 149, 5000);
      await consoleServes(server);
      await report(a, 2);
      const b = await reportingDevice(ports(server).gt06, DEVICE_B, 3);
      opened.push(b);
      assert.doesNotMatch(server.output(), /Too many open files|Uncaught/);
    } finally {
      await Promise.all(opened.map((c) => c.done()));
      await server.stop();
    }
  },
});

Deno.test({
  name: "gateway limits: an HTTP listener that runs out of descriptors is logged and re-created, " +
    "the process survives",
  ignore: !prlimit,
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    // A cap far above the limit (an operator's mistake): descriptors do run out.
    const server = await limitedServer(200, {
      MAX_DEVICE_CONNECTIONS: "5000",
      DEVICE_LOGIN_SECONDS: "1",
    });
    const opened: RawDevice[] = [];
    try {
      assert.match(server.output(), /MAX_DEVICE_CONNECTIONS 5000 leaves fewer than/);
      opened.push(...await flood(server, 300));
      await sleep(300);
      // The console's accept fails (EMFILE) while the idle sockets hold every descriptor.
      await fetch(`${server.url}/health`, { client: fresh, signal: AbortSignal.timeout(2000) })
        .then((r) => r.body?.cancel(), () => null);
      // Once the login deadline closes them, the console answers again.
      const end = Date.now() + 12_000;
      for (;;) {
        const ok = await fetch(`${server.url}/health`, {
          client: fresh,
          signal: AbortSignal.timeout(1000),
        })
          .then(async (r) => (await r.json()).status === "ok", () => false);
        if (ok) break;
        if (Date.now() > end) throw new Error(`console did not come back:\n${server.output()}`);
        await sleep(200);
      }
      assert.match(
        server.output(),
        /console: HTTP listener on port \d+ stopped accepting .*re-creating it/,
      );
      assert.match(server.output(), /console: HTTP listener on port \d+ re-created/);
      await consoleServes(server);
    } finally {
      await Promise.all(opened.map((c) => c.done()));
      await server.stop();
    }
  },
});
