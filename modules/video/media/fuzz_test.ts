import assert from "node:assert/strict";
import { encodeBcd } from "../../gateway/protocols/jt808/bcd.ts";
import { testClip } from "../../simulator/video/clip.ts";
import { Packetiser } from "../../simulator/video/streamer.ts";
import { PacketSplitter } from "./jt1078.ts";
import { FrameAssembler } from "./reassembly.ts";
import { Segmenter } from "./segmenter.ts";

/** A small deterministic generator (xorshift32). */
function rng(seed: number): () => number {
  let x = seed;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 0x100000000;
  };
}

Deno.test("mutated streams (flipped bytes, cut and repeated chunks) never throw and keep muxing", async () => {
  const clip = await testClip(true);
  const frameMs = 1000 / clip.fps;
  for (const seed of [1, 7, 42, 1234, 99991]) {
    const random = rng(seed);
    const packer = new Packetiser(encodeBcd("13800000000", 6), 1, 98);
    const stream: number[] = [];
    for (let i = 0; i < clip.frames.length; i++) {
      const bytes = packer.video(clip.frames[i], clip.keys[i], Math.round(i * frameMs), 0, frameMs);
      const audio = packer.audio(
        clip.audio!.subarray(i * 640, i * 640 + 320),
        Math.round(i * frameMs),
      );
      for (const b of [bytes, audio]) {
        const copy = b.slice();
        const roll = random();
        if (roll < 0.03) copy[Math.floor(random() * copy.length)] ^= 1 << Math.floor(random() * 8);
        else if (roll < 0.04) copy.fill(0x30, Math.floor(random() * copy.length));
        stream.push(...(roll > 0.04 && roll < 0.05 ? copy.subarray(0, copy.length >> 1) : copy));
        if (roll > 0.05 && roll < 0.055) stream.push(...copy);
      }
    }
    const splitter = new PacketSplitter();
    const assembler = new FrameAssembler();
    const segmenter = new Segmenter();
    const bytes = new Uint8Array(stream);
    for (let at = 0; at < bytes.length;) {
      const n = 1 + Math.floor(random() * 3000);
      for (const p of splitter.push(bytes.subarray(at, at + n))) {
        const f = assembler.push(p);
        if (f) segmenter.push(f);
      }
      at += n;
    }
    segmenter.flush();
    assert.ok(
      segmenter.segments.length >= 3,
      `seed ${seed}: ${segmenter.segments.length} segments`,
    );
    assert.ok(segmenter.playlist(true));
  }
});

Deno.test("random bytes with headers sprinkled in never throw", () => {
  const random = rng(5);
  const splitter = new PacketSplitter();
  const assembler = new FrameAssembler();
  const segmenter = new Segmenter();
  const chunk = new Uint8Array(4096);
  for (let round = 0; round < 500; round++) {
    for (let i = 0; i < chunk.length; i++) chunk[i] = Math.floor(random() * 256);
    for (let k = 0; k < 8; k++) {
      const at = Math.floor(random() * (chunk.length - 40));
      chunk.set([0x30, 0x31, 0x63, 0x64, 0x81, 98], at);
      chunk[at + 15] = Math.floor(random() * 0x44);
      chunk[at + 28] = Math.floor(random() * 4);
    }
    for (const p of splitter.push(chunk)) {
      const f = assembler.push(p);
      if (f) segmenter.push(f);
    }
  }
  assert.ok(splitter.skipped > 0);
});
