/**
 * A fragmented MP4 (ISO 14496-12) writer: the init segment (ftyp + moov with avc1/hvc1 and
 * optionally mp4a sample entries, mvex) and fragments (moof + mdat). Enough for HLS (fMP4
 * segments with #EXT-X-MAP) and for a downloadable MP4 file (init + fragments, the duration
 * patched into mvex/mehd when the recording ends).
 */
import { dfLa } from "./flac.ts";

export interface VideoTrack {
  codec: "h264" | "h265";
  width: number;
  height: number;
  /** avcC or hvcC box payload (see codec_config.ts). */
  config: Uint8Array;
}

/** AAC passes through; G.711 becomes FLAC (see flac.ts). */
export type AudioTrack =
  & { sampleRate: number; channels: number }
  & ({ codec: "aac"; /** AudioSpecificConfig. */ asc: Uint8Array } | { codec: "flac" });

export const VIDEO_TIMESCALE = 90_000;
export const VIDEO_TRACK = 1;
export const AUDIO_TRACK = 2;

export interface Sample {
  duration: number;
  data: Uint8Array;
  key: boolean;
}

export interface TrackRun {
  trackId: number;
  baseDecodeTime: number;
  samples: Sample[];
}

const enc = new TextEncoder();

function u32(n: number): Uint8Array {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, n >>> 0);
  return b;
}
function u16(n: number): Uint8Array {
  return new Uint8Array([(n >> 8) & 0xff, n & 0xff]);
}
function u64(n: number): Uint8Array {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, BigInt(Math.max(0, Math.floor(n))));
  return b;
}
function zeros(n: number): Uint8Array {
  return new Uint8Array(n);
}

