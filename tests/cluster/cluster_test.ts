/**
 * Cluster mode, multi-process (issue 23, "Done when"): a real PostgreSQL and nats-server, three
 * instances of the product (A, B, C) and HAProxy in front (tests/helpers/cluster.ts), on
 * loopback.
 * - a GT06 device connected to instance A is seen live by an SSE client on instance B (≤ 2 s);
 * - a command sent through B reaches a JT/T 808 terminal on A and its answer is recorded;
 * - an automatic report due while all instances tick runs once (one run, one mail);
 * - every OsmAnd fix of a device goes to one instance (the balancer hashes its id parameter);
 * - A is killed with SIGKILL, the device reconnects through the balancer and lands on B or C,
 *   and every fix the platform acknowledged is stored exactly once (playback through the API);
 * - a command sent after the fail-over to the instance that does not hold the device goes over
 *   NATS to the one that now does, reaches the device there and its answer is recorded;
 * - the isolation matrix passes with the stores on PostgreSQL.
 *
 * Runs in the test task's first pass on the run's PostgreSQL and NATS (TP_TEST_DATABASE_URL,
 * TP_TEST_NATS_URL; pass 2 leaves tests/cluster/ out); alone (`deno test -A tests/cluster/`)
 * it starts its own. Needs build/ (the test task builds it) and Debian's postgresql,
 * nats-server and haproxy.
 */
import assert from "node:assert/strict";
import pg from "pg";
import { PlatformApi } from "../../modules/simulator/api.ts";
import { Simulator } from "../../modules/simulator/simulator.ts";
import { type ClusterInstance, startCluster, type TestCluster } from "../helpers/cluster.ts";
import { parseMetrics } from "../helpers/prometheus.ts";
import { testNats } from "../helpers/nats.ts";
import { testPostgres } from "../helpers/postgres.ts";
import { smtpEnv, startSmtp } from "../helpers/smtp.ts";
import { commandRoundTrip } from "./command_round_trip.ts";
import { AckedGt06, type SentFix } from "./gt06_acked.ts";
import { liveStream, loginToken } from "./live_stream.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { denoChildArgs } from "../../lib/deno_child.ts";

const ADMIN_PASSWORD = "Admin12345";
const GT06_IMEI = "359710049230018";
const OSMAND_IMEI = "359710049230034";
const JT808_PREFIX = "86423000";
/** The isolation matrix: testApp (tests/helpers/harness.ts) opens its store by TP_TEST_BACKEND. */
const ISOLATION_TESTS = [
  "modules/accounts/isolation_test.ts",
  "modules/accounts/isolation_areas_test.ts",
  "modules/accounts/permission_matrix_test.ts",
];
const ROOT = new URL("../../", import.meta.url).pathname;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The minute (UTC, "HH:MM") an automatic report should be due: at least 25 s ahead. */
function nextSlot(): { time: string; at: number } {
  const at = Math.ceil((Date.now() + 25_000) / 60_000) * 60_000;
  return { time: new Date(at).toISOString().slice(11, 16), at };
}

/**
 * Runs of a "once" job and a "leader" job (both every minute) summed over the instances'
 * /metrics, read between 5 and 55 s into a minute (the minute's runs are over by then).
 */
async function jobRuns(cluster: TestCluster) {
  while (Date.now() % 60_000 < 5000 || Date.now() % 60_000 > 55_000) await sleep(500);
  const minute = Math.floor(Date.now() / 60_000);
  let once = 0, leader = 0;
  for (const i of cluster.instances.filter((i) => i.alive)) {
    const m = parseMetrics(await fetch(`${i.url}/metrics`).then((r) => r.text()));
    once += m.sum("tp_job_runs_total", { job: "work-mode task clock" });
    leader += m.sum("tp_job_runs_total", { job: "pack positions into blocks" });
  }
  assert.equal(Math.floor(Date.now() / 60_000), minute, "read within one minute");
  return { minute, once, leader };
}

