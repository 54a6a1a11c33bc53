import assert from "node:assert/strict";
import { newSession } from "../types.ts";
import { decodeGt06 } from "./decoder.ts";
import { encodeCommand } from "./encoder.ts";
import { parseFrame } from "./frame.ts";
import { latin1 } from "./reader.ts";
import { bytes, frame, hex, u32 } from "./test_helpers.ts";

Deno.test("0x80 command frame: length, server flag, ASCII, language, serial, CRC", () => {
  const session = newSession();
  const encoded = encodeCommand({ content: "DYD,000000#", ref: 0x0a0b0c0d }, session);
  assert.equal(
    hex(encoded),
    "7878" + "17" + "80" + "0f" + "0a0b0c0d" + hex(new TextEncoder().encode("DYD,000000#")) +
      "0002" + // English
      "0000" + hex(encoded.subarray(encoded.length - 4, encoded.length - 2)) + "0d0a",
  );

  const parsed = parseFrame(encoded)!;
  assert.equal(parsed.type, 0x80);
  assert.equal(parsed.crcOk, true);
  assert.equal(parsed.lengthField, encoded.length - 5);
  const c = parsed.content;
  assert.equal(c[0], 4 + 11);
  assert.equal(new DataView(c.buffer, c.byteOffset).getUint32(1), 0x0a0b0c0d);
  assert.equal(latin1(c.subarray(5, 5 + 11)), "DYD,000000#");
  assert.equal(session.serial, 1);
});

Deno.test("serial increments per command and wraps at 0xFFFF", () => {
  const session = newSession();
  session.serial = 0xffff;
  assert.equal(parseFrame(encodeCommand({ content: "WHERE#", ref: 1 }, session))!.serial, 0xffff);
  assert.equal(parseFrame(encodeCommand({ content: "WHERE#", ref: 2 }, session))!.serial, 0);
  assert.equal(session.serial, 1);
});

Deno.test("round trip: the device's 0x15 answer is matched by the server flag", () => {
  const session = newSession();
  const command = encodeCommand({ content: "RELAY,1#", ref: 4242 }, session);
  const flag = parseFrame(command)!.content.subarray(1, 5);

  const answer = new TextEncoder().encode("Cut off the fuel supply: Success!");
  const reply = frame(0x15, 3, bytes(4 + answer.length, flag, answer, 0x00, 0x02));
  const messages = decodeGt06(reply, session).messages;
  assert.deepEqual(messages, [
    { type: "commandReply", text: "Cut off the fuel supply: Success!", commandRef: 4242 },
  ]);
});

Deno.test("language word can be set per session; non-ASCII is replaced", () => {
  const session = newSession();
  session.extra.commandLanguage = 0x0002;
  const c = parseFrame(encodeCommand({ content: "é#", ref: 1 }, session))!.content;
  assert.deepEqual(Array.from(c), [6, ...u32(1), 0x3f, 0x23, 0x00, 0x02]);
});

Deno.test("commands longer than the 1-byte length allows are refused", () => {
  assert.throws(
    () => encodeCommand({ content: "x".repeat(252), ref: 1 }, newSession()),
    RangeError,
  );
});
