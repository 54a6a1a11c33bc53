import assert from "node:assert/strict";
import { type DeviceMessage, newSession, type Position } from "../types.ts";
import { Truncated } from "./bytes.ts";
import { decodeFrame } from "./decoder.ts";
import { Jt808Splitter } from "./splitter.ts";
import { frame, hex, prng, toHexString, wire } from "./test_frames.ts";

const NOW = new Date("2026-03-01T12:00:00Z");
const options = { now: () => NOW };

function decode(bytes: Uint8Array, session = newSession()) {
  const result = decodeFrame(bytes, session, options);
  return { ...result, session, replies: result.replies.map(toHexString) };
}

function only<T extends DeviceMessage["type"]>(
  messages: DeviceMessage[],
  type: T,
): Extract<DeviceMessage, { type: T }> {
  const found = messages.filter((m) => m.type === type);
  assert.equal(found.length, 1, `one ${type} message expected in ${JSON.stringify(messages)}`);
  return found[0] as Extract<DeviceMessage, { type: T }>;
}

const ascii = (s: string) => toHexString(new TextEncoder().encode(s));
const pad = (s: string, size: number) => ascii(s).padEnd(size * 2, "0");

// A location block: SOS + overspeed, ACC on, valid, south, west, 30°S 120°W, 100 m, 50 km/h,
// course 90, 2024-01-15 18:30:00 (GMT+8); odometer 10.0 km, fuel 40.0 L, CSQ 25, 12 satellites.
const LOCATION = "00000003 0000000f 01c9c380 07270e00 0064 01f4 005a 240115183000" +
  "01 04 00000064 | 02 02 0190 | 30 01 19 | 31 01 0c";

Deno.test("register 2013: identify once; 0x8100 carries the code the gateway chose", () => {
  const body = "002c 0131" + ascii("ABCDE") + pad("MODEL-1", 20) + ascii("T000001") + "01" +
    ascii("A12345");
  const { messages, replies, session, refusal } = decode(
    frame({ msgId: 0x0100, serial: 7, body }),
  );
  assert.deepEqual(messages[0], { type: "identify", id: "013912345678", model: "MODEL-1" });
  assert.deepEqual(messages.map((m) => m.type), ["identify", "register"]);
  assert.deepEqual(replies, [], "the reply waits for the gateway's code");
  assert.equal(refusal, undefined, "registration is never refused as a report");
  const { reply } = only(messages, "register");
  assert.equal(
    toHexString(reply("013912345678")),
    "7e8100000f0139123456780000000700303133393132333435363738ba7e",
  );
  // Refused ("terminal already registered", 3): no code.
  assert.match(toHexString(reply(null)), /^7e81000003013912345678000100070[0-9a-f]{3}7e$/);
  assert.equal(session.deviceId, "013912345678");
  assert.equal(session.extra.jt808Version, null);
});

Deno.test("register 2019: reply keeps version flag, version byte and 10-byte phone", () => {
  const body = "002c 0131" + pad("MAKER", 11) + pad("M2019", 30) + pad("T1", 30) + "01" +
    ascii("B1");
  const { messages, session } = decode(frame({ msgId: 0x0100, serial: 8, version: 1, body }));
  const identify = only(messages, "identify");
  assert.equal(identify.id, "00000000013912345678");
  assert.equal(identify.model, "M2019");
  assert.equal(
    toHexString(only(messages, "register").reply("00000000013912345678")),
    "7e81004017010000000001391234567800000008003030303030303030303133393132333435363738ec7e",
  );
  assert.equal(session.extra.jt808Version, 1);
});

Deno.test("auth 0x0102: the code, and 0x8001 success or failure as the gateway decides", () => {
  const { messages, replies, refusal } = decode(
    frame({ msgId: 0x0102, serial: 9, body: ascii("abc") }),
  );
  assert.deepEqual(messages[0], { type: "identify", id: "013912345678" });
  const auth = only(messages, "authenticate");
  assert.equal(auth.code, "abc");
  assert.deepEqual(replies, []);
  assert.equal(refusal, undefined);
  assert.equal(toHexString(auth.reply(true)), "7e8001000501391234567800000009010200be7e");
  assert.equal(toHexString(auth.reply(false)), "7e8001000501391234567800010009010201be7e");
});

