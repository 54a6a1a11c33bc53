import assert from "node:assert/strict";
import type { DeviceMessage, Position } from "../types.ts";
import { newSession } from "../types.ts";
import { crc16X25 } from "./crc.ts";
import { decodeGt06 } from "./decoder.ts";
import { fromHex } from "./reader.ts";
import { bytes, frame, gpsBlock, type GpsFields, hex, u16, u32 } from "./test_helpers.ts";

const CELL_2G = [...u16(460), 0x00, ...u16(0x287d), 0x00, 0x1f, 0x71]; // mcc, mnc, lac, cid
const FIX: GpsFields = {
  time: [24, 1, 2, 3, 4, 5],
  satellites: 9,
  latitude: 22.5,
  longitude: 114.25,
  speedKmh: 100,
  course: 90,
};

function only<T extends DeviceMessage["type"]>(messages: DeviceMessage[], type: T) {
  const found = messages.filter((m) => m.type === type);
  assert.equal(found.length, 1, `expected one ${type} message, got ${messages.map((m) => m.type)}`);
  return found[0] as Extract<DeviceMessage, { type: T }>;
}

function positionOf(messages: DeviceMessage[]): Position {
  return only(messages, "position").position;
}

Deno.test("CRC-ITU matches the X.25 check value", () => {
  assert.equal(crc16X25(new TextEncoder().encode("123456789")), 0x906e);
});

Deno.test("login: IMEI, time zone, session and byte-exact reply", () => {
  const session = newSession();
  // Example from the GT06 documents: IMEI 123456789012345, serial 1.
  const result = decodeGt06(fromHex("78780d01012345678901234500018cdd0d0a"), session);
  assert.deepEqual(result.messages, [{ type: "identify", id: "123456789012345" }]);
  assert.deepEqual(result.replies.map(hex), ["787805010001d9dc0d0a"]);
  assert.equal(session.deviceId, "123456789012345");

  // Type id 0x100b and zone word 0x3201 = UTC+8:00; 0x190a = UTC-4:00 (bit 3 = west).
  const east = decodeGt06(
    frame(0x01, 2, bytes(fromHex("0123456789012345"), 0x10, 0x0b, 0x32, 0x01)),
    session,
  );
  assert.equal(only(east.messages, "identify").timezoneOffsetMinutes, 480);
  const west = decodeGt06(
    frame(0x01, 3, bytes(fromHex("0123456789012345"), 0x10, 0x0b, 0x19, 0x0a)),
    session,
  );
  assert.equal(only(west.messages, "identify").timezoneOffsetMinutes, -240);
  assert.equal(session.timezoneOffsetMinutes, -240);
});

Deno.test("login with non-BCD IMEI is rejected", () => {
  const result = decodeGt06(frame(0x01, 1, bytes(fromHex("0a23456789012345"), 0, 1)), newSession());
  assert.deepEqual(result, { messages: [], replies: [] });
});

Deno.test("location 0x12: UTC time, coordinates /1 800 000, km/h → knots, not acknowledged", () => {
  const result = decodeGt06(frame(0x12, 7, bytes(gpsBlock(FIX), CELL_2G)), newSession());
  const p = positionOf(result.messages);
  assert.equal(p.time.toISOString(), "2024-01-02T03:04:05.000Z");
  assert.equal(p.valid, true);
  assert.ok(Math.abs(p.latitude - 22.5) < 1e-6);
  assert.ok(Math.abs(p.longitude - 114.25) < 1e-6);
  assert.ok(Math.abs(p.speed - 100 / 1.852) < 1e-9);
  assert.equal(p.course, 90);
  assert.equal(p.satellites, 9);
  assert.equal(p.posType, 1);
  assert.deepEqual(JSON.parse(p.attributes.cellTowers as string), [
    { mcc: 460, mnc: 0, lac: 0x287d, cid: 0x1f71 },
  ]);
  assert.deepEqual(result.replies, []);
});

Deno.test("hemisphere bits: south latitude and west longitude are negative", () => {
  const fix = { ...FIX, latitude: -33.5, longitude: -70.25, valid: false, acc: true };
  const p = positionOf(
    decodeGt06(frame(0x22, 1, bytes(gpsBlock(fix), CELL_2G, 1, 0, 0)), newSession()).messages,
  );
  assert.ok(Math.abs(p.latitude + 33.5) < 1e-6);
  assert.ok(Math.abs(p.longitude + 70.25) < 1e-6);
  assert.equal(p.valid, false);
  assert.equal(p.acc, true);
});

