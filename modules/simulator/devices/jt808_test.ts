import assert from "node:assert/strict";
import { decodeFrame } from "../../gateway/protocols/jt808/decoder.ts";
import {
  encodeCommand,
  positionQuery,
  terminalControl,
} from "../../gateway/protocols/jt808/encoder.ts";
import { encodeBinaryCommand } from "../../gateway/protocols/jt808/commands.ts";
import { Jt808Splitter } from "../../gateway/protocols/jt808/splitter.ts";
import { type DeviceMessage, newSession, type Position } from "../../gateway/protocols/types.ts";
import { KMH_PER_KNOT, sampleFix } from "../fix.ts";
import { jt808TerminalNumber } from "../imei.ts";
import {
  escapeJt808,
  jt808Batch,
  jt808GeneralReply,
  jt808Heartbeat,
  Jt808Link,
  jt808Location,
  jt808Register,
  unescapeJt808,
} from "./jt808.ts";

const IMEI = "860000001234563";
const now = () => sampleFix();
const TERMINAL = jt808TerminalNumber(IMEI);

/** Runs frames through the gateway splitter, then the decoder, on one session. */
function serverSide() {
  const session = newSession();
  const splitter = new Jt808Splitter();
  return {
    session,
    decode(bytes: Uint8Array) {
      const frames = splitter.push(bytes);
      assert.equal(frames.length, 1);
      return decodeFrame(frames[0], session);
    },
  };
}

function positionOf(messages: DeviceMessage[]): Position {
  const m = messages.find((x) => x.type === "position");
  assert.ok(m && m.type === "position", `no position in ${JSON.stringify(messages)}`);
  return m.position;
}

Deno.test("jt808 escaping round-trips 0x7E and 0x7D", () => {
  const raw = Uint8Array.of(0x30, 0x7e, 0x08, 0x7d, 0x55, 0x7d, 0x02);
  const escaped = escapeJt808(raw);
  assert.deepEqual([...escaped], [0x30, 0x7d, 0x02, 0x08, 0x7d, 0x01, 0x55, 0x7d, 0x01, 0x02]);
  assert.deepEqual(unescapeJt808(escaped), raw);
});

Deno.test("jt808 register → 0x8100 auth code → 0x0102 → ready, with valid check codes", () => {
  const server = serverSide();
  const link = new Jt808Link(IMEI);
  const [register] = link.hello();
  const r1 = server.decode(register);
  assert.deepEqual(r1.messages[0], { type: "identify", id: TERMINAL, model: "SIM-808" });
  assert.ok(IMEI.endsWith(TERMINAL));
  // The gateway chooses the code; the decoder's register message words the 0x8100.
  const registration = r1.messages[1];
  assert.ok(registration?.type === "register");
  const e1 = link.receive(registration.reply("CODE1234"), now);
  assert.equal(e1.length, 1);
  assert.ok(e1[0].type === "send");
  const r2 = server.decode(e1[0].frame);
  const auth = r2.messages.find((m) => m.type === "authenticate");
  assert.ok(auth?.type === "authenticate");
  assert.equal(auth.code, "CODE1234");
  assert.deepEqual(link.receive(auth.reply(true), now), [{ type: "ready" }]);
  assert.equal(server.session.extra.jt808BadChecksums, undefined);
  assert.equal(server.session.extra.jt808LengthMismatches, undefined);

  // A reconnection authenticates straight away with the code it kept.
  const [again] = link.hello();
  const reauth = decodeFrame(new Jt808Splitter().push(again)[0], newSession());
  const code = reauth.messages.find((m) => m.type === "authenticate");
  assert.ok(code?.type === "authenticate");
  assert.equal(code.code, "CODE1234");
  // Refused: the terminal forgets the code and registers on its next connection.
  assert.deepEqual(link.receive(code.reply(false), now), []);
  const [next] = link.hello();
  assert.equal((next[1] << 8) | next[2], 0x0100, "registers again");
});

Deno.test("jt808 location 0x0200 round-trips fix, ACC, mileage, satellites, signal, battery", () => {
  for (
    const fix of [
      sampleFix(),
      sampleFix({ latitude: -33.86882, longitude: -70.669265, acc: false, speedKmh: 0 }),
      sampleFix({ latitude: 52.520008, longitude: 13.404954, course: 359, speedKmh: 91.6 }),
    ]
  ) {
    const server = serverSide();
    const r = server.decode(jt808Location(TERMINAL, 3, fix));
    const p = positionOf(r.messages);
    assert.equal(p.time.toISOString(), fix.time.toISOString());
    assert.equal(p.latitude, fix.latitude);
    assert.equal(p.longitude, fix.longitude);
    assert.ok(Math.abs(p.speed - Math.round(fix.speedKmh * 10) / 10 / KMH_PER_KNOT) < 1e-9);
    assert.equal(p.course, fix.course);
    assert.equal(p.altitude, fix.altitude);
    assert.equal(p.acc, fix.acc);
    assert.equal(p.valid, true);
    assert.equal(p.mileage, fix.odometerKm);
    assert.equal(p.satellites, fix.satellites);
    assert.equal(p.signal, fix.signal);
    assert.equal(p.battery, fix.battery);
    assert.equal(p.alarm, undefined);
    assert.equal(r.replies.length, 1, "acknowledged with 0x8001");
    assert.deepEqual(new Jt808Link(IMEI).receive(r.replies[0], now), [{ type: "ack" }]);
  }
});

Deno.test("jt808 alarm bits: SOS, power cut, vibration", () => {
  for (const alarm of ["sos", "powerCut", "vibration"] as const) {
    const p = positionOf(
      serverSide().decode(jt808Location(TERMINAL, 4, sampleFix({ alarm })))
        .messages,
    );
    assert.equal(p.alarm, alarm);
  }
});

