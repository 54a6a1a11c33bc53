import assert from "node:assert/strict";
import { type DeviceMessage, newSession, type Position } from "../types.ts";
import { decodeH02 } from "./decoder.ts";
import { encodeH02Command } from "./encoder.ts";
import { h02 } from "./index.ts";
import { ACK_POSITIONS_KEY } from "./text.ts";

const NOW = new Date("2026-03-01T12:00:00Z");
const text = (value: string) => new TextEncoder().encode(value);
const fromHex = (hex: string) => Uint8Array.from(hex.match(/../g)!, (pair) => parseInt(pair, 16));

function positionOf(messages: DeviceMessage[]): Position {
  const message = messages.find((m) => m.type === "position");
  assert.ok(message?.type === "position", "expected a position");
  return message.position;
}

Deno.test("h02 decoder: V1 position with identify once per session", () => {
  const session = newSession();
  const frame = text(
    "*HQ,4210051415,V1,164549,A,0956.3869,N,08406.7068,W,010.50,123,221215,FFFFFBFF,712,01,9,77,6#",
  );
  const first = decodeH02(frame, session, NOW);
  assert.deepEqual(first.messages[0], { type: "identify", id: "4210051415" });
  assert.equal(session.deviceId, "4210051415");
  const position = positionOf(first.messages);
  assert.equal(position.time.toISOString(), "2015-12-22T16:45:49.000Z");
  assert.equal(position.valid, true);
  assert.ok(Math.abs(position.latitude - 9.93978) < 1e-5);
  assert.ok(Math.abs(position.longitude + 84.11178) < 1e-5);
  assert.equal(position.speed, 10.5); // knots, as sent
  assert.equal(position.course, 123);
  assert.equal(position.posType, 1);
  assert.equal(position.acc, false); // bit 10 cleared: ACC off
  assert.equal(position.attributes.status, 0xfffffbff);
  assert.equal(position.attributes.mcc, 712);
  assert.equal(position.attributes.cid, 77);
  assert.deepEqual(first.replies, [], "no reply to V1 by default");

  const second = decodeH02(frame, session, NOW);
  assert.ok(second.messages.every((m) => m.type !== "identify"));
});

Deno.test("h02 decoder: status bits give alarms in priority order", () => {
  const decode = (status: string) =>
    positionOf(
      decodeH02(
        text(`*HQ,1,V1,120000,A,5000.0000,N,01000.0000,E,0,0,010125,${status}#`),
        newSession(),
        NOW,
      ).messages,
    );
  assert.equal(decode("FFFFFFFD").alarm, "sos");
  assert.equal(decode("FFF7FFFF").alarm, "powerCut");
  assert.equal(decode("FFF7FFFD").alarm, "sos");
  assert.equal(decode("FFFFFFFE").alarm, "vibration");
  assert.equal(decode("FFFFFFFB").alarm, "overspeed");
  assert.equal(decode("FFFFFFFF").alarm, undefined);
  assert.equal(decode("FFFFFFFF").acc, true);
  assert.equal(decode("F7FFFBFF").attributes.blocked, true);
});

Deno.test("h02 decoder: frames without an id use the session's device", () => {
  const frame = text("*HQ,,V1,173212,A,2225.78879,S,02829.19021,E,0.00,0,290418,FFFFFBFF#");
  assert.deepEqual(decodeH02(frame, newSession(), NOW).messages, [], "unknown device: dropped");
  const session = newSession();
  session.deviceId = "353505221264507";
  const { messages } = decodeH02(frame, session, NOW);
  assert.equal(messages.length, 1);
  assert.ok(positionOf(messages).latitude < 0);
});

Deno.test("h02 decoder: heartbeat is a status and is echoed back", () => {
  const { messages, replies } = decodeH02(text("*HQ,135790246811220,HTBT,85#"), newSession(), NOW);
  assert.deepEqual(messages[1], { type: "status", time: NOW, battery: 85, attributes: {} });
  assert.deepEqual(replies, [text("*HQ,135790246811220,HTBT#")]);
});

Deno.test("h02 decoder: V1 acknowledgement is opt-in", () => {
  const session = newSession();
  session.extra[ACK_POSITIONS_KEY] = true;
  const { replies } = decodeH02(
    text("*HQ,2705171109,V1,213324,A,5002.5849,N,01433.7822,E,0.00,000,140613,FFFFFFFF#"),
    session,
    NOW,
  );
  assert.deepEqual(replies, [text("*HQ,2705171109,V4,V1,20260301120000#")]);
});

Deno.test("h02 decoder: V4 confirmation matches the command by its echoed time", () => {
  const session = newSession();
  session.deviceId = "2020916012";
  const sentAt = new Date("2026-03-01T13:03:05Z");
  const command = new TextDecoder().decode(
    encodeH02Command({ content: "S20,1,1", ref: 42 }, session, sentAt),
  );
  assert.equal(command, "*HQ,2020916012,S20,130305,1,1#");
  const { messages } = decodeH02(
    text(
      "*TH,2020916012,V4,S20,DONE,130305,050316,A,2212.8745,N,11346.6574,E,14.28,028,220902,F7FFFBFF#",
    ),
    session,
    NOW,
  );
  assert.deepEqual(messages[0], {
    type: "commandReply",
    text: "S20,DONE",
    success: true,
    commandRef: 42,
  });
  assert.equal(positionOf(messages).attributes.blocked, true);
});

