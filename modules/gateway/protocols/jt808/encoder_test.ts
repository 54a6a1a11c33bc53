import assert from "node:assert/strict";
import { newSession } from "../types.ts";
import { ByteReader } from "./bytes.ts";
import { xorChecksum } from "./checksum.ts";
import { decodeFrame } from "./decoder.ts";
import {
  ControlWord,
  encodeCommand,
  encodeTerminalControl,
  generalReply,
  positionQuery,
  textMessage,
} from "./encoder.ts";
import { readHeader } from "./header.ts";
import { jt808 } from "./index.ts";
import { Jt808Splitter } from "./splitter.ts";
import { frame, hex, toHexString } from "./test_frames.ts";

const TERMINAL_2013 = { version: null, terminal: hex("013912345678") };
const TERMINAL_2019 = { version: 1, terminal: hex("00000000013912345678") };

/** Parses an outgoing frame back: splitter (unescape), check code, header, body. */
function parse(wireBytes: Uint8Array) {
  const frames = new Jt808Splitter().push(wireBytes);
  assert.equal(frames.length, 1);
  const content = frames[0].subarray(1, frames[0].length - 1);
  assert.equal(xorChecksum(content, 0, content.length - 1), content[content.length - 1], "XOR");
  const r = new ByteReader(content, 0, content.length - 1);
  const header = readHeader(r);
  assert.equal(header.bodyLength, r.remaining, "length field");
  return { header, body: toHexString(r.rest()) };
}

/** A session that has seen one frame from the given terminal. */
function sessionOf(spec: { version?: number; terminal?: string }) {
  const session = newSession();
  decodeFrame(frame({ msgId: 0x0002, ...spec }), session);
  return session;
}

Deno.test("general reply 0x8001: byte-exact", () => {
  assert.equal(
    toHexString(generalReply(TERMINAL_2013, 0, 0x000a, 0x0200, 0)),
    "7e800100050139123456780000000a020000bc7e",
  );
});

Deno.test("text message 0x8300: byte-exact in 2013 and 2019", () => {
  assert.equal(
    toHexString(textMessage(TERMINAL_2013, 0x2a, "HELLO")),
    "7e83000006013912345678002a0148454c4c4fdc7e",
  );
  // 2019 adds the text type byte after the flag.
  assert.equal(
    toHexString(textMessage(TERMINAL_2019, 0x2a, "HELLO")),
    "7e830040070100000000013912345678002a010148454c4c4f9d7e",
  );
});

Deno.test("encodeCommand: 0x8300 to the session's terminal, serial = ref", () => {
  const session = sessionOf({});
  const { header, body } = parse(jt808.encodeCommand({ content: "STATUS#", ref: 513 }, session));
  assert.equal(header.msgId, 0x8300);
  assert.equal(header.serial, 513);
  assert.equal(header.version, null);
  assert.equal(toHexString(header.terminal), "013912345678");
  assert.equal(body, "01" + toHexString(new TextEncoder().encode("STATUS#")));
});

Deno.test("encodeCommand: a 2019 terminal gets a 2019 frame", () => {
  const session = sessionOf({ version: 1 });
  const { header, body } = parse(encodeCommand({ content: "A", ref: 1 }, session));
  assert.equal(header.version, 1);
  assert.equal(toHexString(header.terminal), "00000000013912345678");
  assert.equal(body, "010141");
});

Deno.test("encodeCommand: bytes needing escapes round-trip through the splitter", () => {
  const session = sessionOf({});
  const content = "~}~"; // 0x7E 0x7D 0x7E
  const ref = 0x7e7d;
  const wireBytes = encodeCommand({ content, ref }, session);
  const inner = wireBytes.subarray(1, wireBytes.length - 1);
  assert.ok(!inner.includes(0x7e), "no raw flag inside the frame");
  const { header, body } = parse(wireBytes);
  assert.equal(header.serial, ref);
  assert.equal(body, "017e7d7e");
});

Deno.test("encodeCommand: before any frame, the device id gives the address", () => {
  const session = newSession();
  session.deviceId = "13912345678";
  const { header } = parse(encodeCommand({ content: "X", ref: 2 }, session));
  assert.equal(toHexString(header.terminal), "013912345678");
  assert.throws(() => encodeCommand({ content: "X", ref: 2 }, newSession()));
});

Deno.test("encodeCommand: non-ASCII text is sent as '?'", () => {
  const { body } = parse(encodeCommand({ content: "é", ref: 3 }, sessionOf({})));
  assert.equal(body, "013f");
});

Deno.test("terminal control 0x8105: command word and parameters, fresh serials", () => {
  const session = sessionOf({});
  session.serial = 0;
  assert.equal(
    toHexString(encodeTerminalControl(session, ControlWord.RESET)),
    "7e81050001013912345678000004b17e",
  );
  const { header, body } = parse(encodeTerminalControl(session, ControlWord.CONNECT_SERVER, "a;b"));
  assert.equal(header.serial, 1);
  assert.equal(body, "02613b62");
});

Deno.test("round trip: the terminal's 0x0001 reply is matched to the command ref", () => {
  const session = sessionOf({});
  const sent = parse(encodeCommand({ content: "RESET#", ref: 0x1234 }, session));
  // The terminal echoes serial and id of what it received.
  const replyBody = sent.header.serial.toString(16).padStart(4, "0") + "8300" + "00";
  const { messages } = jt808.decode(frame({ msgId: 0x0001, body: replyBody }), session);
  assert.deepEqual(messages, [{
    type: "commandReply",
    text: "0x8300 success",
    commandRef: 0x1234,
    success: true,
  }]);
});

Deno.test("position query 0x8201: empty body, byte-exact; its 0x0201 answer carries the serial", () => {
  // JT/T 808-2013 §8.19: 0x8201 has no body; §8.20: 0x0201 = WORD reply serial + location.
  assert.equal(
    toHexString(positionQuery(TERMINAL_2013, 0x2a)),
    "7e" + "8201" + "0000" + "013912345678" + "002a" + "99" + "7e",
  );
  const { header, body } = parse(positionQuery(TERMINAL_2019, 0x1234));
  assert.deepEqual([header.msgId, header.version, header.serial, body], [0x8201, 1, 0x1234, ""]);
  const session = sessionOf({});
  const location = "00000000 00000003 01c9c380 07270e00 0000 0000 0000 240115183000";
  const { messages } = jt808.decode(frame({ msgId: 0x0201, body: "1234" + location }), session);
  const reply = messages.find((m) => m.type === "commandReply");
  assert.equal(reply?.type === "commandReply" && reply.commandRef, 0x1234);
});

Deno.test("replies are encoded in the version the terminal used", () => {
  const result = jt808.decode(frame({ msgId: 0x0002, version: 1 }), newSession());
  const { header } = parse(result.replies[0]);
  assert.equal(header.version, 1);
  assert.equal(header.msgId, 0x8001);
});