Deno.test("old 0x10 frames without serial and CRC still decode", () => {
  const raw = bytes(0x78, 0x78, 0x12, 0x10, gpsBlock(FIX), 0x0d, 0x0a);
  const session = newSession();
  const p = positionOf(decodeGt06(raw, session).messages);
  assert.ok(Math.abs(p.latitude - 22.5) < 1e-6);
  assert.equal(session.extra.badCrc, 1);
});

Deno.test("heartbeat 0x13: terminal info, battery %, GSM, alarm; byte-exact reply", () => {
  // 0x46: ACC on, charging, GPS tracking; level 4 → 67 %; GSM 3; alarm 0x01 SOS.
  const result = decodeGt06(frame(0x13, 0x10, bytes(0x46, 4, 3, 0x01, 0x02)), newSession());
  const status = only(result.messages, "status");
  assert.equal(status.acc, true);
  assert.equal(status.battery, 67);
  assert.equal(status.signal, 3);
  assert.equal(status.alarm, "sos");
  assert.equal(status.attributes.charging, true);
  assert.deepEqual(result.replies.map(hex), ["787805130010e8f90d0a"]);
});

Deno.test("alarm 0x16: GPS + LBS + status with alarm code; byte-exact reply", () => {
  const content = bytes(gpsBlock(FIX), 0x09, CELL_2G, 0x02, 6, 4, 0x05, 0x02);
  const result = decodeGt06(frame(0x16, 0x0203, content), newSession());
  const p = positionOf(result.messages);
  assert.equal(p.alarm, "geofenceExit");
  assert.equal(p.acc, true);
  assert.equal(p.battery, 100);
  assert.equal(p.signal, 4);
  assert.equal(p.attributes.event, 5);
  assert.deepEqual(result.replies.map(hex), ["787805160203c0ee0d0a"]);
});

Deno.test("alarm codes: terminal-info bits win, model tables override codes", () => {
  const status = (info: number, code: number, model?: string) => {
    const session = newSession();
    if (model) session.extra.model = model;
    const content = bytes(gpsBlock(FIX), 0x09, CELL_2G, info, 6, 4, code, 0x02);
    return positionOf(decodeGt06(frame(0x26, 1, content), session).messages).alarm;
  };
  assert.equal(status(0x00, 0x19), "lowBattery");
  assert.equal(status(0x00, 0x19, "LW4G-4B"), "harshAcceleration");
  assert.equal(status(0x00, 0x30, "G18"), "harshBraking");
  assert.equal(status(0x10, 0x04), "powerCut"); // bits 3-5 = 010
  assert.equal(status(0x00, 0x00), undefined);
});

Deno.test("LBS 0x19 becomes a posType 2 position without a fix", () => {
  const result = decodeGt06(frame(0x19, 5, bytes(CELL_2G, 0x00, 4, 4, 0x19, 0)), newSession());
  const p = positionOf(result.messages);
  assert.equal(p.posType, 2);
  assert.equal(p.valid, false);
  assert.equal(p.alarm, "lowBattery");
  assert.equal(result.replies.length, 1);
});

Deno.test("legacy WIFI 0x69: length byte = AP count, BCD time echoed back", () => {
  const time = [0x17, 0x10, 0x23, 0x11, 0x08, 0x50];
  const ap = [0x14, 0x75, 0x90, 0x5b, 0xd3, 0x0e, 0x25];
  const cells = [1, ...u16(204), 8, ...u16(0x0c4e), ...u16(0x2fa5), 0x64];
  const raw = bytes(0x78, 0x78, 0x01, 0x69, time, ap, cells, 0x0d, 0x0a);
  const result = decodeGt06(raw, newSession());
  const p = positionOf(result.messages);
  assert.equal(p.posType, 3);
  assert.equal(p.time.toISOString(), "2017-10-23T11:08:50.000Z");
  assert.deepEqual(JSON.parse(p.attributes.wifiAccessPoints as string), [
    { mac: "14:75:90:5b:d3:0e", signal: 0x25 },
  ]);
  assert.deepEqual(result.replies.map(hex), ["787800691710231108500d0a"]);
});

Deno.test("time request 0x8A is answered with the current UTC time", () => {
  const now = () => new Date(Date.UTC(2024, 2, 5, 6, 7, 8));
  const result = decodeGt06(frame(0x8a, 7), newSession(), now);
  assert.deepEqual(result.messages, []);
  assert.deepEqual(result.replies.map(hex), ["78780b8a18030506070800074a360d0a"]);
});