Deno.test("auth 0x0102 (2019): length-prefixed code, then IMEI and software version", () => {
  const body = "03" + ascii("xyz") + ascii("860000000000017") + pad("V1.0", 20);
  const { messages } = decode(frame({ msgId: 0x0102, serial: 2, version: 1, body }));
  assert.equal(only(messages, "authenticate").code, "xyz");
});

Deno.test("reports carry a refusal (0x8001 failure) for a connection not yet authenticated", () => {
  const { refusal, replies } = decode(frame({ msgId: 0x0200, serial: 5, body: LOCATION }));
  assert.equal(replies.length, 1, "the success answer once authenticated");
  assert.ok(refusal);
  // 0x8001: serial 5, message 0x0200, result 1 (failure).
  assert.match(
    toHexString(refusal()),
    /^7e80010005013912345678[0-9a-f]{4}0005020001[0-9a-f]{2}7e$/,
  );
});

Deno.test("a 2013 frame with the reserved bit 14 set: identify names the 2013 reading too", () => {
  // A 2013 location whose properties word has bit 14 set (a vendor's use of the reserved bit).
  const plain = frame({ msgId: 0x0200, serial: 4, body: LOCATION });
  const flagged = plain.slice();
  flagged[3] |= 0x40;
  flagged[flagged.length - 2] ^= 0x40; // keep the check code right
  const first = decode(flagged);
  const identify = only(first.messages, "identify");
  assert.notEqual(identify.id, "013912345678", "read as 2019 it names another terminal");
  assert.deepEqual(identify.fallback, { id: "013912345678", extra: { jt808Reading: 2013 } });
  // The gateway found only the 2013 reading known: the session reads every frame as 2013.
  const session = newSession();
  session.extra.jt808Reading = 2013;
  session.deviceId = "013912345678";
  const again = decode(flagged, session);
  const position = only(again.messages, "position").position;
  assert.equal(position.latitude, -30);
  assert.equal(session.extra.jt808Version, null);
  // A real 2019 frame has no other reading worth a lookup only when it is the session's first.
  const later = decode(frame({ msgId: 0x0002, version: 1 }), first.session);
  assert.equal(later.messages.filter((m) => m.type === "identify").length, 0);
});

Deno.test("identify is emitted once per session", () => {
  const session = newSession();
  decode(frame({ msgId: 0x0002 }), session);
  const second = decode(frame({ msgId: 0x0002 }), session);
  assert.equal(second.messages.filter((m) => m.type === "identify").length, 0);
});

Deno.test("heartbeat 0x0002: status message and general reply", () => {
  const { messages, replies } = decode(frame({ msgId: 0x0002, serial: 3 }));
  assert.deepEqual(only(messages, "status"), { type: "status", time: NOW, attributes: {} });
  assert.equal(replies.length, 1);
  assert.ok(replies[0].startsWith("7e80010005013912345678" + "0000" + "0003" + "0002" + "00"));
});

Deno.test("location 0x0200: every field in contract units, byte-exact reply", () => {
  const { messages, replies } = decode(frame({ msgId: 0x0200, serial: 10, body: LOCATION }));
  const p: Position = only(messages, "position").position;
  assert.equal(p.time.toISOString(), "2024-01-15T10:30:00.000Z");
  assert.equal(p.valid, true);
  assert.equal(p.latitude, -30);
  assert.equal(p.longitude, -120);
  assert.equal(p.altitude, 100);
  assert.ok(Math.abs(p.speed - 50 / 1.852) < 1e-9);
  assert.equal(p.course, 90);
  assert.equal(p.acc, true);
  assert.equal(p.mileage, 10);
  assert.equal(p.attributes.fuel, 40);
  assert.equal(p.satellites, 12);
  assert.equal(p.signal, 4);
  assert.equal(p.attributes.rssi, 25);
  assert.equal(p.alarm, "sos");
  assert.equal(p.attributes.alarms, "sos,overspeed");
  assert.equal(p.posType, 1);
  assert.deepEqual(replies, ["7e800100050139123456780000000a020000bc7e"]);
});

