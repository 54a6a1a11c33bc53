/**
 * Device identity and protocol gaps against a real server process on loopback: JT/T 808 auth
 * codes (strict and lenient), fixes dated before 2000, two fixes in one second, OsmAnd JSON
 * arrays and alarm names, and JT/T 808 frames whose version bit is a vendor's reserved bit.
 * The GT06 second-login (takeover) rule is tested in gateway_test.ts, once per transport.
 */
import assert from "node:assert/strict";
import type { ApiClient } from "../helpers/api_client.ts";
import { gt06Heartbeat, gt06Location, gt06Login } from "../helpers/gt06_frames.ts";
import {
  devicePorts as ports,
  gatewayCounters,
  importDevices,
  playback,
  TRACK_BASE as BASE,
  waitConnections,
} from "../helpers/gateway.ts";
import { RawDevice } from "../helpers/raw_device.ts";
import { type ServerProcess, startServer } from "../helpers/server.ts";
import { buildFrame } from "../../modules/gateway/protocols/gt06/frame.ts";
import { wire } from "../../modules/gateway/protocols/jt808/test_frames.ts";
import {
  bcd,
  JT,
  jt808Auth,
  jt808Location,
  jt808Register,
  type Jt808ServerFrame,
  Jt808StreamReader,
  locationBlock,
} from "../../modules/simulator/devices/jt808.ts";
import { latin1Text, sampleFix } from "../../modules/simulator/fix.ts";
import { openTestKv } from "../helpers/test_kv.ts";

const ADMIN_PASSWORD = "Admin12345";
const GT06_A = "359710049000033";
const JT_A = "359710049000044";
const JT_B = "359710049000055";
const OSMAND_A = "359710049000066";

const setup = (server: ServerProcess) =>
  importDevices(server, ADMIN_PASSWORD, [GT06_A, JT_A, JT_B, OSMAND_A]);

/** A JT/T 808 terminal's socket: `frame()` gives the server's next message. */
type Terminal = RawDevice<Jt808ServerFrame>;
const openTerminal = (port: number): Promise<Terminal> =>
  RawDevice.open(port, new Jt808StreamReader());

/** An auth code the store kept from an earlier life of an IMEI (before it was imported). */
const STALE_CODE = "EARLIERLIFECODE2";

/** A data folder whose store already holds `code` for `imei`, as if the IMEI had been here. */
async function storeWithStaleCode(imei: string, code: string): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "tp-stale-code-" });
  const kv = await openTestKv(`${dir}/tracking.kv`);
  await kv.set(["gateway", "jt808Code", imei], {
    code,
    issuedAt: Date.now() - 86_400_000,
    remote: "",
  });
  kv.close();
  return dir;
}

async function alerts(api: ApiClient, imei: string) {
  return (await api.call("/v3/new/alarm/list", { imeis: [imei], pageNum: 1, pageSize: 50 }))
    .list as { type: string; time: number }[];
}

const terminal = (imei: string) => imei.slice(-12);
const jtFix = (i: number) =>
  sampleFix({ time: new Date(BASE + i * 1000), latitude: 22.5 + i * 1e-4, longitude: 114.05 });

/** 0x8001's result for our message `serial`. */
function generalResult(f: Jt808ServerFrame, serial: number, msgId: number): number {
  assert.equal(f.msgId, JT.PLATFORM_REPLY);
  assert.equal((f.body[0] << 8) | f.body[1], serial, "reply serial");
  assert.equal((f.body[2] << 8) | f.body[3], msgId, "reply message id");
  return f.body[4];
}

/** Registers and returns the auth code of the 0x8100. */
async function register(d: Terminal, imei: string, serial: number): Promise<string> {
  await d.send(jt808Register(terminal(imei), serial));
  const f = await d.frame();
  assert.equal(f.msgId, JT.REGISTER_REPLY);
  assert.equal((f.body[0] << 8) | f.body[1], serial);
  assert.equal(f.body[2], 0, `registered (${JSON.stringify(f)})`);
  return latin1Text(f.body.subarray(3));
}

async function authenticate(d: Terminal, imei: string, serial: number, code: string) {
  await d.send(jt808Auth(terminal(imei), serial, code));
  return generalResult(await d.frame(), serial, JT.AUTH);
}

async function report(d: Terminal, imei: string, serial: number, i: number) {
  await d.send(jt808Location(terminal(imei), serial, jtFix(i)));
  return generalResult(await d.frame(), serial, JT.LOCATION);
}

/** A GT06 location frame whose date bytes are all zero (a clock never set). */
function gt06ZeroDate(serial: number): Uint8Array {
  const frame = gt06Location(
    { time: new Date(BASE), lat: 22.6, lng: 114.1, speedKmh: 10, course: 0 },
    serial,
  );
  const content = frame.slice(4, 4 + 26);
  content.fill(0, 0, 6);
  return buildFrame(0x12, serial, content);
}

