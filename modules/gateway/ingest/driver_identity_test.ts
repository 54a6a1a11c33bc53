/**
 * Driver identity reports as the ingest reads them from decoded messages: the captured
 * JT/T 808 0x0702 (card inserted, certificate code 0029b885), the simulator's 0x0702 with a
 * name, issuing body and validity, a card removal, and an RFID card id on a GT06/OsmAnd fix.
 */
import assert from "node:assert/strict";
import { newSession } from "../protocols/types.ts";
import { decodeFrame } from "../protocols/jt808/decoder.ts";
import { hex } from "../protocols/jt808/test_frames.ts";
import {
  jt808DriverIdentity,
  Jt808Link,
  simulatorDriverCard,
  unescapeJt808,
} from "../../simulator/devices/jt808.ts";
import { sampleFix } from "../../simulator/fix.ts";
import { driverIdentityOf } from "./driver_identity.ts";

const CAPTURE =
  "7e0702002201827061151401bc012510091507510000303032396238383500000000000000000000000000000000002b7e";
const AT = { time: 0, lat: 22.5, lng: 114.1 } as Parameters<typeof driverIdentityOf>[3];

function statusOf(frame: Uint8Array) {
  const { messages } = decodeFrame(frame, newSession(), { now: () => new Date() });
  const status = messages.find((m) => m.type === "status");
  assert.ok(status && status.type === "status", JSON.stringify(messages));
  return status;
}

Deno.test("driver identity: the captured 0x0702 is a card insertion with its certificate code", () => {
  const s = statusOf(hex(CAPTURE));
  const id = driverIdentityOf("359018270611514", s.time.getTime(), s.attributes, AT)!;
  assert.equal(id.type, "in");
  assert.equal(id.cardNo, "0029b885");
  assert.equal(id.time, "2025-10-09T07:07:51.000Z");
  assert.equal(id.readResult, 0);
  assert.deepEqual([id.lat, id.lng], [22.5, 114.1]);
  // The same report again is the same identity (a resend after a lost ack).
  assert.equal(driverIdentityOf("359018270611514", s.time.getTime(), s.attributes, AT)!.id, id.id);
});

Deno.test("driver identity: name, issuing body, validity; a removal; RFID fixes", () => {
  const time = new Date(Date.UTC(2026, 0, 5, 8, 0, 0));
  const card = { name: "Li Wei", code: "CERT-001", issuer: "SZ DOT", validity: "2028-03-31" };
  const inserted = unescapeJt808(
    jt808DriverIdentity("013912345678", 9, { inserted: true, time, card }),
  );
  const s = statusOf(Uint8Array.from([0x7e, ...inserted.subarray(1, -1), 0x7e]));
  const id = driverIdentityOf("1", s.time.getTime(), s.attributes, null)!;
  assert.deepEqual(
    [id.type, id.cardNo, id.name, id.issuer, id.certificateExpiry, id.time, id.lat],
    ["in", "CERT-001", "Li Wei", "SZ DOT", "2028-03-31", time.toISOString(), null],
  );
  const removed = unescapeJt808(jt808DriverIdentity("013912345678", 10, { inserted: false, time }));
  const r = statusOf(Uint8Array.from([0x7e, ...removed.subarray(1, -1), 0x7e]));
  const out = driverIdentityOf("1", r.time.getTime(), r.attributes, null)!;
  assert.deepEqual([out.type, out.cardNo], ["out", ""]);
  // GT06 RFID units and OsmAnd carry the card id on a fix: a swipe whose in/out the fleet decides.
  const swipe = driverIdentityOf("2", time.getTime(), { driverUniqueId: "00A1B2C3" }, AT)!;
  assert.deepEqual([swipe.type, swipe.cardNo], ["swipe", "00A1B2C3"]);
  assert.equal(driverIdentityOf("2", time.getTime(), { driverUniqueId: "0000" }, AT), null);
  assert.equal(driverIdentityOf("2", time.getTime(), { fuel: 3 }, AT), null);
});

Deno.test("driver identity: a simulated JT/T 808 driver swipes the device's card in and out", () => {
  const imei = "864000000000123";
  const link = new Jt808Link(imei);
  const fix = sampleFix({ time: new Date(Date.UTC(2026, 2, 1, 6, 0, 0)), acc: true });
  const read = (frame: Uint8Array) => {
    const raw = unescapeJt808(frame.subarray(1, -1));
    const s = statusOf(Uint8Array.from([0x7e, ...raw, 0x7e]));
    return driverIdentityOf(imei, s.time.getTime(), s.attributes, null)!;
  };
  const swipeIn = read(link.driverSwipe(fix, true));
  assert.deepEqual(
    [swipeIn.type, swipeIn.cardNo, swipeIn.name],
    ["in", simulatorDriverCard(imei).code, simulatorDriverCard(imei).name],
  );
  assert.equal(read(link.driverSwipe({ ...fix, acc: false }, false)).type, "out");
});
