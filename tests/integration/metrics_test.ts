/**
 * GET /metrics while devices report: a real server process (sockets on the main thread, and
 * two I/O workers whose counts must reach the main thread), GT06 devices over loopback, the
 * scrape parsed as the Prometheus text format; who may scrape (loopback, METRICS_TOKEN) is
 * checked in-process, where the client address can be set.
 */
import assert from "node:assert/strict";
import { gt06Heartbeat, gt06Login } from "../helpers/gt06_frames.ts";
import { devicePorts, importDevices, trackLocation as location } from "../helpers/gateway.ts";
import { RawDevice } from "../helpers/raw_device.ts";
import { startServer } from "../helpers/server.ts";
import { parseMetrics, type Scrape } from "../helpers/prometheus.ts";
import { testApp } from "../helpers/harness.ts";
import { concatBytes } from "../../lib/bytes.ts";

const ADMIN_PASSWORD = "Admin12345";
const DEVICES = ["359710049100001", "359710049100002", "359710049100003"];
const UNKNOWN = "359710049199999";
const ROUNDS = 4;
/** A location frame whose CRC is wrong (GT06 keeps such frames, and counts them). */
function badCrc(frame: Uint8Array): Uint8Array {
  const copy = frame.slice();
  copy[copy.length - 3] ^= 0xff;
  return copy;
}

async function scrape(url: string): Promise<Scrape> {
  const res = await fetch(`${url}/metrics`);
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /^text\/plain; version=0\.0\.4/);
  return parseMetrics(await res.text());
}

/** Scrapes until `check` holds (counts from I/O workers arrive within about a second). */
async function scrapeUntil(url: string, check: (s: Scrape) => boolean): Promise<Scrape> {
  const end = Date.now() + 5000;
  for (;;) {
    const s = await scrape(url);
    if (check(s) || Date.now() > end) return s;
    await new Promise((r) => setTimeout(r, 100));
  }
}

