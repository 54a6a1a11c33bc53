import assert from "node:assert/strict";
import { concatBytes } from "../../../../lib/bytes.ts";
import { FrameError } from "../types.ts";
import { H02Splitter, MAX_TEXT_FRAME } from "./splitter.ts";

const encoder = new TextEncoder();
const text = (value: string) => encoder.encode(value);
const fromHex = (hex: string) => Uint8Array.from(hex.match(/../g)!, (pair) => parseInt(pair, 16));
const toText = (frames: Uint8Array[]) => frames.map((frame) => new TextDecoder().decode(frame));

const V1 = "*HQ,4210051415,V1,164549,A,0956.3869,N,08406.7068,W,000.00,000,221215,FFFFFBFF#";
const SHORT = fromHex("2441060116601245431311165035313006004318210e000000fffffbffff0024");
const LONG = fromHex(
  "24410600082621532131081504419390060740418306000000fffffbfdff0015060000002c02dc0c000000001f",
);

const concat = (...parts: Uint8Array[]) => concatBytes(parts);

Deno.test("h02 splitter: text frames in one chunk, CR LF dropped", () => {
  const splitter = new H02Splitter();
  assert.deepEqual(toText(splitter.push(text(`${V1}\r\n${V1}\r\n`))), [V1, V1]);
});

Deno.test("h02 splitter: a text frame split across chunks", () => {
  const splitter = new H02Splitter();
  assert.deepEqual(splitter.push(text(V1.slice(0, 20))), []);
  assert.deepEqual(toText(splitter.push(text(V1.slice(20)))), [V1]);
});

Deno.test("h02 splitter: garbage before and between frames is skipped", () => {
  const splitter = new H02Splitter();
  assert.deepEqual(toText(splitter.push(text(`junk\x00\xff${V1}noise${V1}`))), [V1, V1]);
});

Deno.test("h02 splitter: mixed binary and text stream", () => {
  const splitter = new H02Splitter();
  const frames = splitter.push(concat(SHORT, text(V1), LONG, text(V1)));
  assert.deepEqual(frames, [SHORT, text(V1), LONG, text(V1)]);
});

Deno.test("h02 splitter: learned long length survives byte-by-byte delivery", () => {
  const splitter = new H02Splitter();
  // Two long frames back to back teach the splitter the 45-byte length.
  assert.deepEqual(splitter.push(concat(LONG, LONG.subarray(0, 1))), [LONG]);
  const frames = [...LONG.subarray(1), ...LONG].flatMap((byte) =>
    splitter.push(Uint8Array.of(byte))
  );
  assert.deepEqual(frames, [LONG, LONG]);
});

Deno.test("h02 splitter: short binary frames back to back", () => {
  const splitter = new H02Splitter();
  assert.deepEqual(splitter.push(concat(SHORT, SHORT, SHORT)), [SHORT, SHORT, SHORT]);
});

Deno.test("h02 splitter: a lone binary frame of a known length is emitted at once", () => {
  assert.deepEqual(new H02Splitter().push(LONG), [LONG]);
  assert.deepEqual(new H02Splitter().push(SHORT), [SHORT]);
});

Deno.test("h02 splitter: an unterminated text frame throws FrameError at the cap", () => {
  const splitter = new H02Splitter();
  assert.deepEqual(splitter.push(text("*HQ," + "1".repeat(MAX_TEXT_FRAME - 10))), []);
  assert.throws(() => splitter.push(text("1".repeat(20))), FrameError);
});

Deno.test("h02 splitter: random input only ever throws FrameError", () => {
  const random = seeded(7);
  for (let round = 0; round < 200; round++) {
    const splitter = new H02Splitter();
    try {
      for (let chunk = 0; chunk < 20; chunk++) {
        const bytes = Uint8Array.from({ length: random(200) }, () => pick(random));
        for (const frame of splitter.push(bytes)) {
          assert.ok(frame.length > 0 && frame.length <= MAX_TEXT_FRAME);
        }
      }
    } catch (error) {
      assert.ok(error instanceof FrameError, String(error));
    }
  }
});

/** Bytes biased towards frame markers so the fuzz reaches the framing paths. */
function pick(random: (limit: number) => number): number {
  const markers = [0x2a, 0x23, 0x24, 0x58, 0x2c];
  return random(4) === 0 ? markers[random(markers.length)] : random(256);
}

function seeded(seed: number): (limit: number) => number {
  let state = seed;
  return (limit) => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state % limit;
  };
}