Deno.test("jt808 heartbeat 0x0002 gives a status with battery and signal", () => {
  const r = serverSide().decode(jt808Heartbeat(TERMINAL, 5, sampleFix({ battery: 64, signal: 2 })));
  const s = r.messages.find((m) => m.type === "status");
  assert.ok(s && s.type === "status");
  assert.equal(s.battery, 64);
  assert.equal(s.signal, 2);
  assert.equal(r.replies.length, 1);
  assert.equal(serverSide().decode(jt808Heartbeat(TERMINAL, 6)).replies.length, 1);
});

Deno.test("jt808 batch 0x0704 (blind area) round-trips every fix in order", () => {
  const fixes = Array.from({ length: 20 }, (_, i) =>
    sampleFix({
      time: new Date(Date.UTC(2024, 4, 17, 8, 30, i * 10)),
      latitude: 22.5 + i / 1000,
      longitude: 114.0 + i * 0.000126,
    }));
  const r = serverSide().decode(jt808Batch(TERMINAL, 7, fixes));
  const batch = r.messages.find((m) => m.type === "positions");
  assert.ok(batch && batch.type === "positions");
  assert.equal(batch.positions.length, fixes.length);
  batch.positions.forEach((p, i) => {
    assert.equal(p.time.toISOString(), fixes[i].time.toISOString());
    assert.equal(p.latitude, fixes[i].latitude);
    assert.equal(p.longitude, Math.round(fixes[i].longitude * 1e6) / 1e6);
    assert.equal(p.attributes.archive, true);
  });
  assert.equal(r.replies.length, 1);
});

Deno.test("jt808 0x8300 and 0x8105 are answered with 0x0001 echoing the server serial", () => {
  const server = serverSide();
  const link = new Jt808Link(IMEI);
  server.decode(link.hello()[0]);
  const text = encodeCommand({ content: "STATUS#", ref: 0x1234 }, server.session);
  const [e] = link.receive(text, now);
  assert.ok(e.type === "command");
  assert.equal(e.text, "STATUS#");
  const r = server.decode(e.reply);
  assert.deepEqual(r.messages, [{
    type: "commandReply",
    text: "0x8300 success",
    commandRef: 0x1234,
    success: true,
  }]);
  assert.equal(e.replyText, "0x8300 success");

  const control = terminalControl({ version: null, terminal: new Uint8Array(6) }, 77, 4);
  const [c] = new Jt808Link(IMEI).receive(control, now);
  assert.ok(c.type === "command");
  const rc = decodeFrame(new Jt808Splitter().push(c.reply)[0], newSession());
  assert.equal((rc.messages[1] as { commandRef: number }).commandRef, 77);

  const direct = decodeFrame(
    new Jt808Splitter().push(jt808GeneralReply(TERMINAL, 9, 500, 0x8300, 1))[0],
    newSession(),
  );
  assert.equal((direct.messages[1] as { success: boolean }).success, false);
});

Deno.test("jt808 0x8201 position query is answered with 0x0201: query serial + current fix", () => {
  const server = serverSide();
  const link = new Jt808Link(IMEI);
  server.decode(link.hello()[0]);
  const fix = sampleFix({ latitude: -22.906847, longitude: -43.172896, speedKmh: 36.5 });
  const [e] = link.receive(
    positionQuery({ version: null, terminal: new Uint8Array(6) }, 0x4321),
    () => fix,
  );
  assert.ok(e.type === "command");
  assert.equal(e.text, "position query");
  assert.equal(e.replyText, "location -22.906847,-43.172896");
  const { messages, replies } = server.decode(e.reply);
  const p = positionOf(messages);
  assert.equal(p.time.toISOString(), fix.time.toISOString());
  assert.equal(p.latitude, fix.latitude);
  assert.equal(p.longitude, fix.longitude);
  assert.deepEqual(messages.at(-1), {
    type: "commandReply",
    text: "Lat:-22.906847,Lon:-43.172896,Speed:36.5km/h,Course:128,Time:2024-05-17 08:30:15 UTC",
    commandRef: 0x4321,
    success: true,
  });
  assert.deepEqual(replies, [], "0x0201 is itself a reply");
});

Deno.test("jt808 0x8103 set parameters is answered with 0x0001 success", () => {
  const server = serverSide();
  const link = new Jt808Link(IMEI);
  server.decode(link.hello()[0]);
  const params = { kind: "jt808Params" as const, params: [{ id: 0x0029, value: 60 }] };
  const [e] = link.receive(encodeBinaryCommand(params, 0x20005, server.session), now);
  assert.ok(e.type === "command");
  assert.equal(e.text, "set parameters 0000002904" + "0000003c");
  assert.deepEqual(server.decode(e.reply).messages, [{
    type: "commandReply",
    text: "0x8103 success",
    commandRef: 0x0005,
    success: true,
  }]);
});

Deno.test("jt808 location whose bytes contain 0x7E and 0x7D is escaped and decodes", () => {
  // 0x017E7D00 micro-degrees: the latitude field holds both flag bytes.
  const fix = sampleFix({ latitude: 0x017e7d00 / 1e6 });
  const frame = jt808Location(TERMINAL, 0x7e7d, fix);
  const inner = frame.subarray(1, -1);
  assert.ok(!inner.includes(0x7e), "no bare flag inside the frame");
  const p = positionOf(serverSide().decode(frame).messages);
  assert.equal(p.latitude, fix.latitude);
});

Deno.test("jt808 register frame survives the splitter when glued with others", () => {
  const a = jt808Register(TERMINAL, 1);
  const b = jt808Location(TERMINAL, 2, sampleFix());
  const frames = new Jt808Splitter().push(new Uint8Array([...a, ...b]));
  assert.equal(frames.length, 2);
});