async function gatewayConnections(base: string): Promise<number> {
  const health = await fetch(`${base}/health`).then((r) => r.json());
  return health.gateway?.connections ?? -1;
}

/** The one live instance with a device connection, once the others have none. */
async function connectedInstance(cluster: TestCluster): Promise<ClusterInstance> {
  const live = cluster.instances.filter((i) => i.alive);
  let counts: number[] = [];
  const settled = async () => {
    counts = await Promise.all(live.map((i) => gatewayConnections(i.url)));
    return counts.filter((n) => n !== 0).join() === "1";
  };
  await waitFor("one live instance to hold the device", settled, 5000).catch(() => {
    throw new Error(`connections per live instance: ${counts}`);
  });
  return live[counts.indexOf(1)];
}

/** One OsmAnd fix of OSMAND_IMEI at `unixSeconds` through the balancer; whether it was accepted. */
async function osmandFix(cluster: TestCluster, unixSeconds: number): Promise<boolean> {
  const q = new URLSearchParams({
    id: OSMAND_IMEI,
    timestamp: String(unixSeconds),
    lat: (22.5 + (unixSeconds % 100) / 10_000).toFixed(6),
    lon: "114.050000",
    speed: "10",
  });
  const res = await fetch(`http://127.0.0.1:${cluster.ports.osmand}/?${q}`, { method: "POST" });
  await res.body?.cancel();
  return res.status === 200;
}

/** OsmAnd requests each instance has received, in instance order. */
async function osmandFrames(cluster: TestCluster): Promise<number[]> {
  return await Promise.all(cluster.instances.map(async (i) => {
    const m = parseMetrics(await fetch(`${i.url}/metrics`).then((r) => r.text()));
    return m.sum("tp_gateway_frames_received_total", { protocol: "osmand" });
  }));
}

/** The platform's stored track of the GT06 device (through the balancer). */
async function storedFixes(api: PlatformApi, fixes: SentFix[]) {
  const times = fixes.map((f) => f.time);
  const { points } = await api.playback(
    GT06_IMEI,
    new Date(Math.min(...times) - 1000),
    new Date(Math.max(...times) + 1000),
  );
  return points;
}

