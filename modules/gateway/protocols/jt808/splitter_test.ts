import assert from "node:assert/strict";
import { FrameError } from "../types.ts";
import { MAX_FRAME_BYTES, MAX_SENTENCE_BYTES } from "./splitter.ts";
import { Jt808Splitter } from "./splitter.ts";
import { hex, toHexString } from "./test_frames.ts";

function split(...chunks: string[]): string[] {
  const s = new Jt808Splitter();
  return chunks.flatMap((c) => s.push(hex(c)).map(toHexString));
}

Deno.test("splitter: one frame, unescaped, flags kept", () => {
  assert.deepEqual(split("7e307d02087d01557e"), ["7e307e087d557e"]);
});

Deno.test("splitter: several frames in one chunk", () => {
  assert.deepEqual(split("7e01027e7e03047e"), ["7e01027e", "7e03047e"]);
});

Deno.test("splitter: a frame across chunks, even byte by byte and inside an escape", () => {
  assert.deepEqual(split("7e30", "7d", "02", "08", "7e"), ["7e307e087e"]);
  const bytes = "7e0102037d01047e".match(/../g)!;
  assert.deepEqual(split(...bytes), ["7e0102037d047e"]);
});

Deno.test("splitter: garbage before and between frames is dropped", () => {
  assert.deepEqual(split("24247e01027e", "ffff7e03047e"), ["7e01027e", "7e03047e"]);
});

Deno.test("splitter: '7E 7E' is an end flag followed by a start flag", () => {
  // Joined mid-frame: the tail ends with a flag that is directly followed by the next frame.
  assert.deepEqual(split("aabb7e7e01027e"), ["7e01027e"]);
});

Deno.test("splitter: ASCII result sentences", () => {
  const sentence = "283734302c454c4f434b29"; // (740,ELOCK)
  assert.deepEqual(split(sentence + "7e01027e"), [sentence, "7e01027e"]);
  assert.deepEqual(split("2837", "34302c29"), ["283734302c29"]);
});

Deno.test("splitter: a '(' cut short by a binary frame is noise", () => {
  assert.deepEqual(split("28313233", "7e01027e"), ["7e01027e"]);
});

Deno.test("splitter: an endless frame throws FrameError at the cap", () => {
  const s = new Jt808Splitter();
  s.push(hex("7e"));
  const filler = new Uint8Array(1000).fill(0x11);
  assert.throws(() => {
    for (let i = 0; i <= MAX_FRAME_BYTES / filler.length + 1; i++) s.push(filler);
  }, FrameError);
});

Deno.test("splitter: an endless sentence throws FrameError at its cap", () => {
  const s = new Jt808Splitter();
  assert.throws(() => s.push(new Uint8Array(MAX_SENTENCE_BYTES + 2).fill(0x28)), FrameError);
});

Deno.test("splitter: garbage without flags never accumulates", () => {
  const s = new Jt808Splitter();
  const garbage = new Uint8Array(10_000).fill(0x55);
  for (let i = 0; i < 10; i++) assert.deepEqual(s.push(garbage), []);
  assert.deepEqual(s.push(hex("7e01027e")).map(toHexString), ["7e01027e"]);
});

Deno.test("splitter: a frame of exactly the cap is still accepted", () => {
  const s = new Jt808Splitter();
  const big = new Uint8Array(MAX_FRAME_BYTES).fill(0x11);
  big[0] = 0x7e;
  assert.deepEqual(s.push(big), []);
  assert.equal(s.push(hex("7e")).length, 1);
});