/** A 2013 0x0200 whose properties word has bit 14 set (a vendor's use of the reserved bit). */
function flaggedLocation(phone: string, serial: number, i: number): Uint8Array {
  const body = locationBlock(jtFix(i));
  const content = [
    0x02,
    0x00,
    0x40 | (body.length >> 8),
    body.length & 0xff,
    ...bcd(phone, 6),
    serial >> 8,
    serial & 0xff,
    ...body,
  ];
  const check = content.reduce((x, b) => x ^ b, 0);
  return wire(Uint8Array.from([0x7e, ...content, check, 0x7e]));
}

Deno.test({
  name: "device identity (strict JT/T 808) and protocol gaps",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async (t) => {
    // Two I/O workers: registration and authentication cross the worker boundary.
    const server = await startServer({
      ADMIN_PASSWORD,
      GATEWAY_WORKERS: "2",
    }, { dataDir: await storeWithStaleCode(JT_B, STALE_CODE) });
    const p = ports(server);
    const api = await setup(server);
    try {
      await t.step(
        "JT/T 808: a report before authentication is refused and not stored",
        async () => {
          const d = await openTerminal(p.jt808);
          assert.equal(await report(d, JT_A, 1, 1), 1, "0x8001 result 1 (failure)");
          await d.done();
          assert.deepEqual(await playback(api, JT_A), []);
        },
      );

      let code = "";
      await t.step(
        "JT/T 808: register → authenticate with the issued code → report stored",
        async () => {
          const d = await openTerminal(p.jt808);
          code = await register(d, JT_A, 1);
          assert.match(code, /^[A-Z2-9]{16}$/);
          assert.notEqual(code, terminal(JT_A), "the code is not the phone number");
          assert.equal(await report(d, JT_A, 2, 2), 1, "registered is not authenticated");
          assert.equal(await authenticate(d, JT_A, 3, code), 0);
          assert.equal(await report(d, JT_A, 4, 3), 0);
          const points = await playback(api, JT_A);
          assert.deepEqual(points.map((pt) => Date.parse(pt.gpsTime)), [BASE + 3000]);
          await d.done();
          // Its authenticated connection would otherwise refuse the next step's registration.
          await waitConnections(server, 0);
        },
      );

      await t.step(
        "JT/T 808: a wrong code is refused with result 1; registering again heals",
        async () => {
          const d = await openTerminal(p.jt808);
          assert.equal(await authenticate(d, JT_A, 1, "NOT-THE-CODE"), 1);
          assert.equal(await authenticate(d, JT_A, 2, terminal(JT_A)), 1, "the phone is no code");
          assert.equal(await report(d, JT_A, 3, 4), 1);
          // A terminal refused registers again (as with another server's code) and gets a new one.
          const fresh = await register(d, JT_A, 4);
          assert.notEqual(fresh, code);
          assert.equal(await authenticate(d, JT_A, 5, fresh), 0);
          assert.equal(await report(d, JT_A, 6, 5), 0);
          await d.done();
          // The old code stopped working.
          const other = await openTerminal(p.jt808);
          assert.equal(await authenticate(other, JT_A, 1, code), 1);
          await other.done();
          const times = (await playback(api, JT_A)).map((pt) => Date.parse(pt.gpsTime));
          assert.deepEqual(times, [BASE + 3000, BASE + 5000]);
          assert.match(server.output(), /authentication of 359710049000044 refused/);
        },
      );

      await t.step(
        "JT/T 808: an IMEI imported anew accepts no auth code from an earlier life",
        async () => {
          const d = await openTerminal(p.jt808);
          assert.equal(await authenticate(d, JT_B, 1, STALE_CODE), 1);
          assert.equal(await report(d, JT_B, 2, 1), 1);
          await d.done();
          assert.deepEqual(await playback(api, JT_B), []);
        },
      );

      await t.step("JT/T 808: guessing codes ends the connection", async () => {
        const d = await openTerminal(p.jt808);
        for (let i = 1; i <= 5; i++) {
          await d.send(jt808Auth(terminal(JT_B), i, `GUESS${i}`));
        }
        await d.waitClosed();
        await d.done();
      });

      await t.step(
        "GT06: a fix dated before 2000 is acknowledged, flagged and kept out of tracks",
        async () => {
          const d = await RawDevice.open(p.gt06);
          await d.send(gt06Login(GT06_A, 1));
          await d.take(10);
          const before = (await playback(api, GT06_A)).length;
          const counted = (await gatewayCounters(server)).implausibleTimes;
          await d.send(gt06ZeroDate(5));
          await d.send(gt06Heartbeat(6));
          await d.take(10);
          assert.equal((await gatewayCounters(server)).implausibleTimes, counted + 1, "/health");
          assert.equal((await playback(api, GT06_A)).length, before);
          assert.deepEqual(await playback(api, GT06_A, Date.UTC(1999, 10, 30)), []);
          assert.match(server.output(), /359710049000033 sent a fix dated 1999-11-30/);
          await d.done();
        },
      );

      await t.step("GT06: disabling a device closes its live connection", async () => {
        const d = await RawDevice.open(p.gt06);
        await d.send(gt06Login(GT06_A, 7));
        await d.take(10);
        await api.call("/v3/new/newEquipment/enableEquipment", {
          imeis: [GT06_A],
          enabled: false,
        });
        await d.waitClosed();
        await d.done();
      });

      const osmand = (query: string, init?: RequestInit) =>
        fetch(`http://127.0.0.1:${p.osmand}/${query}`, init);

      await t.step(
        "OsmAnd: a time before 2000 is answered 200 and kept out of tracks",
        async () => {
          const counted = (await gatewayCounters(server)).implausibleTimes;
          const r = await osmand(`?id=${OSMAND_A}&lat=52.5&lon=13.4&timestamp=0`);
          await r.body?.cancel();
          assert.equal(r.status, 200);
          assert.equal((await gatewayCounters(server)).implausibleTimes, counted + 1, "/health");
          assert.deepEqual(await playback(api, OSMAND_A), []);
          assert.deepEqual(await playback(api, OSMAND_A, 20 * 86_400_000), [], "1970");
        },
      );

      await t.step(
        "OsmAnd: two fixes in one second at different places are both kept",
        async () => {
          const seconds = Math.floor(BASE / 1000) + 10;
          for (const lat of [52.5, 52.501]) {
            const r = await osmand(`?id=${OSMAND_A}&lat=${lat}&lon=13.4&timestamp=${seconds}`);
            await r.body?.cancel();
            assert.equal(r.status, 200);
          }
          const points = await playback(api, OSMAND_A);
          assert.deepEqual(points.map((pt) => pt.lat), [52.5, 52.501]);
        },
      );

      await t.step(
        "OsmAnd: a JSON array of positions (Traccar's client SDK) is stored",
        async () => {
          const item = (i: number) => ({
            device_id: OSMAND_A,
            location: {
              timestamp: new Date(BASE + 20_000 + i * 1000).toISOString(),
              coords: { latitude: 52.6 + i * 1e-3, longitude: 13.4 },
            },
          });
          const r = await osmand("", {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify([item(0), item(1), item(2)]),
          });
          await r.body?.cancel();
          assert.equal(r.status, 200);
          assert.equal((await playback(api, OSMAND_A)).length, 5);
        },
      );

      await t.step("OsmAnd: alarm= raises the alerts the binary protocols raise", async () => {
        const seconds = Math.floor(BASE / 1000) + 40;
        for (const [i, alarm] of ["sos", "fallDown", "hardBraking"].entries()) {
          const r = await osmand(
            `?id=${OSMAND_A}&lat=52.7&lon=13.4&timestamp=${seconds + i}&alarm=${alarm}`,
          );
          await r.body?.cancel();
          assert.equal(r.status, 200);
        }
        const types = (await alerts(api, OSMAND_A)).map((a) => a.type).sort();
        assert.deepEqual(types, ["fall", "harshBraking", "sos"]);
      });
    } finally {
      await server.stop();
    }
  },
});

