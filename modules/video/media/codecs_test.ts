import assert from "node:assert/strict";
import { parseAdts, stripHiSilicon } from "./audio.ts";
import { DataType } from "./jt1078.ts";
import { h265Type, parseH265Sps, splitAnnexB } from "./nal.ts";
import { decodeErrors, probe } from "./probe_test_helpers.ts";
import type { MediaFrame } from "./reassembly.ts";
import { AUDIO_DROPPED_NOTE, Segmenter } from "./segmenter.ts";

async function ffmpeg(args: string[]): Promise<void> {
  const out = await new Deno.Command("ffmpeg", {
    args: ["-v", "error", "-y", ...args],
    stderr: "piped",
  }).output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
}

/** HEVC access units: a new one at VPS/SPS/PPS/AUD/prefix SEI or a slice whose first_slice flag is set. */
function hevcAccessUnits(annexB: Uint8Array): { data: Uint8Array; key: boolean }[] {
  const units: { nals: Uint8Array[]; key: boolean; slice: boolean }[] = [];
  let cur = { nals: [] as Uint8Array[], key: false, slice: false };
  for (const nal of splitAnnexB(annexB)) {
    const t = h265Type(nal);
    const starts = (t >= 32 && t <= 35) || t === 39 || (t < 32 && (nal[2] & 0x80) !== 0);
    if (starts && cur.slice) {
      units.push(cur);
      cur = { nals: [], key: false, slice: false };
    }
    cur.nals.push(nal);
    if (t < 32) cur.slice = true;
    if (t >= 16 && t <= 23) cur.key = true;
  }
  if (cur.slice) units.push(cur);
  return units.map((u) => ({
    key: u.key,
    data: new Uint8Array(u.nals.flatMap((n) => [0, 0, 0, 1, ...n])),
  }));
}

Deno.test("H.265 with AAC (some frames behind a HiSilicon header): muxed fMP4 decodes, both tracks", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await ffmpeg([
      "-f",
      "lavfi",
      "-i",
      "testsrc2=size=320x240:rate=10:duration=3",
      "-c:v",
      "libx265",
      "-pix_fmt",
      "yuv420p",
      "-x265-params",
      "keyint=10:min-keyint=10:scenecut=0:bframes=0:log-level=error",
      "-f",
      "hevc",
      `${dir}/v.hevc`,
    ]);
    await ffmpeg([
      "-f",
      "lavfi",
      "-i",
      "sine=frequency=440:sample_rate=16000:duration=3",
      "-c:a",
      "aac",
      "-b:a",
      "32k",
      "-f",
      "adts",
      `${dir}/a.aac`,
    ]);
    const units = hevcAccessUnits(await Deno.readFile(`${dir}/v.hevc`));
    assert.equal(units.length, 30);
    const sps = splitAnnexB(units[0].data).find((n) => h265Type(n) === 33)!;
    const info = parseH265Sps(sps)!;
    assert.equal(info.width, 320);
    assert.equal(info.height, 240);
    assert.match(info.codecString, /^hvc1\.1\.6\.L\d+\.[0-9A-F.]+$/);
    const adts = await Deno.readFile(`${dir}/a.aac`);
    // The raw ADTS stream cut back into frames, to send one per packet.
    const aac: Uint8Array[] = [];
    for (let at = 0; at + 7 <= adts.length;) {
      const len = ((adts[at + 3] & 3) << 11) | (adts[at + 4] << 3) | (adts[at + 5] >> 5);
      aac.push(adts.subarray(at, at + len));
      at += len;
    }
    assert.ok(aac.length > 40);
    const seg = new Segmenter({ keep: 100, window: 100 });
    const frames: MediaFrame[] = [];
    units.forEach((u, i) =>
      frames.push({
        sim: "1",
        channel: 1,
        kind: "video",
        dataType: u.key ? DataType.I : DataType.P,
        payloadType: 99,
        timestamp: i * 100,
        frameIntervalMs: 0,
        data: u.data,
      })
    );
    aac.forEach((a, i) => {
      const hisi = i % 2 === 0 && a.length % 2 === 0 && a.length / 2 < 256;
      const data = hisi ? new Uint8Array([0, 1, a.length / 2, 0, ...a]) : a;
      frames.push({
        sim: "1",
        channel: 1,
        kind: "audio",
        dataType: DataType.Audio,
        payloadType: 19,
        timestamp: i * 64,
        frameIntervalMs: 0,
        data,
      });
    });
    frames.sort((a, b) => a.timestamp - b.timestamp);
    for (const f of frames) seg.push(f);
    seg.flush();
    assert.equal(seg.video, "h265");
    assert.equal(seg.audio, "aac");
    assert.equal(seg.audioNote, undefined);
    assert.equal(seg.segments.length, 3);
    const path = `${dir}/out.mp4`;
    await Deno.writeFile(
      path,
      new Uint8Array([seg.init!, ...seg.segments.map((s) => s.bytes)].flatMap((x) => [...x])),
    );
    const p = await probe(path);
    assert.equal(p.codec, "hevc");
    assert.equal(p.frames, 30);
    assert.equal(await decodeErrors(path), "");
    const streams = await new Deno.Command("ffprobe", {
      args: ["-v", "error", "-show_entries", "stream=codec_name", "-of", "csv=p=0", path],
      stdout: "piped",
    }).output();
    assert.deepEqual(new TextDecoder().decode(streams.stdout).trim().split("\n").sort(), [
      "aac",
      "hevc",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("G.711 becomes FLAC (no note); G.726 is dropped with the catalogue note", () => {
  const g711 = new Segmenter();
  g711.push({
    sim: "1",
    channel: 1,
    kind: "audio",
    dataType: DataType.Audio,
    payloadType: 6,
    timestamp: 0,
    frameIntervalMs: 0,
    data: new Uint8Array(324),
  });
  assert.equal(g711.audio, "g711a");
  assert.equal(g711.audioNote, undefined);
  const g726 = new Segmenter();
  g726.push({
    sim: "1",
    channel: 1,
    kind: "audio",
    dataType: DataType.Audio,
    payloadType: 8,
    timestamp: 0,
    frameIntervalMs: 0,
    data: new Uint8Array(80),
  });
  assert.equal(g726.audio, "g726");
  assert.equal(g726.audioNote, AUDIO_DROPPED_NOTE);
});

Deno.test("the HiSilicon header is removed only when it matches the frame", () => {
  const body = new Uint8Array(320).fill(0xd5);
  assert.equal(stripHiSilicon(new Uint8Array([0, 1, 160, 0, ...body])).length, 320);
  assert.equal(stripHiSilicon(body).length, 320);
  const adtsLike = new Uint8Array([0xff, 0xf1, 0x50, 0x80, 0x01, 0x7f, 0xfc, 0x21]);
  assert.equal(stripHiSilicon(adtsLike), adtsLike);
  assert.equal(parseAdts(new Uint8Array([0xff, 0xf1, 0x50])).length, 0);
});
