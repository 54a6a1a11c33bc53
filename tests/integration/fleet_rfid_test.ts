/**
 * RFID swipes end to end (issue 19): a JT/T 808 terminal of an enterprise, over real TCP to a
 * real server process, sends a driver identity report (0x0702, a real capture: card inserted,
 * certificate code 0029b885) and later a card removal. The terminal is acknowledged, the swipe
 * is listed linked to the enterprise's driver with that RFID card number, the vehicle bound to
 * the terminal gets that driver as its current driver (the board shows them on duty), and the
 * removal ends the shift. An unknown card is kept and flagged. A GT06 RFID unit's captured
 * 0x17 fix swipes its driver in, the same card again out.
 */
import assert from "node:assert/strict";
import { ApiClient } from "../helpers/api_client.ts";
import { devicePorts } from "../helpers/gateway.ts";
import { gt06Heartbeat, gt06Login } from "../helpers/gt06_frames.ts";
import { buildFrame } from "../../modules/gateway/protocols/gt06/frame.ts";
import { RawDevice } from "../helpers/raw_device.ts";
import { type ServerProcess, startServer } from "../helpers/server.ts";
import { alertMailTo, enterpriseWithDevices } from "../helpers/fleet.ts";
import { mailText, smtpEnv, startSmtp } from "../helpers/smtp.ts";
import { hex, wire } from "../../modules/gateway/protocols/jt808/test_frames.ts";
import {
  JT,
  jt808Auth,
  jt808DriverIdentity,
  jt808Location,
  jt808Register,
  type Jt808ServerFrame,
  Jt808StreamReader,
} from "../../modules/simulator/devices/jt808.ts";
import { latin1Text, sampleFix } from "../../modules/simulator/fix.ts";