Deno.test({
  name:
    "device identity: JT808_AUTH=lenient accepts reports as before; a reserved bit 14 reads as 2013",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async (t) => {
    const server = await startServer({
      ADMIN_PASSWORD,
      GATEWAY_WORKERS: "0",
      JT808_AUTH: "lenient",
    });
    const p = ports(server);
    const api = await setup(server);
    try {
      await t.step("a report without registration is stored; the code is the phone", async () => {
        const d = await openTerminal(p.jt808);
        assert.equal(await report(d, JT_A, 1, 1), 0);
        assert.equal((await playback(api, JT_A)).length, 1);
        assert.equal(await register(d, JT_A, 2), terminal(JT_A));
        assert.equal(await authenticate(d, JT_A, 3, "anything"), 0);
        await d.done();
      });

      await t.step(
        "a 2013 frame with bit 14 set names its terminal in the 2013 reading",
        async () => {
          const d = await openTerminal(p.jt808);
          await d.send(flaggedLocation(terminal(JT_B), 1, 7));
          const f = await d.frame();
          assert.equal(f.msgId, JT.PLATFORM_REPLY);
          const points = await playback(api, JT_B);
          assert.deepEqual(points.map((pt) => Date.parse(pt.gpsTime)), [BASE + 7000]);
          assert.ok(Math.abs(points[0].lat - jtFix(7).latitude) < 1e-5);
          await d.done();
        },
      );
    } finally {
      await server.stop();
    }
  },
});
