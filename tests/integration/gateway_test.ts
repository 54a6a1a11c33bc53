/**
 * The device gateway against a real server process on loopback: identity, acknowledgement
 * after storage, one connection per device, hostile input, idle cut-off and durability
 * across SIGKILL.
 */
import assert from "node:assert/strict";
import { ApiClient } from "../helpers/api_client.ts";
import { epollSupported } from "../../lib/net/libc.ts";
import { RUN_MAIN_ARGS } from "../../lib/deno_child.ts";
import { gt06Heartbeat, gt06Login } from "../helpers/gt06_frames.ts";
import {
  devicePorts as ports,
  gatewayCounters,
  importDevices,
  playback,
  TRACK_BASE as BASE,
  trackLocation as location,
  waitConnections,
} from "../helpers/gateway.ts";
import { RawDevice } from "../helpers/raw_device.ts";
import { freePort, type ServerProcess, startServer } from "../helpers/server.ts";
import {
  gt06CommandReply,
  Gt06StreamReader,
  parseGt06Command,
} from "../../modules/simulator/devices/gt06.ts";

const ADMIN_PASSWORD = "Admin12345";
const DEVICE_A = "359710049000011";
const DEVICE_B = "359710049000022";
const LOGIN_REPLY_SERIAL_1 = "787805010001d9dc0d0a";
/** DEVICE_TAKEOVER_SECONDS of the test server: a second login within it is refused. */
const TAKEOVER_MS = 1000;

const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const setup = (server: ServerProcess) =>
  importDevices(server, ADMIN_PASSWORD, [DEVICE_A, DEVICE_B]);

/**
 * Device sockets served on the main thread by each transport (libc epoll, Deno's sockets),
 * and by two I/O workers sharing the ports.
 */
const MODES = [
  { workers: "0", io: "epoll", label: "epoll sockets on the main thread" },
  { workers: "0", io: "deno", label: "Deno sockets on the main thread" },
  { workers: "2", io: "auto", label: "two I/O workers sharing the ports" },
];