const ADMIN_PASSWORD = "Admin12345";
const PASSWORD = "Passw0rd1";
/** The capture's terminal number is 018270611514: the IMEI ends with it. */
const IMEI = "359018270611514";
const TERMINAL = IMEI.slice(-12);
/** Captured 0x0702 (jt808-huabao fixtures): inserted 2025-10-09 15:07:51 +08, code 0029b885. */
const CAPTURE =
  "7e0702002201827061151401bc012510091507510000303032396238383500000000000000000000000000000000002b7e";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor<T>(what: string, fn: () => Promise<T | null | undefined | false>) {
  const until = Date.now() + 15_000;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

/** The 0x8001 answer to our `serial` of `msgId`: its result byte. */
async function acked(d: RawDevice<Jt808ServerFrame>, serial: number, msgId: number) {
  const f = await d.frame();
  assert.equal(f.msgId, JT.PLATFORM_REPLY);
  assert.equal((f.body[0] << 8) | f.body[1], serial, "reply serial");
  assert.equal((f.body[2] << 8) | f.body[3], msgId, "reply message id");
  return f.body[4];
}

/** A JT/T 808 terminal connected, registered (serial 1) and authenticated (serial 2). */
async function signedInTerminal(server: ServerProcess, terminal: string) {
  const d = await RawDevice.open(devicePorts(server).jt808, new Jt808StreamReader());
  await d.send(jt808Register(terminal, 1));
  const reg = await d.frame();
  assert.equal(reg.msgId, JT.REGISTER_REPLY);
  await d.send(jt808Auth(terminal, 2, latin1Text(reg.body.subarray(3))));
  assert.equal(await acked(d, 2, JT.AUTH), 0);
  return d;
}

Deno.test({
  name: "fleet: a JT/T 808 0x0702 swipe over TCP is stored linked to its driver",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const server = await startServer({ ADMIN_PASSWORD });
    let d: RawDevice<Jt808ServerFrame> | null = null;
    try {
      const { admin, adminId, ent: api } = await enterpriseWithDevices(server.url, {
        adminPassword: ADMIN_PASSWORD,
        account: "rfident",
        password: PASSWORD,
        imeis: [IMEI],
        mcType: "JT808",
        timeZones: "Asia/Shanghai",
      });
      const driver = await api.call("/v3/new/fleet/driver/add", {
        name: "Zhang San",
        rfidCardNo: "0029b885",
        licenseNo: "L-77",
      });
      const vehicle = await api.call("/v3/new/fleet/vehicle/add", {
        plate: "粤B-RFID1",
        imei: IMEI,
        status: "using",
      });

      d = await signedInTerminal(server, TERMINAL);
      // A fix first, so the swipe has a place.
      const fix = sampleFix({
        time: new Date(Date.now() - 60_000),
        latitude: 22.54,
        longitude: 114.06,
      });
      await d.send(jt808Location(TERMINAL, 3, fix));
      assert.equal(await acked(d, 3, JT.LOCATION), 0);

      // The captured swipe: acknowledged (after its commit), then listed with its driver.
      await d.send(wire(hex(CAPTURE)));
      assert.equal(await acked(d, 0x01bc, JT.DRIVER_IDENTITY), 0);
      const range = { startTime: "2025-10-09", endTime: "2025-10-09", pageNum: 1, pageSize: 10 };
      const listed = await waitFor("the swipe record", async () => {
        const r = await api.call("/v3/new/fleet/rfid/list", range);
        return r.total === 1 ? r : null;
      });
      const swipe = listed.list[0];
      assert.equal(swipe.cardNo, "0029b885");
      assert.equal(swipe.driverId, driver.id);
      assert.equal(swipe.driverName, "Zhang San");
      assert.equal(swipe.imei, IMEI);
      assert.equal(swipe.type, "in");
      assert.equal(swipe.time, "2025-10-09T07:07:51.000Z");
      assert.equal(swipe.plate, "粤B-RFID1");
      assert.ok(Math.abs(swipe.lat - 22.54) < 1e-4 && Math.abs(swipe.lng - 114.06) < 1e-4);
      assert.equal(swipe.unknown, false);
      // The swipe made the driver the vehicle's current driver: the board shows them on duty.
      const board = await api.call("/v3/new/fleet/board", {});
      assert.deepEqual(board.onDuty, [{
        driverId: driver.id,
        driverName: "Zhang San",
        vehicleId: vehicle.id,
        plate: "粤B-RFID1",
      }]);
      // The device resends the same report (a lost ack): still one record.
      await d.send(wire(hex(CAPTURE)));
      assert.equal(await acked(d, 0x01bc, JT.DRIVER_IDENTITY), 0);

      // Card removed (no code): the current driver's swipe out ends the shift.
      const outAt = new Date(Date.UTC(2025, 9, 9, 9, 30, 0));
      await d.send(jt808DriverIdentity(TERMINAL, 5, { inserted: false, time: outAt }));
      assert.equal(await acked(d, 5, JT.DRIVER_IDENTITY), 0);
      // A card nobody holds: kept, flagged unknown; matched on the licence number otherwise.
      const unknownAt = new Date(Date.UTC(2025, 9, 9, 10, 0, 0));
      const card = { name: "Wang", code: "NOBODY01", issuer: "SZ DOT", validity: "2027-06-30" };
      await d.send(jt808DriverIdentity(TERMINAL, 6, { inserted: true, time: unknownAt, card }));
      assert.equal(await acked(d, 6, JT.DRIVER_IDENTITY), 0);
      const byLicence = { ...card, code: "L-77" };
      const licenceAt = new Date(Date.UTC(2025, 9, 9, 11, 0, 0));
      await d.send(
        jt808DriverIdentity(TERMINAL, 7, { inserted: true, time: licenceAt, card: byLicence }),
      );
      assert.equal(await acked(d, 7, JT.DRIVER_IDENTITY), 0);
      const all = await waitFor("four swipes", async () => {
        const r = await api.call("/v3/new/fleet/rfid/list", range);
        return r.total === 4 ? r : null;
      });
      const [licence, unknown, out] = all.list;
      assert.deepEqual([out.type, out.driverId, out.cardNo], ["out", driver.id, ""]);
      assert.equal(unknown.unknown, true);
      assert.equal(unknown.driverId, "");
      assert.equal(unknown.cardNo, "NOBODY01");
      assert.equal(unknown.issuer, "SZ DOT");
      assert.equal(unknown.certificateExpiry, "2027-06-30");
      assert.equal(licence.driverId, driver.id);
      // Alerts carry the driver of their moment: an SOS during the shift names Zhang San, one
      // after the card came out names nobody.
      const sos = (seq: number, time: Date) =>
        d!.send(jt808Location(TERMINAL, seq, { ...sampleFix({ time }), alarm: "sos" }));
      await sos(8, new Date(Date.UTC(2025, 9, 9, 8, 0, 0)));
      assert.equal(await acked(d, 8, JT.LOCATION), 0);
      await sos(9, new Date(Date.UTC(2025, 9, 9, 9, 45, 0)));
      assert.equal(await acked(d, 9, JT.LOCATION), 0);
      const alerts = await waitFor("two SOS alerts", async () => {
        const r = await api.call("/v3/new/alarm/list", {
          startTime: "2025-10-09T00:00:00Z",
          endTime: "2025-10-09T23:59:59Z",
          types: ["sos"],
        });
        return r.total === 2 ? r : null;
      });
      const [afterShift, duringShift] = alerts.list;
      assert.equal(duringShift.driverName, "Zhang San");
      assert.equal(duringShift.driverId, driver.id);
      assert.equal(afterShift.driverName, "");
      const unknownOnly = await api.call("/v3/new/fleet/rfid/list", {
        ...range,
        unknownOnly: true,
      });
      assert.equal(unknownOnly.total, 1);
      const byDriver = await api.call("/v3/new/fleet/rfid/list", { ...range, driverId: driver.id });
      assert.equal(byDriver.total, 3);
      // Dates and times are the account's wall clock (Asia/Shanghai, UTC+8): until 17:30 there
      // is until 09:30 UTC, the swipe out included, the later two not.
      const untilOut = await api.call("/v3/new/fleet/rfid/list", {
        ...range,
        endTime: "2025-10-09 17:30",
      });
      assert.deepEqual(untilOut.list.map((r: { type: string }) => r.type), ["out", "in"]);
      // Another enterprise sees none of it.
      await admin.call("/v3/new/account/add", {
        account: "rfidother",
        nickName: "Other",
        password: PASSWORD,
        accountType: 9,
        parentId: adminId,
      });
      const other = await ApiClient.login(server.url, "rfidother", PASSWORD);
      assert.equal((await other.call("/v3/new/fleet/rfid/list", range)).total, 0);
    } finally {
      d?.conn.close();
      await server.stop();
    }
  },
});