Deno.test("location: alarm bits map to contract alarms", () => {
  const cases: Array<[string, string]> = [
    ["00000020", "gpsAntennaCut"],
    ["00000080", "lowPower"],
    ["00000100", "powerCut"],
    ["20000000", "accident"],
  ];
  for (const [word, alarm] of cases) {
    const body = word + LOCATION.replace(/\s/g, "").slice(8);
    const p = only(decode(frame({ msgId: 0x0200, body })).messages, "position").position;
    assert.equal(p.alarm, alarm, word);
  }
});

Deno.test("location: session time zone overrides the GMT+8 default", () => {
  const session = newSession();
  session.timezoneOffsetMinutes = 0;
  const p = only(decode(frame({ msgId: 0x0200, body: LOCATION }), session).messages, "position");
  assert.equal(p.position.time.toISOString(), "2024-01-15T18:30:00.000Z");
});

Deno.test("location: a time that is not a date keeps the readings as a status", () => {
  const body = LOCATION.replace("240115183000", "000000000000");
  const { messages } = decode(frame({ msgId: 0x0200, body }));
  assert.equal(messages.filter((m) => m.type === "position").length, 0);
  const status = only(messages, "status");
  assert.equal(status.time, NOW);
  assert.equal(status.alarm, "sos");
});

Deno.test("location 2019: identify with the 20-digit phone, reply in 2019 format", () => {
  const { messages, replies } = decode(
    frame({ msgId: 0x0200, serial: 11, version: 1, body: LOCATION }),
  );
  assert.equal(only(messages, "identify").id, "00000000013912345678");
  only(messages, "position");
  assert.deepEqual(replies, ["7e8001400501000000000139123456780000000b020000fc7e"]);
});

Deno.test("check code: a wrong XOR is accepted, counted, and still acknowledged", () => {
  const good = frame({ msgId: 0x0200, serial: 10, body: LOCATION });
  const bad = good.slice();
  bad[bad.length - 2] ^= 0xff;
  const session = newSession();
  const { messages, replies } = decode(bad, session);
  only(messages, "position");
  assert.equal(replies.length, 1);
  assert.equal(session.extra.jt808BadChecksums, 1);
  decode(good, session);
  assert.equal(session.extra.jt808BadChecksums, 1, "a good frame is not counted");
});

Deno.test("body length field: the frame boundaries win, a mismatch is counted", () => {
  const f = frame({ msgId: 0x0200, body: LOCATION });
  f[4] = 0x10; // declared 16 bytes, the body is longer
  const session = newSession();
  only(decode(f, session).messages, "position");
  assert.equal(session.extra.jt808LengthMismatches, 1);
});

Deno.test("escaped bytes survive splitter + decoder", () => {
  // Latitude 0x007e7d7e and a mileage holding 0x7e/0x7d force escapes on the wire.
  const body = LOCATION.replace("01c9c380", "007e7d7e").replace("00000064", "007d7e00");
  const unescaped = frame({ msgId: 0x0200, body });
  const onWire = wire(unescaped);
  assert.ok(onWire.length > unescaped.length);
  const frames = new Jt808Splitter().push(onWire);
  assert.deepEqual(frames.map(toHexString), [toHexString(unescaped)]);
  const p = only(decode(frames[0]).messages, "position").position;
  assert.equal(p.latitude, -0x007e7d7e / 1e6);
  assert.equal(p.mileage, 0x007d7e00 / 10);
});

Deno.test("batch 0x0704: blind-area items become one positions message", () => {
  const item = LOCATION.replace(/[\s|]/g, "");
  const length = (item.length / 2).toString(16).padStart(4, "0");
  const body = "0002 01" + length + item + length + item.replace("240115183000", "240115183100");
  const { messages, replies } = decode(frame({ msgId: 0x0704, body }));
  const { positions } = only(messages, "positions");
  assert.equal(positions.length, 2);
  assert.equal(positions[1].time.toISOString(), "2024-01-15T10:31:00.000Z");
  assert.equal(positions[0].attributes.archive, true);
  assert.equal(replies.length, 1);
});