Deno.test({
  name: "cluster: live events, commands, cron once and fail-over across instances",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async (t) => {
    const smtp = await startSmtp();
    const cluster = await startCluster({
      instances: 3,
      env: { ADMIN_PASSWORD, ...smtpEnv(smtp) },
    });
    const [a, b] = cluster.instances;
    let sim: Simulator | null = null;
    const device = new AckedGt06(GT06_IMEI, Math.floor(Date.now() / 1000) * 1000 - 600_000);
    try {
      // A token issued through A works on B and through the balancer.
      const tokenA = await loginToken(a.url, "admin", ADMIN_PASSWORD);
      const apiA = new PlatformApi(a.url, tokenA);
      const api = new PlatformApi(cluster.url, tokenA);
      const userId = await apiA.currentUserId();
      await apiA.importDevices(userId, "GT06N", [GT06_IMEI]);
      const slot = await scheduleReport(apiA);

      await t.step("a device on A is seen live by an SSE client on B within 2 s", async () => {
        const stream = liveStream(b.url, tokenA);
        await stream.connected();
        assert.ok(await device.connect(a.ports.gt06), "login on A acknowledged");
        const sentAt = performance.now();
        const fix = await device.sendAcked();
        const arrived = await stream.waitPosition(GT06_IMEI, fix.lat, 5000);
        stream.close();
        const ms = arrived - sentAt;
        assert.ok(ms <= 2000, `the live position reached B after ${ms.toFixed(0)} ms`);
      });

      await t.step(
        "a command sent through B reaches the terminal on A; its answer is recorded",
        async () => {
          const heard: string[] = [];
          sim = new Simulator({
            protocol: "jt808",
            devices: 1,
            port: a.ports.jt808,
            imeiPrefix: JT808_PREFIX,
            intervalSeconds: 3600,
            alarmScale: 0,
            reconnectsPerHour: 0,
            onCommand: (_imei, text) => heard.push(text),
          });
          const [imei] = sim.imeis;
          await apiA.importDevices(userId, "JT808", [imei]);
          sim.start();
          const apiB = new PlatformApi(b.url, tokenA);
          // B refuses an online command for a device it does not know online yet: its view of
          // the device's state follows A's state flushes (tp.sync), up to a minute apart.
          await waitFor("B to list the terminal's first report", async () => {
            const { list } = await apiB.listDevices({});
            return list.find((d) => d.imei === imei)?.gpsTime;
          }, 75_000);
          const row = await commandRoundTrip(apiB, imei, "locate");
          assert.equal(row.status, "succeeded", JSON.stringify(row));
          assert.match(row.reply ?? "", /^Lat:/);
          assert.deepEqual(heard, ["position query"]);
        },
      );

      await t.step("an automatic report due while the instances tick runs once", async () => {
        const before = await jobRuns(cluster);
        const history = () =>
          api.call<{ list: { trigger: string; status: string }[] }>(
            "/v3/new/autoReport/history",
            { id: slot.id },
          );
        await waitFor(
          "the slot's run",
          async () => (await history()).list.some((r) => r.trigger === "schedule"),
          Math.max(0, slot.at - Date.now()) + 30_000,
        );
        // The instances tick in the same second: a second run would be there by now.
        await sleep(5000);
        const { list } = await history();
        const runs = list.filter((r) => r.trigger === "schedule");
        assert.equal(runs.length, 1, JSON.stringify(list));
        await smtp.waitFor(1);
        await sleep(1000);
        assert.equal(smtp.mails.length, 1, "one mail for the slot");
        // Every minute's "once" job ran once across the instances, the leader's job on one.
        const after = await jobRuns(cluster);
        const minutes = after.minute - before.minute;
        assert.ok(minutes >= 1);
        assert.equal(after.once - before.once, minutes, "work-mode task clock: once a minute");
        assert.equal(after.leader - before.leader, minutes, "position packing: once a minute");
      });

      // The instance the device lands on after A is killed (B or C: least connections).
      let holder: ClusterInstance | null = null;
      await t.step("every OsmAnd fix of a device reaches the same instance", async () => {
        await apiA.importDevices(userId, "OsmAnd", [OSMAND_IMEI]);
        const t0 = Math.floor(Date.now() / 1000) - 300;
        // The first fix once every instance accepts the device (the directory syncs within 5 s).
        await waitFor("the OsmAnd device accepted", () => osmandFix(cluster, t0), 10_000);
        const before = await osmandFrames(cluster);
        for (let i = 1; i <= 6; i++) assert.ok(await osmandFix(cluster, t0 + i * 10), `fix ${i}`);
        const after = await osmandFrames(cluster);
        const added = after.map((n, i) => n - before[i]).sort();
        assert.deepEqual(added, [0, 0, 6], "one instance took all six (by the id parameter)");
      });

      await t.step(
        "A is killed; the device reconnects through the balancer to B or C and no acknowledged fix is lost",
        async () => {
          for (let i = 0; i < 20; i++) await device.sendAcked();
          // Fixes in flight when A dies: sent, perhaps stored, never acknowledged.
          for (let i = 0; i < 5; i++) await device.send();
          cluster.kill(0);
          await waitFor(
            "the device to see A go",
            () => Promise.resolve(device.closedByServer),
            5000,
          );
          await waitFor(
            "a login through the balancer",
            () => device.connect(cluster.ports.gt06, 2000),
            20_000,
          );
          holder = await connectedInstance(cluster);
          for (let i = 0; i < 20; i++) await device.sendAcked();
          const stored = await waitFor("the acknowledged fixes in playback", async () => {
            const points = await storedFixes(api, device.acked);
            return points.length >= device.acked.length && points;
          });
          const count = new Map<number, number>();
          for (const p of stored) {
            const time = Date.parse(p.gpsTime);
            count.set(time, (count.get(time) ?? 0) + 1);
          }
          const missing = device.acked.filter((f) => !count.has(f.time));
          assert.deepEqual(missing, [], `${missing.length} acknowledged fixes lost`);
          const twice = [...count].filter(([, n]) => n > 1);
          assert.deepEqual(twice, [], "each fix stored once");
          assert.ok(stored.length <= device.sent.length);
        },
      );

      await t.step(
        "a command sent after the fail-over reaches the device on the instance that now holds it",
        async () => {
          assert.ok(holder, "the fail-over step found the device's instance");
          // Sent to the live instance that does not hold the device: it must look the new
          // holder up (not A, the holder before the fail-over) and hand it over on NATS.
          const other = cluster.instances.find((i) => i.alive && i !== holder)!;
          const [heard, row] = await Promise.all([
            device.answerCommand(),
            commandRoundTrip(new PlatformApi(other.url, tokenA), GT06_IMEI, "status"),
          ]);
          assert.equal(heard, "STATUS#");
          assert.equal(row.status, "succeeded", JSON.stringify(row));
          assert.match(row.reply ?? "", /^Battery:/);
          // The holder recorded the answer in the shared store: the console reads it anywhere.
          const { list } = await api.call<{ list: { id: string; reply: string | null }[] }>(
            "/v3/new/command/status",
            { imei: GT06_IMEI, pageNum: 1, pageSize: 10 },
          );
          assert.equal(list.find((c) => c.id === row.id)?.reply, row.reply);
        },
      );
    } finally {
      await device.close();
      await (sim as Simulator | null)?.stop();
      await cluster.stop();
      await smtp.close();
    }
  },
});