for (const mode of [{ workers: "0", label: "main thread" }, { workers: "2", label: "2 workers" }]) {
  Deno.test({
    name: `metrics (${mode.label}): frames, connections, commits and HTTP counted while ` +
      "devices report",
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async () => {
      const server = await startServer({ ADMIN_PASSWORD, GATEWAY_WORKERS: mode.workers });
      const opened: RawDevice[] = [];
      try {
        await importDevices(server, ADMIN_PASSWORD, DEVICES);
        const gt06 = devicePorts(server).gt06;
        const before = await scrape(server.url);
        assert.equal(before.value("tp_gateway_frames_received_total", { protocol: "gt06" }), 0);

        // Each device logs in, then sends ROUNDS writes of a location and a heartbeat (the
        // heartbeat's answer means both are stored); the first device adds a bad CRC.
        let frames = 0, positions = 0;
        for (const imei of DEVICES) {
          const d = await RawDevice.open(gt06);
          opened.push(d);
          await d.send(gt06Login(imei, 1));
          await d.take(10);
          frames++;
        }
        for (let r = 0; r < ROUNDS; r++) {
          for (const d of opened) {
            await d.send(concatBytes([location(r), gt06Heartbeat(100 + r)]));
            frames += 2;
            positions++;
          }
          for (const d of opened) await d.take(10);
        }
        await opened[0].send(concatBytes([badCrc(location(50)), gt06Heartbeat(150)]));
        await opened[0].take(10);
        frames += 2;
        positions++;
        // An unknown device: refused, counted, its line in the log.
        const stranger = await RawDevice.open(gt06);
        await stranger.send(gt06Login(UNKNOWN, 1));
        await stranger.waitClosed();
        await stranger.done();
        frames++;

        // A worker reports counts without data (the stranger's refused login) within a second.
        const during = await scrapeUntil(
          server.url,
          (s) =>
            s.value("tp_gateway_connections", { protocol: "gt06" }) === DEVICES.length &&
            s.value("tp_gateway_frames_received_total", { protocol: "gt06" }) === frames,
        );
        assert.equal(
          during.value("tp_gateway_frames_received_total", { protocol: "gt06" }),
          frames,
        );
        assert.equal(
          during.value("tp_gateway_connections", { protocol: "gt06" }),
          DEVICES.length,
        );
        assert.equal(during.value("tp_gateway_bad_checksums_total", { protocol: "gt06" }), 1);
        assert.equal(
          during.value("tp_gateway_refused_total", { protocol: "gt06", reason: "unknown_device" }),
          1,
        );
        assert.equal(during.value("tp_gateway_frames_received_total", { protocol: "jt808" }), 0);
        assert.match(server.output(), new RegExp(`${UNKNOWN} not registered in the routing table`));

        // Every position went into a commit; every stored write was acknowledged after one.
        const commits = during.value("tp_ingest_commits_total", { result: "ok" })!;
        const writes = DEVICES.length * ROUNDS + 1;
        assert.ok(commits >= 1 && commits <= writes, `commits ${commits}`);
        assert.equal(during.value("tp_ingest_commit_positions_count"), commits);
        assert.equal(during.value("tp_ingest_commit_positions_sum"), positions);
        assert.equal(during.value("tp_ingest_commits_total", { result: "failed" }), 0);
        assert.equal(during.value("tp_ingest_ack_latency_seconds_count"), writes);
        assert.equal(
          during.value("tp_ingest_ack_latency_seconds_bucket", { le: "+Inf" }),
          writes,
        );
        assert.equal(during.value("tp_ingest_pending", { kind: "submissions" }), 0);
        assert.equal(during.value("tp_live_stream_clients"), 0);
        assert.equal(during.types.get("tp_ingest_ack_latency_seconds"), "histogram");

        // HTTP: the import call and the earlier scrapes are counted under their patterns.
        assert.equal(
          during.value("tp_http_requests_total", {
            method: "POST",
            route: "/v3/new/newEquipment/importEquipment",
            status: "200",
          }),
          1,
        );
        const scrapes = (s: Scrape) =>
          s.value("tp_http_requests_total", { method: "GET", route: "/metrics", status: "200" }) ??
            0;
        const after = await scrape(server.url);
        assert.ok(scrapes(after) > scrapes(during), "the HTTP counter moved");
        assert.ok(
          after.sum("tp_http_request_duration_seconds_count", { route: "/metrics" }) >= 2,
        );

        // Devices gone: the connection gauge falls back (a worker's share included).
        for (const d of opened) await d.done();
        opened.length = 0;
        const closed = await scrapeUntil(
          server.url,
          (s) => s.value("tp_gateway_connections", { protocol: "gt06" }) === 0,
        );
        assert.equal(closed.value("tp_gateway_connections", { protocol: "gt06" }), 0);
      } finally {
        for (const d of opened) await d.done().catch(() => {});
        await server.stop();
      }
    },
  });
}

Deno.test("metrics: loopback only without METRICS_TOKEN; with it, the bearer token", async () => {
  const remote = { remoteAddr: { hostname: "203.0.113.7", port: 40000, transport: "tcp" } };
  const local = { remoteAddr: { hostname: "127.0.0.1", port: 40000, transport: "tcp" } };
  const local6 = { remoteAddr: { hostname: "::1", port: 40000, transport: "tcp" } };
  const open = await testApp();
  try {
    assert.equal((await open.app.request("/metrics", {}, remote)).status, 403);
    const ok = await open.app.request("/metrics", {}, local);
    assert.equal(ok.status, 200);
    assert.match(await ok.text(), /# TYPE tp_gateway_frames_received_total counter/);
    assert.equal((await open.app.request("/metrics", {}, local6)).status, 200);
  } finally {
    await open.close();
  }
  const TOKEN = "s3cret-metrics-token-0123";
  const guarded = await testApp({ METRICS_TOKEN: TOKEN });
  try {
    const bearer = (t: string) => ({ headers: { authorization: `Bearer ${t}` } });
    assert.equal((await guarded.app.request("/metrics", {}, remote)).status, 401);
    assert.equal((await guarded.app.request("/metrics", {}, local)).status, 401);
    assert.equal(
      (await guarded.app.request("/metrics", bearer("wrong-token-0123456789"), remote)).status,
      401,
    );
    const res = await guarded.app.request("/metrics", bearer(TOKEN), remote);
    assert.equal(res.status, 200);
    assert.ok(parseMetrics(await res.text()).types.has("tp_http_requests_total"));
  } finally {
    await guarded.close();
  }
});
