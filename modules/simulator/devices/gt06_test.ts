import assert from "node:assert/strict";
import { decodeGt06 } from "../../gateway/protocols/gt06/decoder.ts";
import { encodeCommand } from "../../gateway/protocols/gt06/encoder.ts";
import { Gt06Splitter } from "../../gateway/protocols/gt06/splitter.ts";
import { type DeviceMessage, newSession, type Position } from "../../gateway/protocols/types.ts";
import { KMH_PER_KNOT, sampleFix } from "../fix.ts";
import {
  crcItu,
  gt06Alarm,
  gt06CommandReply,
  gt06Heartbeat,
  gt06HeartbeatGk310,
  Gt06Link,
  gt06Location,
  gt06Login,
  Gt06StreamReader,
} from "./gt06.ts";

const IMEI = "860000001234563";

function positionOf(messages: DeviceMessage[]): Position {
  const m = messages.find((x) => x.type === "position");
  assert.ok(m && m.type === "position", `no position in ${JSON.stringify(messages)}`);
  return m.position;
}

function assertSameFix(p: Position, fix = sampleFix()) {
  assert.equal(p.time.toISOString(), fix.time.toISOString());
  assert.ok(Math.abs(p.latitude - fix.latitude) < 1e-6, `lat ${p.latitude}`);
  assert.ok(Math.abs(p.longitude - fix.longitude) < 1e-6, `lng ${p.longitude}`);
  assert.ok(Math.abs(p.speed - Math.round(fix.speedKmh) / KMH_PER_KNOT) < 1e-9, `speed ${p.speed}`);
  assert.equal(p.course, fix.course);
  assert.equal(p.valid, fix.valid);
  assert.equal(p.satellites, fix.satellites);
}

Deno.test("gt06 CRC-ITU check value", () => {
  assert.equal(crcItu(new TextEncoder().encode("123456789")), 0x906e);
});

Deno.test("gt06 login round-trips: identify with the IMEI, acknowledged with 0x01", () => {
  const session = newSession();
  const r = decodeGt06(gt06Login(IMEI, 1, { timezoneMinutes: 480 }), session);
  assert.deepEqual(r.messages, [{ type: "identify", id: IMEI, timezoneOffsetMinutes: 480 }]);
  assert.equal(r.replies.length, 1);
  assert.equal(session.extra.badCrc, undefined, "the CRC verifies");
  const link = new Gt06Link(IMEI);
  assert.deepEqual(link.receive(r.replies[0], () => sampleFix()), [{ type: "ready" }]);
});

Deno.test("gt06 location 0x22 round-trips time, coordinates, speed, course, ACC and mileage", () => {
  for (
    const fix of [
      sampleFix(),
      sampleFix({ latitude: -33.868820, longitude: -70.669265, acc: false, speedKmh: 0 }),
      sampleFix({ latitude: 52.520008, longitude: 13.404954, course: 359, speedKmh: 91.6 }),
    ]
  ) {
    const r = decodeGt06(gt06Location(fix, 7), newSession());
    const p = positionOf(r.messages);
    assertSameFix(p, fix);
    assert.equal(p.acc, fix.acc);
    assert.equal(p.mileage, Math.round(fix.odometerKm * 1000) / 1000);
    assert.equal(r.replies.length, 0, "GT06 locations are not acknowledged");
  }
  const archived = positionOf(
    decodeGt06(gt06Location(sampleFix(), 8, true), newSession()).messages,
  );
  assert.equal(archived.attributes.archive, true);
});

Deno.test("gt06 heartbeats 0x13 / 0x23 give status with ACC, battery and signal, acknowledged", () => {
  const fix = sampleFix({ battery: 100, signal: 3, acc: true });
  const r = decodeGt06(gt06Heartbeat(fix, 2), newSession());
  const s = r.messages[0];
  assert.ok(s.type === "status");
  assert.equal(s.acc, true);
  assert.equal(s.battery, 100);
  assert.equal(s.signal, 3);
  assert.equal(s.alarm, undefined);
  assert.equal(r.replies.length, 1);

  const r2 = decodeGt06(gt06HeartbeatGk310(sampleFix({ acc: false, signal: 2 }), 3), newSession());
  const s2 = r2.messages[0];
  assert.ok(s2.type === "status");
  assert.equal(s2.acc, false);
  assert.equal(s2.signal, 2);
  assert.equal(typeof s2.attributes.batteryVoltage, "number");
  assert.equal(r2.replies.length, 1);
});

