import assert from "node:assert/strict";
import { FrameError } from "../types.ts";
import { fromHex } from "./reader.ts";
import { Gt06Splitter, MAX_FRAME_BYTES } from "./splitter.ts";
import { bytes, hex } from "./test_helpers.ts";

const LOGIN = "78780d01012345678901234500018cdd0d0a";
const HEARTBEAT = "78780a134004040001000fdcee0d0a";
const LONG = "79790008940000ed0289d6860d0a";
/** Legacy WIFI: length byte 0 although the frame is longer (ends at the first 0D0A). */
const WIFI_ZERO_LENGTH = "787800691710231108500200cc080c4e2fa5640c4e2fa66e0d0a";

function pushAll(splitter: Gt06Splitter, chunks: Uint8Array[]): string[] {
  return chunks.flatMap((chunk) => splitter.push(chunk)).map(hex);
}

Deno.test("one chunk with several frames (short, long, wrong length)", () => {
  const stream = fromHex(LOGIN + LONG + WIFI_ZERO_LENGTH + HEARTBEAT);
  assert.deepEqual(new Gt06Splitter().push(stream).map(hex), [
    LOGIN,
    LONG,
    WIFI_ZERO_LENGTH,
    HEARTBEAT,
  ]);
});

Deno.test("frames split at every possible position", () => {
  const stream = fromHex(LOGIN + HEARTBEAT + LONG);
  for (let cut = 0; cut <= stream.length; cut++) {
    const frames = pushAll(new Gt06Splitter(), [stream.subarray(0, cut), stream.subarray(cut)]);
    assert.deepEqual(frames, [LOGIN, HEARTBEAT, LONG], `cut at ${cut}`);
  }
  const byteByByte = pushAll(new Gt06Splitter(), Array.from(stream, (b) => Uint8Array.of(b)));
  assert.deepEqual(byteByByte, [LOGIN, HEARTBEAT, LONG]);
});

Deno.test("garbage before and between frames is skipped (resync)", () => {
  const garbage = bytes(0x00, 0x78, 0x11, 0x0d, 0x0a, 0x79, 0xff, 0x78);
  const stream = bytes(garbage, fromHex(LOGIN), garbage, fromHex(HEARTBEAT));
  assert.deepEqual(new Gt06Splitter().push(stream).map(hex), [LOGIN, HEARTBEAT]);
});

Deno.test("a start marker split over two chunks is kept", () => {
  const splitter = new Gt06Splitter();
  assert.deepEqual(splitter.push(bytes(0x55, 0x78)), []);
  assert.deepEqual(splitter.push(fromHex(LOGIN).subarray(1)).map(hex), [LOGIN]);
});

Deno.test("a length field shorter than the frame is resolved by the stop marker", () => {
  // 0x13 with length 8 but 10 bytes of data (seen in the field).
  const frame = "787808134606020002044dc5050d0a";
  assert.deepEqual(new Gt06Splitter().push(fromHex(frame + LOGIN)).map(hex), [frame, LOGIN]);
});

Deno.test("a frame that never ends throws FrameError instead of buffering forever", () => {
  const splitter = new Gt06Splitter();
  splitter.push(fromHex("78780d01"));
  const filler = new Uint8Array(MAX_FRAME_BYTES).fill(0x11);
  assert.throws(() => splitter.push(filler), FrameError);
});

Deno.test("an absurd 0x7979 length falls back to the stop marker or throws", () => {
  const withStop = bytes(0x79, 0x79, 0xff, 0xff, 0x94, 1, 2, 0x0d, 0x0a);
  assert.deepEqual(new Gt06Splitter().push(withStop).map(hex), [hex(withStop)]);

  const splitter = new Gt06Splitter();
  splitter.push(bytes(0x79, 0x79, 0xff, 0xff, 0x94));
  assert.throws(() => splitter.push(new Uint8Array(MAX_FRAME_BYTES)), FrameError);
});

Deno.test("garbage without start markers does not accumulate", () => {
  const splitter = new Gt06Splitter();
  const noise = new Uint8Array(MAX_FRAME_BYTES * 4).fill(0x42);
  for (let i = 0; i < 10; i++) assert.deepEqual(splitter.push(noise), []);
  assert.deepEqual(splitter.push(fromHex(LOGIN)).map(hex), [LOGIN]);
});

Deno.test("a frame whose data holds 0D0A is not cut there when it arrives in two reads", () => {
  // Heartbeat-shaped frame (length 0x0a) with 0D0A inside its content, then a login.
  const inner = "78780a13400d0a0001000fdcee0d0a";
  const stream = fromHex(inner + LOGIN);
  // (A read ending exactly after the inner 0D0A, at 7, is still cut: indistinguishable from a
  // device with a wrong length field sending one frame per packet.)
  for (let cut = 8; cut < inner.length / 2; cut++) {
    const frames = pushAll(new Gt06Splitter(), [stream.subarray(0, cut), stream.subarray(cut)]);
    assert.deepEqual(frames, [inner, LOGIN], `cut at ${cut}`);
  }
});