/** A GT06 RFID unit's 0x17 (GPS, cell, 8-byte card id), captured: 2024-06-14 02:24:49, card bf0000012ca7e001. */
const GT06_RFID =
  "7878281718060e021831c6026e8acc0c361b1000140001cc00286d000f4dbf0000012ca7e001000004b2630d0a";
const GT06_IMEI = "359710049440017";

Deno.test({
  name: "fleet: GT06 RFID fixes over TCP swipe a driver in, the same card again out",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const server = await startServer({ ADMIN_PASSWORD });
    let d: RawDevice | null = null;
    try {
      const { ent: api } = await enterpriseWithDevices(server.url, {
        adminPassword: ADMIN_PASSWORD,
        account: "gt06ent",
        password: PASSWORD,
        imeis: [GT06_IMEI],
      });
      const driver = await api.call("/v3/new/fleet/driver/add", {
        name: "Huang Lei",
        rfidCardNo: "BF0000012CA7E001",
      });
      await api.call("/v3/new/fleet/vehicle/add", { plate: "GT-1", imei: GT06_IMEI });

      d = await RawDevice.open(devicePorts(server).gt06);
      await d.send(gt06Login(GT06_IMEI, 1));
      await d.take(10);
      const captured = hex(GT06_RFID);
      await d.send(captured);
      // The same card 40 minutes later: the current driver's second swipe clocks out.
      const content = captured.slice(4, 4 + 35);
      content[4] = 0x3a; // 02:24:49 → 02:58:49 (GT06 dates are binary: 0x18 is 2024)
      await d.send(buildFrame(0x17, 5, content));
      await d.send(gt06Heartbeat(6));
      await d.take(10); // answered once everything before it is stored
      const range = { startTime: "2024-06-14", endTime: "2024-06-14", pageNum: 1, pageSize: 10 };
      const listed = await waitFor("two swipes", async () => {
        const r = await api.call("/v3/new/fleet/rfid/list", range);
        return r.total === 2 ? r : null;
      });
      const [out, inn] = listed.list;
      assert.ok(out.time > inn.time);
      assert.deepEqual(
        [inn.type, inn.driverId, inn.cardNo, inn.time],
        ["in", driver.id, "bf0000012ca7e001", "2024-06-14T02:24:49.000Z"],
      );
      assert.deepEqual([out.type, out.driverId], ["out", driver.id]);
      assert.ok(inn.lat > 22 && inn.lat < 23, JSON.stringify(inn));
      const board = await api.call("/v3/new/fleet/board", {});
      assert.deepEqual(board.onDuty, []);
    } finally {
      d?.conn.close();
      await server.stop();
    }
  },
});