Deno.test("command replies carry the server flag as commandRef", () => {
  const text = new TextEncoder().encode("Cut off the fuel supply: Success!");
  const reply15 = bytes(4 + text.length, u32(0x01020304), text, 0x00, 0x02);
  const r15 = only(decodeGt06(frame(0x15, 9, reply15), newSession()).messages, "commandReply");
  assert.deepEqual(r15, {
    type: "commandReply",
    text: "Cut off the fuel supply: Success!",
    commandRef: 0x01020304,
  });

  const utf16 = Array.from("OK!").flatMap((c) => [0, c.charCodeAt(0)]);
  const reply21 = bytes(u32(77), 0x02, utf16);
  const r21 = only(
    decodeGt06(frame(0x21, 9, reply21, true), newSession()).messages,
    "commandReply",
  );
  assert.equal(r21.text, "OK!");
  assert.equal(r21.commandRef, 77);
});

Deno.test("extended AZ735 alarm is acknowledged with a long frame", () => {
  // No GPS, no cell, no WIFI: reported as a status, not as an empty (0,0) position.
  const content = bytes([17, 7, 6, 9, 2, 11], 0, 0, 0, 0, 0xa4, 0);
  const result = decodeGt06(frame(0x33, 0x0102, content, true), newSession());
  const status = only(result.messages, "status");
  assert.equal(status.alarm, "general");
  assert.equal(status.time.toISOString(), "2017-07-06T09:02:11.000Z");
  assert.deepEqual(result.replies.map(hex), ["79790005330102f2200d0a"]);
});

Deno.test("checksum policy: a wrong CRC is counted, the frame is still decoded", () => {
  const session = newSession();
  const good = frame(0x12, 7, bytes(gpsBlock(FIX), CELL_2G));
  decodeGt06(good, session);
  assert.equal(session.extra.badCrc, undefined);

  const bad = good.slice();
  bad[bad.length - 3] ^= 0xff;
  const p = positionOf(decodeGt06(bad, session).messages);
  assert.ok(Math.abs(p.latitude - 22.5) < 1e-6);
  assert.equal(session.extra.badCrc, 1);

  // Heartbeats with a bad CRC are still acknowledged, so the device does not reconnect.
  const hb = frame(0x13, 1, bytes(0x06, 4, 4, 0, 2));
  hb[hb.length - 4] ^= 0x01;
  assert.equal(decodeGt06(hb, session).replies.length, 1);
  assert.equal(session.extra.badCrc, 2);
});

Deno.test("unknown protocol numbers and non-GT06 bytes give an empty result", () => {
  assert.deepEqual(decodeGt06(frame(0x7e, 1, bytes(1, 2, 3)), newSession()), {
    messages: [],
    replies: [],
  });
  assert.deepEqual(decodeGt06(fromHex("474554202f20485454500d0a"), newSession()), {
    messages: [],
    replies: [],
  });
  assert.deepEqual(decodeGt06(new Uint8Array(0), newSession()), { messages: [], replies: [] });
});

/** Small deterministic PRNG so failures are reproducible. */
function prng(seed: number): () => number {
  return () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x80000000;
  };
}

Deno.test("truncated and random frames never throw", () => {
  const fixture = JSON.parse(
    Deno.readTextFileSync(
      new URL("../../../../../shared/fixtures/protocols/gt06.json", import.meta.url),
    ),
  );
  const session = newSession();
  for (const sample of fixture.samples) {
    const full = fromHex(sample.hex);
    for (let cut = 0; cut <= full.length; cut++) {
      const result = decodeGt06(full.subarray(0, cut), session);
      assert.ok(Array.isArray(result.messages) && Array.isArray(result.replies));
    }
  }

  const random = prng(42);
  for (let i = 0; i < 20_000; i++) {
    const length = Math.floor(random() * 80);
    const body = Uint8Array.from({ length }, () => Math.floor(random() * 256));
    const type = Math.floor(random() * 256);
    const extended = random() < 0.3;
    const candidate = random() < 0.5 ? frame(type, i & 0xffff, body, extended) : body;
    for (const model of ["", "LW4G", "R11", "SEEWORLD"]) {
      session.extra.model = model;
      const result = decodeGt06(candidate, session);
      assert.ok(Array.isArray(result.messages) && Array.isArray(result.replies));
    }
  }
  // Only truncation may stop a decode; any other exception would be a decoder bug.
  assert.equal(session.extra.decodeErrors, undefined);
  assert.ok((session.extra.truncated as number) > 0);
});