Deno.test("terminal general reply 0x0001 → commandReply matched by serial", () => {
  const { messages, replies } = decode(frame({ msgId: 0x0001, body: "002a 8300 00" }));
  assert.deepEqual(only(messages, "commandReply"), {
    type: "commandReply",
    text: "0x8300 success",
    commandRef: 0x2a,
    success: true,
  });
  assert.deepEqual(replies, [], "a reply is not acknowledged");
  const failed = only(
    decode(frame({ msgId: 0x0001, body: "002b 8105 01" })).messages,
    "commandReply",
  );
  assert.equal(failed.success, false);
});

Deno.test("location query reply 0x0201 → the position and the reply to the 0x8201 it answers", () => {
  // JT/T 808-2013 §8.20: WORD reply serial (of the platform's 0x8201), then a 0x0200 body.
  const { messages, replies } = decode(
    frame({ msgId: 0x0201, serial: 0x31, body: "002a" + LOCATION }),
  );
  const p = only(messages, "position").position;
  const report = only(decode(frame({ msgId: 0x0200, body: LOCATION })).messages, "position");
  assert.deepEqual(p, report.position, "the same location as a 0x0200 with that body");
  assert.deepEqual(only(messages, "commandReply"), {
    type: "commandReply",
    text: "Lat:-30.000000,Lon:-120.000000,Speed:50km/h,Course:90,Time:2024-01-15 10:30:00 UTC",
    commandRef: 0x2a,
    success: true,
  });
  assert.equal(messages.at(-1)!.type, "commandReply", "stored first, then matched");
  assert.deepEqual(replies, [], "a reply is not acknowledged");
});

Deno.test("location query reply 0x0201 without a fix or a valid time still answers", () => {
  // Status 0x01: ACC on, not positioned; the BCD time is all zeros (no date).
  const noFix = "00000000 00000001 01c9c380 07270e00 0000 0000 0000 240115183000";
  const [reply] = decode(frame({ msgId: 0x0201, body: "0102" + noFix })).messages
    .filter((m) => m.type === "commandReply");
  assert.ok(reply.type === "commandReply");
  assert.equal(reply.commandRef, 0x0102);
  assert.match(reply.text, /,No fix$/);
  const noTime = "00000000 00000001 00000000 00000000 0000 0000 0000 000000000000";
  const { messages } = decode(frame({ msgId: 0x0201, body: "0103" + noTime }));
  assert.equal(only(messages, "status").type, "status");
  assert.equal(
    only(messages, "commandReply").text,
    "No position (the terminal sent no valid time)",
  );
});

Deno.test("parameter query reply 0x0104 → commandReply with the parameters", () => {
  const body = "0005 02 00000001 04 0000003c 00000013 05" + ascii("a.com");
  const reply = only(decode(frame({ msgId: 0x0104, body })).messages, "commandReply");
  assert.equal(reply.commandRef, 5);
  assert.equal(reply.text, "0x0001=60;0x0013=a.com");
});

Deno.test("unknown message id: 0x8001 'not supported', no messages", () => {
  const { messages, replies } = decode(frame({ msgId: 0x0f0f }));
  assert.deepEqual(messages.filter((m) => m.type !== "identify"), []);
  assert.deepEqual(replies, ["7e80010005013912345678000000010f0f03b67e"]);
});

Deno.test("subpackaged frames are answered 'not supported' and not decoded", () => {
  const f = frame({ msgId: 0x0200, body: "0002 0001" + LOCATION });
  f[3] |= 0x20; // subpackage flag
  const { messages, replies } = decode(f);
  assert.equal(messages.filter((m) => m.type === "position").length, 0);
  assert.match(replies[0], /^7e8001.*020003[0-9a-f]{2}7e$/, "0x8001 for 0x0200, result 3");
});

Deno.test("model profile: Jimi JC371 reads 0xE8 as events", () => {
  const body = LOCATION.replace("00000003", "00000000") + "e8 02 0c01";
  const session = newSession();
  session.extra.model = "JC371";
  assert.equal(
    only(decode(frame({ msgId: 0x0200, body }), session).messages, "position").position.alarm,
    "sos",
  );
  const generic = only(decode(frame({ msgId: 0x0200, body })).messages, "position");
  assert.equal(generic.position.alarm, undefined);
});