for (const mode of MODES) {
  Deno.test({
    name: `gateway (${mode.label}): identity, ack after storage, one connection per device, ` +
      "commands, hostile input, idle cut-off",
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async (t) => {
      const server = await startServer({
        ADMIN_PASSWORD,
        DEVICE_IDLE_SECONDS: "2",
        DEVICE_TAKEOVER_SECONDS: String(TAKEOVER_MS / 1000),
        GATEWAY_WORKERS: mode.workers,
        GATEWAY_IO: mode.io,
      });
      const p = ports(server);
      const api = await setup(server);
      try {
        await t.step("the configured transport serves the sockets", () => {
          const expected = mode.io === "auto" ? (epollSupported() ? "epoll" : "deno") : mode.io;
          assert.match(server.output(), new RegExp(`TCP, ${expected} sockets`));
        });
        await t.step("an unknown IMEI is refused, logged and disconnected", async () => {
          const d = await RawDevice.open(p.gt06);
          await d.send(gt06Login("359710049099999"));
          await d.waitClosed();
          assert.match(server.output(), /359710049099999 not registered in the routing table/);
          await d.done();
        });

        await t.step("login reply is byte-exact; a stored location shows in playback", async () => {
          const d = await RawDevice.open(p.gt06);
          await d.send(gt06Login(DEVICE_A, 1));
          assert.equal(hex(await d.take(10)), LOGIN_REPLY_SERIAL_1);
          await d.send(location(1));
          await d.send(gt06Heartbeat(7));
          await d.take(10); // the heartbeat is answered only after everything before it is stored
          const points = await playback(api, DEVICE_A);
          assert.equal(points.length, 1);
          assert.equal(points[0].speed, 36);
          assert.ok(Math.abs(points[0].lat - 22.5001) < 1e-5);
          const list = await api.call("/v3/new/newEquipment/queryEquipmentList", {
            pageNum: 1,
            pageSize: 10,
          });
          const row = list.list.find((r: { imei: string }) => r.imei === DEVICE_A);
          assert.ok(row.position && row.gpsTime && row.hbTime);
          // /health counts the identified connection, and nothing but numbers.
          const counters = await gatewayCounters(server);
          assert.deepEqual(Object.keys(counters).sort(), ["connections", "implausibleTimes"]);
          assert.deepEqual(counters, { connections: 1, implausibleTimes: 0 });
          await d.done();
          await waitConnections(server, 0);
        });

        await t.step(
          "a second login is refused while the connection is active; after the takeover " +
            "time of silence a reconnect replaces it",
          async () => {
            const first = await RawDevice.open(p.gt06);
            await first.send(gt06Login(DEVICE_A, 1));
            await first.take(10);
            const second = await RawDevice.open(p.gt06);
            await second.send(gt06Login(DEVICE_A, 1));
            await second.waitClosed();
            await second.done();
            assert.match(server.output(), /second login of 359710049000011 refused/);
            // The first connection still reports.
            const stored = (await playback(api, DEVICE_A)).length;
            await first.send(location(2));
            await first.send(gt06Heartbeat(2));
            await first.take(10);
            assert.equal((await playback(api, DEVICE_A)).length, stored + 1);
            // The silence is what is tested: its length is the state (the first connection's
            // last heartbeat was answered, so the server heard it before this wait began).
            await sleep(TAKEOVER_MS + 200);
            const third = await RawDevice.open(p.gt06);
            await third.send(gt06Login(DEVICE_A, 1));
            await third.take(10);
            await first.waitClosed();
            await first.done();
            await third.done();
            await waitConnections(server, 0);
          },
        );

        await t.step(
          "a command goes out on the device's link and its reply settles it",
          async () => {
            const d = await RawDevice.open(p.gt06);
            await d.send(gt06Login(DEVICE_A, 1));
            await d.take(10);
            const sent = await api.call("/v3/new/command/send", {
              imei: DEVICE_A,
              content: "WHERE#",
              sendType: "online",
            });
            const head = await d.take(3);
            const rest = await d.take(head[2] + 2);
            const [frame] = new Gt06StreamReader().push(new Uint8Array([...head, ...rest]));
            assert.equal(frame.type, 0x80);
            const command = parseGt06Command(frame.content)!;
            assert.equal(command.text, "WHERE#");
            await d.send(gt06CommandReply(command.serverFlag, "Lat:22.5,Lon:114.0", 30));
            const end = Date.now() + 5000;
            for (;;) {
              const list = await api.call("/v3/new/command/list", {
                imei: DEVICE_A,
                pageNum: 1,
                pageSize: 10,
              });
              const row = list.list.find((r: { id: string }) => r.id === sent.id);
              if (row?.status === "succeeded") {
                assert.equal(row.reply, "Lat:22.5,Lon:114.0");
                break;
              }
              if (Date.now() > end) throw new Error(`command not settled: ${JSON.stringify(row)}`);
              await sleep(20);
            }
            await d.done();
            await waitConnections(server, 0);
          },
        );

        await t.step(
          "random, mutated and oversized input never disturbs a healthy device",
          async () => {
            const healthy = await RawDevice.open(p.gt06);
            await healthy.send(gt06Login(DEVICE_B, 1));
            await healthy.take(10);
            const hostile: Promise<void>[] = [];
            // Mutated logins may still parse (bad CRCs are accepted) and take over that device, as a
            // reconnect would: use the other device so the healthy one keeps its connection.
            const valid = [gt06Login(DEVICE_A), location(3), gt06Heartbeat()];
            for (const port of [p.gt06, p.jt808, p.h02]) {
              for (let k = 0; k < 6; k++) {
                hostile.push((async () => {
                  const d = await RawDevice.open(port).catch(() => null);
                  if (!d) return;
                  for (let round = 0; round < 20 && !d.closedByServer; round++) {
                    const frame = round % 2
                      ? crypto.getRandomValues(new Uint8Array(1 + Math.floor(Math.random() * 300)))
                      : mutate(valid[round % 3]);
                    await d.send(frame).catch(() => {});
                  }
                  await d.done();
                })());
              }
            }
            // One device sends a frame that never ends: cut by the frame size cap.
            const flood = await RawDevice.open(p.gt06);
            await flood.send(new Uint8Array([0x78, 0x78, 0xff, 0x12]));
            const junk = new Uint8Array(8192).fill(0x41);
            for (let i = 0; i < 4 && !flood.closedByServer; i++) {
              await flood.send(junk).catch(() => {});
            }
            // HTTP garbage at the OsmAnd port.
            for (const url of [`/?id=${"9".repeat(5000)}`, "/?lat=abc", "/?id=x&lat=999&lon=999"]) {
              const r = await fetch(`http://127.0.0.1:${p.osmand}${url}`).catch(() => null);
              await r?.body?.cancel();
            }
            for (let i = 0; i < 5; i++) {
              await healthy.send(location(100 + i));
              await healthy.send(gt06Heartbeat(200 + i));
              await healthy.take(10);
            }
            await Promise.all(hostile);
            await flood.waitClosed();
            await flood.done();
            const points = await playback(api, DEVICE_B);
            assert.ok(points.length >= 5, `healthy device stored ${points.length}`);
            assert.equal((await fetch(`${server.url}/health`).then((r) => r.json())).status, "ok");
            await healthy.done();
            // A mutated login may have attached DEVICE_A: the next step logs it in afresh.
            await waitConnections(server, 0);
          },
        );

        await t.step("a silent (half-open) connection is closed after the idle time", async () => {
          const d = await RawDevice.open(p.gt06);
          await d.send(gt06Login(DEVICE_A, 1));
          await d.take(10);
          await d.waitClosed(6000);
          await d.done();
        });
      } finally {
        await server.stop();
      }
    },
  });

  Deno.test({
    name: `gateway (${mode.label}): a SIGKILL during ingest loses no acknowledged position`,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async () => {
      const dataDir = await Deno.makeTempDir({ prefix: "tp-kill-" });
      let server = await startServer({
        ADMIN_PASSWORD,
        GATEWAY_WORKERS: mode.workers,
        GATEWAY_IO: mode.io,
      }, {
        dataDir,
      });
      await setup(server);
      const d = await RawDevice.open(ports(server).gt06);
      await d.send(gt06Login(DEVICE_A, 1));
      await d.take(10);
      const acked: number[] = [];
      // Send location i then a heartbeat; its reply proves location i is stored.
      const sending = (async () => {
        for (let i = 0; i < 500 && !d.closedByServer; i++) {
          try {
            await d.send(location(i));
            await d.send(gt06Heartbeat(i));
            await d.take(10, 2000);
            acked.push(i);
          } catch {
            break;
          }
        }
      })();
      // Kill while positions are still being acknowledged.
      const end = Date.now() + 10_000;
      while (acked.length < 50 && !d.closedByServer && Date.now() < end) await sleep(10);
      server.kill();
      await sending;
      await d.done();
      assert.ok(acked.length > 0, "some positions were acknowledged before the kill");
      server = await startServer({ ADMIN_PASSWORD }, { dataDir });
      try {
        const again = await ApiClient.login(server.url, "admin", ADMIN_PASSWORD);
        const stored = new Set(
          (await playback(again, DEVICE_A)).map((pt) => Date.parse(pt.gpsTime)),
        );
        const lost = acked.filter((i) => !stored.has(BASE + i * 1000));
        assert.deepEqual(lost, [], `acknowledged but lost after SIGKILL (of ${acked.length})`);
        // Device states are written lazily; start-up rebuilds them from the journal.
        const list = await again.call("/v3/new/newEquipment/queryEquipmentList", {
          pageNum: 1,
          pageSize: 10,
        });
        const row = list.list.find((r: { imei: string }) => r.imei === DEVICE_A);
        assert.ok(
          Date.parse(row.gpsTime) >= BASE + acked[acked.length - 1] * 1000,
          `device state after restart: ${row.gpsTime}`,
        );
      } finally {
        await server.stop();
      }
    },
  });
}