Deno.test("h02 decoder: V4 without a fix still yields the reply", () => {
  const session = newSession();
  const { messages } = decodeH02(text("*HQ,2020916012,V4,S20,ERROR,130305#"), session, NOW);
  assert.deepEqual(messages.slice(1), [{
    type: "commandReply",
    text: "S20,ERROR",
    success: false,
  }]);
});

Deno.test("h02 decoder: NBR gives an LBS position with its cells", () => {
  const { messages } = decodeH02(
    text("*HQ,7401004662,NBR,160453,234,10,0,2,21580,27766,-67,21580,27767,-70,291019,FFFFFBFF,6#"),
    newSession(),
    NOW,
  );
  const position = positionOf(messages);
  assert.equal(position.posType, 2);
  assert.equal(position.valid, false);
  assert.equal(position.time.toISOString(), "2019-10-29T16:04:53.000Z");
  assert.deepEqual(JSON.parse(String(position.attributes.cellTowers)), [
    { mcc: 234, mnc: 10, lac: 21580, cid: 27766, rssi: -67 },
    { mcc: 234, mnc: 10, lac: 21580, cid: 27767, rssi: -70 },
  ]);
});

Deno.test("h02 decoder: binary long frame", () => {
  const { messages } = decodeH02(
    fromHex(
      "24410600082621532131081504419390060740418306000000fffffbfdff0015060000002c02dc0c000000001f",
    ),
    newSession(),
    NOW,
  );
  assert.deepEqual(messages[0], { type: "identify", id: "4106000826" });
  const position = positionOf(messages);
  assert.equal(position.time.toISOString(), "2015-08-31T21:53:21.000Z");
  assert.ok(Math.abs(position.latitude - 4.69898) < 1e-5);
  assert.ok(Math.abs(position.longitude + 74.06971) < 1e-5);
  assert.equal(position.battery, 100);
  assert.equal(position.alarm, "sos");
  assert.equal(position.attributes.mcc, 732);
  assert.equal(position.attributes.lac, undefined, "all-zero cell is a placeholder");
});

Deno.test("h02 decoder: binary frame with an 8-byte IMEI", () => {
  const { messages } = decodeH02(
    fromHex("2435248308419329301047591808172627335900074412294e024138feffffffff01120064ba73005ecc"),
    newSession(),
    NOW,
  );
  assert.deepEqual(messages[0], { type: "identify", id: "352483084193293" });
  const position = positionOf(messages);
  assert.equal(position.speed, 24);
  assert.equal(position.course, 138);
});

Deno.test("h02 decoder: malformed frames give nothing", () => {
  const cases = [
    "*HQ,1234,V1,999999,A,5000.0000,N,01000.0000,E,0,0,010125,FFFFFFFF#",
    "*HQ,1234,V1,120000,A,5000.0000,N,01000.0000,E,0,0,320125,FFFFFFFF#",
    "*HQ,1234,V1,120000,A,9500.0000,N,01000.0000,E,0,0,010125,FFFFFFFF#",
    "*HQ,1234,V1,120000,A,5075.0000,N,01000.0000,E,0,0,010125,FFFFFFFF#",
    "*HQ,12;34,V1,120000,A,5000.0000,N,01000.0000,E,0,0,010125,FFFFFFFF#",
    "*HQ,1234,V1,120000,A,5000.0000,N,01000.0000,E,0,0,010125,FFFFFFFF",
    "HQ,1234#",
  ];
  for (const frame of cases) {
    const { messages } = decodeH02(text(frame), newSession(), NOW);
    assert.ok(messages.every((m) => m.type === "identify"), frame);
  }
});

Deno.test("h02 decoder: truncated and random frames never throw", () => {
  const fixture = JSON.parse(
    Deno.readTextFileSync(
      new URL("../../../../../shared/fixtures/protocols/h02.json", import.meta.url),
    ),
  );
  const session = newSession();
  for (const sample of fixture.samples) {
    const bytes = fromHex(sample.hex);
    for (let length = 0; length <= bytes.length; length++) {
      decodeH02(bytes.subarray(0, length), session, NOW);
      // Corrupt one byte at a time as well.
      const corrupted = bytes.slice();
      corrupted[length % bytes.length] ^= 0x5a;
      decodeH02(corrupted, session, NOW);
    }
  }
  let state = 1;
  const random = (limit: number) => (state = (state * 1103515245 + 12345) & 0x7fffffff) % limit;
  for (let round = 0; round < 2000; round++) {
    const bytes = Uint8Array.from({ length: random(80) }, () => random(256));
    bytes[0] = [0x2a, 0x24, 0x58][random(3)];
    decodeH02(bytes, session, NOW);
    h02.decode(bytes, session);
  }
});

Deno.test("h02: an exception inside the decoder is counted as decodeErrors (for /metrics)", () => {
  const session = newSession();
  // No bytes at all where a frame belongs: the decoder throws; the guard drops the frame,
  // keeps the link and counts it (before, it was swallowed without a trace).
  const broken = undefined as unknown as Uint8Array;
  assert.deepEqual(h02.decode(broken, session), { messages: [], replies: [] });
  assert.equal(session.extra.decodeErrors, 1);
  h02.decode(broken, session);
  assert.equal(session.extra.decodeErrors, 2);
  // A well-formed frame counts nothing.
  h02.decode(
    text("*HQ,123456789012345,V1,120000,A,3000.0000,N,12000.0000,E,0.00,0,010326,FFFFFBFF#"),
    session,
  );
  assert.equal(session.extra.decodeErrors, 2);
});