/** An automatic daily report of the admin's, due at the next whole minute (UTC) ≥ 25 s away. */
async function scheduleReport(api: PlatformApi) {
  await api.call("/v3/new/account/updateProfile", { timeZones: "UTC" });
  const slot = nextSlot();
  const added = await api.call<{ id: string }>("/v3/new/autoReport/add", {
    name: "Cluster once",
    reportType: "trackDetails",
    frequency: "day",
    executionTime: slot.time,
    imeis: [GT06_IMEI],
    emails: ["ops@example.com"],
    includeSubAccounts: false,
  });
  return { ...slot, id: added.id };
}

Deno.test({
  name: "cluster: the isolation matrix passes with the stores on PostgreSQL",
  fn: async () => {
    const postgres = await testPostgres();
    const nats = await testNats();
    try {
      const out = await new Deno.Command(Deno.execPath(), {
        args: denoChildArgs("test", "-A", "--no-check", ...ISOLATION_TESTS),
        cwd: ROOT,
        env: {
          TP_TEST_BACKEND: "postgres",
          TP_TEST_DATABASE_URL: postgres.adminUrl,
          TP_TEST_NATS_URL: nats.url,
          NO_COLOR: "1",
        },
        stdout: "piped",
        stderr: "piped",
      }).output();
      const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
      // The first errors say why (the whole list of steps is long).
      const errors = text.indexOf("ERRORS");
      assert.ok(out.success, text.slice(errors >= 0 ? errors : -4000).slice(0, 4000));
      assert.match(text, /ok \| \d+ passed/, text.slice(-2000));
      // The apps ran on PostgreSQL: each test app's data folder got its own database there.
      assert.ok(
        await databaseCount(postgres.adminUrl, "srv_") > 0,
        "no test database on PostgreSQL",
      );
    } finally {
      await nats.stop();
      await postgres.stop();
    }
  },
});

/** Databases on the server whose name starts with `prefix`. */
async function databaseCount(adminUrl: string, prefix: string): Promise<number> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const r = await client.query(
      "SELECT count(*)::int AS n FROM pg_database WHERE datname LIKE $1",
      [`${prefix}%`],
    );
    return r.rows[0].n;
  } finally {
    await client.end();
  }
}
