/**
 * Test clips for the simulated JT/T 1078 terminals: an Annex-B H.264 file cut into access units,
 * with its frame rate, and optional G.711A audio (8 kHz). The fixtures under
 * tests/fixtures/video were made with Debian's ffmpeg (commands in tests/fixtures/video/README.md).
 */
import { H264, h264Type, splitAnnexB } from "../../video/media/nal.ts";

export interface Clip {
  /** Access units, each Annex-B (4-byte start codes), in decode order. */
  frames: Uint8Array[];
  /** Which access units hold an IDR picture. */
  keys: boolean[];
  fps: number;
  /** G.711A samples (8 kHz, one byte each), or none. */
  audio?: Uint8Array;
}

const FIXTURES = new URL("../../../tests/fixtures/video/", import.meta.url);

/** 10 s, 320x240, 12 fps, 1 s GOP, baseline H.264 (~150 kbit/s) with a 440 Hz G.711A tone. */
export async function testClip(withAudio = true): Promise<Clip> {
  const video = await Deno.readFile(new URL("clip_320x240_12fps.h264", FIXTURES));
  const audio = withAudio ? await Deno.readFile(new URL("clip_8k.alaw", FIXTURES)) : undefined;
  return clipOf(video, 12, audio);
}

/** 2 s, 640x360, 15 fps, 1 s GOP, ~1 Mbit/s baseline H.264 (the bench loops it), G.711A audio. */
export async function benchClip(withAudio = true): Promise<Clip> {
  const video = await Deno.readFile(new URL("clip_640x360_15fps_1mbps.h264", FIXTURES));
  const audio = withAudio ? await Deno.readFile(new URL("clip_8k.alaw", FIXTURES)) : undefined;
  return clipOf(video, 15, audio);
}

/** Groups an Annex-B stream's NAL units into access units (a new one at SPS/PPS/AUD/SEI or a first slice). */
export function clipOf(annexB: Uint8Array, fps: number, audio?: Uint8Array): Clip {
  const frames: Uint8Array[][] = [];
  const keys: boolean[] = [];
  let current: Uint8Array[] = [];
  let hasSlice = false;
  let key = false;
  const flush = () => {
    if (current.length && hasSlice) {
      frames.push(current);
      keys.push(key);
    }
    current = [];
    hasSlice = false;
    key = false;
  };
  for (const nal of splitAnnexB(annexB)) {
    const t = h264Type(nal);
    const isSlice = t === 1 || t === H264.IDR;
    const startsAu = t === H264.SPS || t === H264.PPS || t === H264.AUD || t === H264.SEI ||
      (isSlice && (nal[1] & 0x80) !== 0);
    if (startsAu && hasSlice) flush();
    current.push(nal);
    if (isSlice) hasSlice = true;
    if (t === H264.IDR) key = true;
  }
  flush();
  return { frames: frames.map(annexBOf), keys, fps, audio };
}

function annexBOf(nals: Uint8Array[]): Uint8Array {
  const size = nals.reduce((n, x) => n + x.length + 4, 0);
  const out = new Uint8Array(size);
  let at = 0;
  for (const nal of nals) {
    out.set([0, 0, 0, 1], at);
    out.set(nal, at + 4);
    at += nal.length + 4;
  }
  return out;
}