Deno.test({
  name: "gateway: a second instance on the same device port stops with a message naming it",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const first = await startServer({ ADMIN_PASSWORD, GATEWAY_WORKERS: "2" });
    try {
      const held = ports(first).gt06;
      // Both ways of serving sockets must refuse: SO_REUSEPORT workers would otherwise share it.
      for (const [workers, io] of [["0", "epoll"], ["0", "deno"], ["2", "epoll"]]) {
        const dataDir = await Deno.makeTempDir({ prefix: "tp-second-" });
        const out = await new Deno.Command(Deno.execPath(), {
          args: RUN_MAIN_ARGS,
          cwd: new URL("../../", import.meta.url).pathname,
          env: {
            PORT: String(freePort()),
            HOSTNAME: "127.0.0.1",
            DATA_DIR: dataDir,
            ADMIN_PASSWORD,
            GATEWAY_WORKERS: workers,
            GATEWAY_IO: io,
            GT06_PORT: String(held),
            JT808_PORT: String(freePort()),
            H02_PORT: String(freePort()),
            OSMAND_PORT: String(freePort()),
          },
          stdout: "piped",
          stderr: "piped",
        }).output();
        await Deno.remove(dataDir, { recursive: true });
        const stderr = new TextDecoder().decode(out.stderr);
        assert.equal(out.code, 2, stderr);
        assert.match(stderr, new RegExp(`GT06_PORT ${held} is already in use`));
      }
    } finally {
      await first.stop();
    }
  },
});

/** Flips a few bytes of a valid frame. */
function mutate(frame: Uint8Array): Uint8Array {
  const out = frame.slice();
  for (let k = 0; k < 3; k++) {
    out[Math.floor(Math.random() * out.length)] ^= 1 << Math.floor(Math.random() * 8);
  }
  return out;
}
