import assert from "node:assert/strict";
import { benchClip, clipOf, testClip } from "../../simulator/video/clip.ts";
import { DataType } from "./jt1078.ts";
import { decodeErrors, probe } from "./probe_test_helpers.ts";
import type { MediaFrame } from "./reassembly.ts";
import { Segmenter } from "./segmenter.ts";
import { parseH264Sps, splitAnnexB } from "./nal.ts";

function framesOf(clip: Awaited<ReturnType<typeof testClip>>): MediaFrame[] {
  return clip.frames.map((data, i) => ({
    sim: "013800000001",
    channel: 1,
    kind: "video",
    dataType: clip.keys[i] ? DataType.I : DataType.P,
    payloadType: 98,
    timestamp: Math.round(i * 1000 / clip.fps),
    frameIntervalMs: 0,
    data,
  }));
}

Deno.test("the test clip's SPS gives its size and the avc1 codec string", async () => {
  const clip = await testClip(false);
  const sps = splitAnnexB(clip.frames[0]).find((n) => (n[0] & 0x1f) === 7)!;
  const info = parseH264Sps(sps);
  assert.equal(info?.width, 320);
  assert.equal(info?.height, 240);
  assert.match(info!.codecString, /^avc1\.42c0[0-9a-f]{2}$/);
  assert.equal(clip.frames.length, 120);
  assert.equal(clip.keys.filter(Boolean).length, 10);
});