export function concatBytes(parts: Uint8Array[]): Uint8Array {
  let size = 0;
  for (const p of parts) size += p.length;
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export function box(type: string, ...payload: Uint8Array[]): Uint8Array {
  const body = concatBytes(payload);
  return concatBytes([u32(body.length + 8), enc.encode(type), body]);
}
function fullBox(type: string, version: number, flags: number, ...payload: Uint8Array[]) {
  return box(
    type,
    new Uint8Array([version, flags >> 16, (flags >> 8) & 0xff, flags & 0xff]),
    ...payload,
  );
}

const MATRIX = concatBytes([
  u32(0x10000),
  u32(0),
  u32(0),
  u32(0),
  u32(0x10000),
  u32(0),
  u32(0),
  u32(0),
  u32(0x40000000),
]);

/** The init segment; `durationMs` fills mvex/mehd (0: unknown, a live stream). */
export function initSegment(
  video: VideoTrack,
  audio: AudioTrack | null,
  durationMs = 0,
): Uint8Array {
  const ftyp = box(
    "ftyp",
    enc.encode("isom"),
    u32(0x200),
    enc.encode("isomiso6mp41"),
    enc.encode(video.codec === "h264" ? "avc1" : "hvc1"),
  );
  const mvhd = fullBox(
    "mvhd",
    0,
    0,
    u32(0),
    u32(0),
    u32(1000),
    u32(0),
    u32(0x10000),
    u16(0x100),
    zeros(10),
    MATRIX,
    zeros(24),
    u32(audio ? 3 : 2),
  );
  const traks = [videoTrak(video)];
  const trexes = [trex(VIDEO_TRACK)];
  if (audio) {
    traks.push(audioTrak(audio));
    trexes.push(trex(AUDIO_TRACK));
  }
  const mehd = fullBox("mehd", 1, 0, u64(durationMs));
  const moov = box("moov", mvhd, ...traks, box("mvex", mehd, ...trexes));
  return concatBytes([ftyp, moov]);
}

function trex(trackId: number): Uint8Array {
  return fullBox("trex", 0, 0, u32(trackId), u32(1), u32(0), u32(0), u32(0));
}

function tkhd(trackId: number, audio: boolean, width: number, height: number): Uint8Array {
  return fullBox(
    "tkhd",
    0,
    3,
    u32(0),
    u32(0),
    u32(trackId),
    u32(0),
    u32(0),
    zeros(8),
    u16(0),
    u16(audio ? 1 : 0),
    u16(audio ? 0x100 : 0),
    u16(0),
    MATRIX,
    u32(width << 16),
    u32(height << 16),
  );
}

function mdia(
  timescale: number,
  handler: "vide" | "soun",
  minfHeader: Uint8Array,
  stsd: Uint8Array,
) {
  const mdhd = fullBox("mdhd", 0, 0, u32(0), u32(0), u32(timescale), u32(0), u16(0x55c4), u16(0));
  const name = handler === "vide" ? "VideoHandler\0" : "SoundHandler\0";
  const hdlr = fullBox("hdlr", 0, 0, u32(0), enc.encode(handler), zeros(12), enc.encode(name));
  const dinf = box("dinf", fullBox("dref", 0, 0, u32(1), fullBox("url ", 0, 1)));
  const stbl = box(
    "stbl",
    stsd,
    fullBox("stts", 0, 0, u32(0)),
    fullBox("stsc", 0, 0, u32(0)),
    fullBox("stsz", 0, 0, u32(0), u32(0)),
    fullBox("stco", 0, 0, u32(0)),
  );
  return box("mdia", mdhd, hdlr, box("minf", minfHeader, dinf, stbl));
}

function videoTrak(v: VideoTrack): Uint8Array {
  const entry = box(
    v.codec === "h264" ? "avc1" : "hvc1",
    zeros(6),
    u16(1),
    zeros(16),
    u16(v.width),
    u16(v.height),
    u32(0x480000),
    u32(0x480000),
    u32(0),
    u16(1),
    zeros(32),
    u16(0x18),
    u16(0xffff),
    box(v.codec === "h264" ? "avcC" : "hvcC", v.config),
  );
  const stsd = fullBox("stsd", 0, 0, u32(1), entry);
  const vmhd = fullBox("vmhd", 0, 1, zeros(8));
  return box(
    "trak",
    tkhd(VIDEO_TRACK, false, v.width, v.height),
    mdia(VIDEO_TIMESCALE, "vide", vmhd, stsd),
  );
}

function audioTrak(a: AudioTrack): Uint8Array {
  const config = a.codec === "aac"
    ? fullBox("esds", 0, 0, esDescriptor(a.asc))
    : box("dfLa", dfLa(a.sampleRate));
  const entry = box(
    a.codec === "aac" ? "mp4a" : "fLaC",
    zeros(6),
    u16(1),
    zeros(8),
    u16(a.channels),
    u16(16),
    u16(0),
    u16(0),
    u32(a.sampleRate << 16),
    config,
  );
  const stsd = fullBox("stsd", 0, 0, u32(1), entry);
  const smhd = fullBox("smhd", 0, 0, zeros(4));
  return box("trak", tkhd(AUDIO_TRACK, true, 0, 0), mdia(a.sampleRate, "soun", smhd, stsd));
}

function descriptor(tag: number, body: Uint8Array): Uint8Array {
  return concatBytes([new Uint8Array([tag, body.length & 0x7f]), body]);
}

function esDescriptor(asc: Uint8Array): Uint8Array {
  const decoderSpecific = descriptor(5, asc);
  const decoderConfig = descriptor(
    4,
    concatBytes([new Uint8Array([0x40, 0x15, 0, 0, 0]), u32(0), u32(0), decoderSpecific]),
  );
  const sl = descriptor(6, new Uint8Array([2]));
  return descriptor(3, concatBytes([u16(0), new Uint8Array([0]), decoderConfig, sl]));
}

const KEY_FLAGS = 0x02000000;
const NON_KEY_FLAGS = 0x01010000;

/** One fragment: moof (one traf per run) + mdat holding the runs' samples in order. */
export function fragment(sequence: number, runs: TrackRun[]): Uint8Array {
  const build = (offsets: number[]) =>
    box("moof", fullBox("mfhd", 0, 0, u32(sequence)), ...runs.map((r, i) => traf(r, offsets[i])));
  const moofSize = build(runs.map(() => 0)).length;
  const offsets: number[] = [];
  let at = moofSize + 8;
  for (const r of runs) {
    offsets.push(at);
    for (const s of r.samples) at += s.data.length;
  }
  const moof = build(offsets);
  const mdat = box("mdat", ...runs.flatMap((r) => r.samples.map((s) => s.data)));
  return concatBytes([moof, mdat]);
}

function traf(run: TrackRun, dataOffset: number): Uint8Array {
  const tfhd = fullBox("tfhd", 0, 0x020000, u32(run.trackId));
  const tfdt = fullBox("tfdt", 1, 0, u64(run.baseDecodeTime));
  const entries = run.samples.map((s) =>
    concatBytes([u32(s.duration), u32(s.data.length), u32(s.key ? KEY_FLAGS : NON_KEY_FLAGS)])
  );
  const trun = fullBox("trun", 0, 0x000701, u32(run.samples.length), u32(dataOffset), ...entries);
  return box("traf", tfhd, tfdt, trun);
}
