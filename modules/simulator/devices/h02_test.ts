import assert from "node:assert/strict";
import { decodeH02 } from "../../gateway/protocols/h02/decoder.ts";
import { encodeH02Command } from "../../gateway/protocols/h02/encoder.ts";
import { H02Splitter } from "../../gateway/protocols/h02/splitter.ts";
import { type DeviceMessage, newSession, type Position } from "../../gateway/protocols/types.ts";
import { KMH_PER_KNOT, latin1Text, sampleFix } from "../fix.ts";
import { h02Heartbeat, H02Link, h02Position, nmeaCoordinate } from "./h02.ts";

const IMEI = "860000001234563";

function positionOf(messages: DeviceMessage[]): Position {
  const m = messages.find((x) => x.type === "position");
  assert.ok(m && m.type === "position", `no position in ${JSON.stringify(messages)}`);
  return m.position;
}

Deno.test("h02 coordinates are ddmm.mmmm / dddmm.mmmm", () => {
  assert.deepEqual(nmeaCoordinate(22.543096, false), ["2232.5858", "N"]);
  assert.deepEqual(nmeaCoordinate(-70.669265, true), ["07040.1559", "W"]);
  assert.deepEqual(nmeaCoordinate(13.999999, true), ["01359.9999", "E"]);
});

Deno.test("h02 V1 round-trips: identify, time, coordinates, knots, course, ACC, no reply", () => {
  for (
    const fix of [
      sampleFix(),
      sampleFix({ latitude: -33.86882, longitude: -70.669265, acc: false, speedKmh: 0 }),
      sampleFix({ latitude: 52.520008, longitude: 13.404954, course: 359, speedKmh: 91.6 }),
    ]
  ) {
    const frame = h02Position(IMEI, fix);
    const r = decodeH02(frame, newSession());
    assert.deepEqual(r.messages[0], { type: "identify", id: IMEI });
    const p = positionOf(r.messages);
    assert.equal(p.time.toISOString(), fix.time.toISOString());
    assert.ok(Math.abs(p.latitude - fix.latitude) < 2e-6, `lat ${p.latitude}`);
    assert.ok(Math.abs(p.longitude - fix.longitude) < 2e-6, `lng ${p.longitude}`);
    assert.ok(Math.abs(p.speed - fix.speedKmh / KMH_PER_KNOT) < 0.006, `speed ${p.speed}`);
    assert.equal(p.course, fix.course);
    assert.equal(p.acc, fix.acc);
    assert.equal(p.alarm, undefined);
    assert.equal(r.replies.length, 0);
  }
});

Deno.test("h02 status word alarms: SOS, power cut, vibration", () => {
  for (const alarm of ["sos", "powerCut", "vibration"] as const) {
    const p = positionOf(decodeH02(h02Position(IMEI, sampleFix({ alarm })), newSession()).messages);
    assert.equal(p.alarm, alarm);
    assert.equal(p.acc, true);
  }
});

Deno.test("h02 heartbeat gives battery and is echoed; the echo makes the link ready", () => {
  const r = decodeH02(h02Heartbeat(IMEI, sampleFix({ battery: 55 })), newSession());
  const s = r.messages.find((m) => m.type === "status");
  assert.ok(s && s.type === "status");
  assert.equal(s.battery, 55);
  assert.equal(latin1Text(r.replies[0]), `*HQ,${IMEI},HTBT#`);
  assert.deepEqual(new H02Link(IMEI).receive(r.replies[0], () => sampleFix()), [{ type: "ready" }]);
});

Deno.test("h02 commands are confirmed with V4 echoing the server time", () => {
  const server = newSession();
  server.deviceId = IMEI;
  const sent = new Date(Date.UTC(2024, 4, 17, 9, 10, 11));
  for (
    const [content, text] of [["STATUS#", "STATUS,OK"], ["S20,1,1", "S20,DONE"]] as const
  ) {
    const ref = text.length * 1000;
    const command = encodeH02Command({ content, ref }, server, sent);
    const [e] = new H02Link(IMEI).receive(command, () => sampleFix());
    assert.ok(e.type === "command");
    assert.equal(e.replyText, text);
    const r = decodeH02(e.reply, server);
    const reply = r.messages.find((m) => m.type === "commandReply");
    assert.deepEqual(reply, { type: "commandReply", text, success: true, commandRef: ref });
    const p = positionOf(r.messages);
    assert.ok(Math.abs(p.latitude - sampleFix().latitude) < 2e-6);
  }
});

Deno.test("h02 frames pass the gateway splitter", () => {
  const a = h02Position(IMEI, sampleFix());
  const b = h02Heartbeat(IMEI, sampleFix());
  const splitter = new H02Splitter();
  const both = new Uint8Array([...a, ...b]);
  const frames = [...splitter.push(both.subarray(0, 20)), ...splitter.push(both.subarray(20))];
  assert.deepEqual(frames.map(latin1Text), [latin1Text(a), latin1Text(b)]);
});