Deno.test("gt06 alarm 0x26 carries SOS, power cut and vibration with the fix", () => {
  for (const alarm of ["sos", "powerCut", "vibration"] as const) {
    const fix = sampleFix({ alarm });
    const r = decodeGt06(gt06Alarm(fix, 9), newSession());
    const p = positionOf(r.messages);
    assertSameFix(p, fix);
    assert.equal(p.alarm, alarm);
    assert.equal(p.acc, true);
    assert.equal(r.replies.length, 1, "alarms are acknowledged");
  }
  const quiet = positionOf(decodeGt06(gt06Alarm(sampleFix(), 10, 0x16), newSession()).messages);
  assert.equal(quiet.alarm, undefined);
});

Deno.test("gt06 command 0x80 is answered with 0x21 echoing the server flag", () => {
  const server = newSession();
  const command = encodeCommand({ content: "STATUS#", ref: 0x12345678 }, server);
  const link = new Gt06Link(IMEI);
  const events = link.receive(command, () => sampleFix({ battery: 77 }));
  assert.equal(events.length, 1);
  const e = events[0];
  assert.ok(e.type === "command");
  assert.equal(e.text, "STATUS#");
  assert.match(e.replyText, /^Battery:77%/);
  const r = decodeGt06(e.reply, newSession());
  assert.deepEqual(r.messages[0], {
    type: "commandReply",
    text: e.replyText,
    commandRef: 0x12345678,
  });

  const direct = decodeGt06(gt06CommandReply(0xfffffffe, "OK", 1), newSession());
  assert.deepEqual(direct.messages[0], {
    type: "commandReply",
    text: "OK",
    commandRef: 0xfffffffe,
  });
});

Deno.test("gt06 WHERE# answer becomes a position on the server", () => {
  const server = newSession();
  const link = new Gt06Link(IMEI);
  const fix = sampleFix();
  const [e] = link.receive(encodeCommand({ content: "WHERE#", ref: 5 }, server), () => fix);
  assert.ok(e.type === "command");
  const p = positionOf(decodeGt06(e.reply, newSession()).messages);
  assert.ok(Math.abs(p.latitude - fix.latitude) < 1e-6);
  assert.ok(Math.abs(p.longitude - fix.longitude) < 1e-6);
});

Deno.test("gt06 frames pass the gateway splitter, also when glued and cut", () => {
  const fix = sampleFix();
  const frames = [
    gt06Login(IMEI, 1),
    gt06Location(fix, 2),
    gt06Heartbeat(fix, 3),
    gt06Alarm(fix, 4),
  ];
  const stream = new Uint8Array(frames.reduce((n, f) => n + f.length, 0));
  let at = 0;
  for (const f of frames) {
    stream.set(f, at);
    at += f.length;
  }
  const splitter = new Gt06Splitter();
  const out = [...splitter.push(stream.subarray(0, 11)), ...splitter.push(stream.subarray(11))];
  assert.deepEqual(out, frames);
});

Deno.test("gt06 device stream reader splits acknowledgements arriving in pieces", () => {
  const session = newSession();
  const acks = [
    ...decodeGt06(gt06Login(IMEI, 1), session).replies,
    ...decodeGt06(gt06Heartbeat(sampleFix(), 2), session).replies,
  ];
  const bytes = new Uint8Array([...acks[0], ...acks[1]]);
  const reader = new Gt06StreamReader();
  const got = [...reader.push(bytes.subarray(0, 4)), ...reader.push(bytes.subarray(4))];
  assert.deepEqual(got.map((f) => [f.type, f.serial]), [[0x01, 1], [0x13, 2]]);
});