Deno.test("packed-IMEI terminal field gives the 15-digit IMEI", () => {
  const { messages } = decode(frame({ msgId: 0x0002, terminal: "4eb6fb4ad628" }));
  assert.equal(only(messages, "identify").id, "865478070001047");
});

Deno.test("ASCII BASE,2 sentence: answered with the UTC time", () => {
  const sentence = new TextEncoder().encode("(794104004140,1,001,BASE,2,TIME)");
  const result = decodeFrame(sentence, newSession(), options);
  assert.deepEqual(result.messages, [{ type: "identify", id: "794104004140" }]);
  assert.equal(
    new TextDecoder().decode(result.replies[0]),
    "(794104004140,1,001,BASE,2,20260301120000)",
  );
});

Deno.test("malformed input never throws and yields an empty result", () => {
  const random = prng(808);
  const valid = [
    frame({ msgId: 0x0200, body: LOCATION }),
    frame({ msgId: 0x0704, body: "0001 00 0030" + LOCATION }),
    frame({ msgId: 0x0100, body: "002c0131" }),
    frame({ msgId: 0x0900, body: "f0 240115183000 00 01 01 01 0102 04 00000001" }),
    frame({ msgId: 0x5501, body: "0102210624212234847611355049070000" }),
    hex("283734302c31"),
  ];
  const inputs: Uint8Array[] = [new Uint8Array(0), hex("7e"), hex("7e7e"), hex("7e00017e")];
  for (const f of valid) {
    for (let n = 0; n < f.length; n++) {
      inputs.push(f.subarray(0, n));
      inputs.push(Uint8Array.from([...f.subarray(0, n), 0x7e])); // truncated, re-terminated
    }
    for (let i = 0; i < 200; i++) {
      const mutated = f.slice();
      mutated[1 + Math.floor(random() * (mutated.length - 2))] = Math.floor(random() * 256);
      inputs.push(mutated);
    }
  }
  for (let i = 0; i < 2000; i++) {
    const bytes = Uint8Array.from({ length: Math.floor(random() * 80) }, () => random() * 256);
    if (random() < 0.7 && bytes.length > 1) bytes[0] = bytes[bytes.length - 1] = 0x7e;
    inputs.push(bytes);
  }
  const bugs: unknown[] = [];
  const onError = (e: unknown) => {
    if (!(e instanceof Truncated)) bugs.push(e);
  };
  for (const input of inputs) {
    const result = decodeFrame(input, newSession(), { ...options, onError });
    assert.ok(Array.isArray(result.messages) && Array.isArray(result.replies));
  }
  assert.deepEqual(bugs, [], "only truncation may abort a decode");
  // Too short to hold a header: nothing at all, not even identify.
  assert.deepEqual(decodeFrame(hex("7e0200007e"), newSession()), { messages: [], replies: [] });
  // A header with a truncated location body: the message is dropped.
  const truncated = frame({ msgId: 0x0200, body: "00000000 00000003" });
  assert.deepEqual(decodeFrame(truncated, newSession()), { messages: [], replies: [] });
});

Deno.test("jt808 decoder: dropped frames are counted for /metrics (truncated, decodeErrors)", () => {
  const session = newSession();
  // A header with a truncated location body: dropped, and counted as truncated (a refused,
  // malformed frame in tp_gateway_refused_total) — before, nothing counted it.
  const truncated = frame({ msgId: 0x0200, body: "00000000 00000003" });
  assert.deepEqual(decodeFrame(truncated, session), { messages: [], replies: [] });
  assert.equal(session.extra.truncated, 1);
  assert.equal(session.extra.decodeErrors, undefined);
  // Any other exception inside the decoder (here: no bytes at all where a frame belongs) is a
  // decoder bug: dropped, the link kept, and counted as decodeErrors.
  const broken = undefined as unknown as Uint8Array;
  assert.deepEqual(decodeFrame(broken, session), { messages: [], replies: [] });
  assert.equal(session.extra.decodeErrors, 1);
  assert.equal(session.extra.truncated, 1);
});