Deno.test({
  name: "fleet: a trip, an alert mail and the monitor card name the driver who swiped in",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const smtp = await startSmtp();
    const server = await startServer({ ADMIN_PASSWORD, ...smtpEnv(smtp) });
    const imei = "359018270622222", terminal = imei.slice(-12);
    let d: RawDevice<Jt808ServerFrame> | null = null;
    try {
      const { ent: api } = await enterpriseWithDevices(server.url, {
        adminPassword: ADMIN_PASSWORD,
        account: "tripdriver",
        password: PASSWORD,
        imeis: [imei],
        mcType: "JT808",
      });
      await api.call("/v3/new/fleet/driver/add", { name: "Li Si", rfidCardNo: "CARD-LI" });
      await api.call("/v3/new/fleet/vehicle/add", { plate: "TRIP-1", imei, status: "using" });
      await alertMailTo(api, smtp, "ops@trip.test", ["sos"]);

      d = await signedInTerminal(server, terminal);
      const start = Math.floor(Date.now() / 1000) * 1000 - 30 * 60_000;
      const card = { name: "Li Si", code: "CARD-LI", issuer: "SZ DOT", validity: "2030-01-01" };
      await d.send(
        jt808DriverIdentity(terminal, 3, { inserted: true, time: new Date(start), card }),
      );
      assert.equal(await acked(d, 3, JT.DRIVER_IDENTITY), 0);
      // Ten minutes north at ~36 km/h, then parked ten minutes: one closed trip.
      let seq = 4;
      for (let s = 60; s <= 20 * 60; s += 10) {
        const moving = s <= 11 * 60;
        const north = Math.min(s - 60, 10 * 60) * 10 / 111_195;
        const fix = sampleFix({
          time: new Date(start + s * 1000),
          latitude: 22.5 + north,
          longitude: 114.0,
          speedKmh: moving ? 36 : 0,
          acc: moving,
          ...(s === 300 ? { alarm: "sos" as const } : {}),
        });
        await d.send(jt808Location(terminal, seq, fix));
        assert.equal(await acked(d, seq, JT.LOCATION), 0);
        seq++;
      }
      const trips = await waitFor("the trip", async () => {
        const r = await api.call("/v3/new/report/trips", {
          imeis: [imei],
          startTime: new Date(start - 60_000).toISOString(),
          endTime: new Date().toISOString(),
          pageNum: 1,
          pageSize: 10,
        });
        return r.total === 1 && r.list[0].endTime ? r : null;
      });
      assert.equal(trips.list[0].driverName, "Li Si");
      // The monitor's card of the device names its driver now (still swiped in).
      const shown = await api.call(`/v3/new/monitor/objects?imei=${imei}`);
      assert.equal(shown.facts.driver, "Li Si");
      const mails = await smtp.waitFor(2);
      assert.match(mailText(mails[1].raw), /Driver: Li Si/);
    } finally {
      d?.conn.close();
      await server.stop();
      await smtp.close();
    }
  },
});