Deno.test("the muxed clip: ~1 s segments cut at key frames decode with ffprobe, total duration right", async () => {
  const clip = await testClip(false);
  const seg = new Segmenter({ keep: 1000, window: 1000 });
  for (const f of framesOf(clip)) seg.push(f);
  seg.flush();
  assert.ok(seg.init);
  assert.equal(seg.segments.length, 10);
  for (const s of seg.segments) assert.ok(Math.abs(s.durationMs - 1000) <= 84, `${s.durationMs}`);
  const playlist = seg.playlist(true)!;
  assert.match(playlist, /#EXT-X-TARGETDURATION:1\n/);
  assert.match(playlist, /#EXT-X-MAP:URI="init.mp4"/);
  assert.match(playlist, /#EXT-X-ENDLIST/);
  const dir = await Deno.makeTempDir();
  try {
    // init + every segment, as hls.js appends them to its SourceBuffer.
    const path = `${dir}/all.mp4`;
    const parts = [seg.init!, ...seg.segments.map((s) => s.bytes)];
    await Deno.writeFile(path, new Uint8Array(parts.flatMap((p) => [...p])));
    const p = await probe(path);
    assert.equal(p.codec, "h264");
    assert.equal(p.width, 320);
    assert.equal(p.height, 240);
    assert.equal(p.frames, 120);
    assert.ok(Math.abs(p.duration - 10) <= 1 / 12 + 0.001, `duration ${p.duration}`);
    assert.equal(await decodeErrors(path), "");
    // A segment on its own with the init also decodes (a viewer joining mid-stream).
    const one = `${dir}/one.mp4`;
    await Deno.writeFile(one, new Uint8Array([...seg.init!, ...seg.segments[4].bytes]));
    const q = await probe(one);
    assert.equal(q.frames, 12);
    assert.equal(await decodeErrors(one), "");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a live playlist slides: window of 5 listed, media sequence advances", async () => {
  const clip = await testClip(false);
  const seg = new Segmenter();
  for (const f of framesOf(clip)) seg.push(f);
  const text = seg.playlist(false)!;
  assert.equal(text.match(/#EXTINF/g)?.length, 5);
  assert.match(text, /#EXT-X-MEDIA-SEQUENCE:4\n/);
  assert.doesNotMatch(text, /ENDLIST/);
  assert.equal(seg.segment("s0.m4s"), null); // beyond the kept 8
  assert.ok(seg.segment("s8.m4s"));
});

Deno.test("frames before the first key frame are skipped; garbage frames do not throw", () => {
  const seg = new Segmenter();
  const junk = (n: number) => crypto.getRandomValues(new Uint8Array(n));
  for (let i = 0; i < 200; i++) {
    seg.push({
      sim: "1",
      channel: 1,
      kind: i % 3 ? "video" : "audio",
      dataType: i % 3 ? 0 : 3,
      payloadType: i % 2 ? 98 : 19,
      timestamp: i * 40,
      frameIntervalMs: 0,
      data: i % 5 ? junk(300) : new Uint8Array([0, 0, 1, 0x67, 0x42, 0, 0, 0, 0, 1, 0x65, 1, 2]),
    });
  }
  assert.equal(seg.playlist(false), null);
});

Deno.test("clipOf groups NAL units into access units", () => {
  const au = (nals: number[][]) => nals.flatMap((n) => [0, 0, 0, 1, ...n]);
  const bytes = new Uint8Array([
    ...au([[0x67, 0x42], [0x68, 0xce], [0x65, 0x88]]),
    ...au([[0x41, 0x9a]]),
    ...au([[0x41, 0x9b]]),
  ]);
  const c = clipOf(bytes, 10);
  assert.equal(c.frames.length, 3);
  assert.deepEqual(c.keys, [true, false, false]);
});

Deno.test("unusable timestamps (all zero): the terminal's frame interval times the frames", async () => {
  const clip = await testClip(false);
  const seg = new Segmenter({ keep: 100, window: 100 });
  for (const f of framesOf(clip)) seg.push({ ...f, timestamp: 0, frameIntervalMs: 83 });
  seg.flush();
  assert.equal(seg.segments.length, 10);
  const total = seg.segments.reduce((n, s) => n + s.durationMs, 0);
  assert.ok(Math.abs(total - 120 * 83) <= 83, `total ${total} ms`);
});

Deno.test("a resolution switch mid-stream: discontinuity with a new init; both parts decode at their size", async () => {
  const small = await testClip(false);
  const large = await benchClip(false);
  const seg = new Segmenter({ keep: 100, window: 100 });
  const frames = [
    ...small.frames.slice(0, 36).map((data, i) => ({ data, key: small.keys[i], ms: i * 83 })),
    ...large.frames.map((data, i) => ({ data, key: large.keys[i], ms: 36 * 83 + i * 67 })),
  ];
  for (const f of frames) {
    seg.push({
      sim: "1",
      channel: 1,
      kind: "video",
      dataType: f.key ? 0 : 1,
      payloadType: 98,
      timestamp: f.ms,
      frameIntervalMs: 0,
      data: f.data,
    });
  }
  seg.flush();
  const playlist = seg.playlist(true)!;
  assert.match(playlist, /#EXT-X-MAP:URI="init.mp4"\n/);
  assert.match(
    playlist,
    /#EXT-X-DISCONTINUITY\n#EXT-X-MAP:URI="init1.mp4"\n#EXTINF:[\d.]+,\ns3.m4s\n/,
  );
  assert.deepEqual(seg.segments.map((s) => s.map), [
    "init.mp4",
    "init.mp4",
    "init.mp4",
    "init1.mp4",
    "init1.mp4",
  ]);
  const dir = await Deno.makeTempDir();
  try {
    for (
      const [init, from, to, size, count] of [["init.mp4", 0, 3, [320, 240], 36], [
        "init1.mp4",
        3,
        5,
        [640, 360],
        30,
      ]] as const
    ) {
      const path = `${dir}/${init}`;
      const parts = [seg.segment(init)!, ...seg.segments.slice(from, to).map((s) => s.bytes)];
      await Deno.writeFile(path, new Uint8Array(parts.flatMap((p) => [...p])));
      const p = await probe(path);
      assert.deepEqual([p.width, p.height], size);
      assert.equal(p.frames, count);
      assert.equal(await decodeErrors(path), "");
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a playback stream keeps many segments but within its byte bound", async () => {
  const clip = await testClip(false);
  const seg = new Segmenter({
    keep: 100_000,
    window: 100_000,
    keepSamples: true,
    maxBytes: 100_000,
  });
  for (let pass = 0; pass < 3; pass++) {
    for (const f of framesOf(clip)) seg.push({ ...f, timestamp: f.timestamp + pass * 10_000 });
  }
  const kept = seg.segments.reduce((n, s) => n + s.keptBytes, 0);
  assert.ok(kept <= 100_000 + 2 * Math.max(...seg.segments.map((s) => s.bytes.length)), `${kept}`);
  assert.ok(seg.segments.length >= 3);
  assert.equal(seg.segments.at(-1)!.sequence, 28);
});
