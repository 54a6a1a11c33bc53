/**
 * One stream's frames → fMP4 HLS: video access units become length-prefixed MP4 samples, cut
 * into segments at key frames once a segment holds ~1 s; AAC audio rides along in the same
 * fragments, G.711 as FLAC (flac.ts); other audio is dropped (noted). Keeps a sliding window of segments in memory.
 */
import type { AudioCodec, VideoCodec } from "../model.ts";
import { audioCodecOf, parseAdts, stripHiSilicon } from "./audio.ts";
import { avcC, hvcC } from "./codec_config.ts";
import { decodeG711, FLAC_BLOCK, FlacEncoder } from "./flac.ts";
import {
  AUDIO_TRACK,
  type AudioTrack,
  concatBytes,
  fragment,
  initSegment,
  type Sample,
  type TrackRun,
  VIDEO_TIMESCALE,
  VIDEO_TRACK,
  type VideoTrack,
} from "./mp4.ts";
import {
  H264,
  h264Type,
  H265,
  h265Type,
  isKeyNal,
  isParameterSet,
  parseH264Sps,
  parseH265Sps,
  splitAnnexB,
} from "./nal.ts";
import type { MediaFrame } from "./reassembly.ts";

/** The catalogue key shown when a channel's audio cannot be played in a browser (G.726, ADPCM…: dropped). */
export const AUDIO_DROPPED_NOTE = "videoAudioNotPlayable";

export interface Segment {
  sequence: number;
  name: string;
  durationMs: number;
  bytes: Uint8Array;
  /** The samples, for recorders that write their own fragments. */
  runs: TrackRun[];
  /** The tracks of its init segment, and that init segment's name (#EXT-X-MAP). */
  tracks: { video: VideoTrack; audio: AudioTrack | null };
  map: string;
  /** Discontinuities (parameter-set changes) before and at this segment. */
  discontinuity: number;
  /** When the oldest frame of the segment arrived (ms epoch): the delay measure. */
  firstArrival: number;
  publishedAt: number;
  /** Memory it holds (bytes, and its samples when kept). */
  keptBytes: number;
}

export interface SegmenterOptions {
  targetMs?: number;
  /** Segments listed in the playlist. */
  window?: number;
  /** Segments kept (a viewer a little behind still gets them). */
  keep?: number;
  /** Bytes of segments kept at most (history playback keeps many segments, bounded; samples count too). */
  maxBytes?: number;
  /**
   * Keep each segment's samples after publishing (a recorder started later writes them): on for
   * playbacks and downloads, off for live (halves its memory; a live recording starts at the
   * next segment).
   */
  keepSamples?: boolean;
  onSegment?: (segment: Segment) => void;
}

/** Longest a segment grows without a key frame before it is cut anyway (bounded memory). */
const MAX_SEGMENT_MS = 6_000;
const MAX_SEGMENT_BYTES = 8 * 1024 * 1024;
const DEFAULT_FRAME_MS = 40;
/** Segments kept whatever their size (a playlist of fewer cannot play). */
const MIN_KEPT = 3;

interface Held {
  ts: number;
  /** The terminal's own interval to the previous frame (ms), when timestamps are unusable. */
  interval: number;
  sample: Sample;
  arrivedAt: number;
}

export class Segmenter {
  video: VideoCodec | null = null;
  audio: AudioCodec | null = null;
  audioNote: string | undefined;
  codecString: string | null = null;
  init: Uint8Array | null = null;
  readonly segments: Segment[] = [];
  #videoTrack: VideoTrack | null = null;
  /** Init segments by name (the newest last; older ones while listed segments use them). */
  #inits: { name: string; bytes: Uint8Array }[] = [];
  /** A key frame came with other parameter sets (resolution or stream switch): cut, then a new init. */
  #switchTo: VideoTrack | null = null;
  #discontinuities = 0;
  #audioTrack: AudioTrack | null = null;
  #params = { vps: [] as Uint8Array[], sps: [] as Uint8Array[], pps: [] as Uint8Array[] };
  #held: Held | null = null;
  #current: Sample[] = [];
  #currentMs = 0;
  #currentBytes = 0;
  #currentArrival = 0;
  #audioPending: Sample[] = [];
  #flac: FlacEncoder | null = null;
  #videoTime = 0;
  #audioTime = 0;
  #lastDelta = DEFAULT_FRAME_MS;
  #sequence = 0;
  #maxDurationMs = 1000;
  #keptBytes = 0;
  readonly #o: Required<Omit<SegmenterOptions, "onSegment">> & Pick<SegmenterOptions, "onSegment">;

  constructor(options: SegmenterOptions = {}) {
    this.#o = {
      targetMs: 1000,
      window: 5,
      keep: 8,
      maxBytes: 64 * 1024 * 1024,
      keepSamples: true,
      ...options,
    };
  }

  push(frame: MediaFrame, arrivedAt = Date.now()): void {
    if (frame.kind === "audio") this.#pushAudio(frame);
    else this.#pushVideo(frame, arrivedAt);
  }

  #pushVideo(frame: MediaFrame, arrivedAt: number): void {
    const codec = this.video ?? videoCodecOf(frame);
    if (!codec) return;
    this.video = codec;
    const nals = splitAnnexB(frame.data);
    let key = false;
    const payload: Uint8Array[] = [];
    for (const nal of nals) {
      this.#collectParameterSet(codec, nal);
      if (isKeyNal(codec, nal)) key = true;
      if (!isParameterSet(codec, nal)) payload.push(lengthPrefixed(nal));
    }
    if (!payload.length) return;
    if (!this.#videoTrack) {
      if (!key) return; // wait for the first key frame with its parameter sets
      this.#videoTrack = this.#trackFromParams(codec);
      if (!this.#videoTrack) return;
      this.#audioPending = [];
    } else if (key && this.#held) {
      const now = this.#trackFromParams(codec);
      if (now && !sameBytes(now.config, this.#videoTrack.config)) this.#switchTo = now;
    }
    const sample: Sample = { duration: 0, data: concatBytes(payload), key };
    this.#advance({ ts: frame.timestamp, interval: frame.frameIntervalMs, sample, arrivedAt }, key);
  }

  /** Gives the held frame its duration (up to the new frame) and cuts at key frames. */
  #advance(next: Held, key: boolean): void {
    const held = this.#held;
    this.#held = next;
    if (!held) {
      this.#currentArrival = next.arrivedAt;
      return;
    }
    let delta = next.ts - held.ts;
    if (!(delta > 0 && delta <= 3000)) {
      delta = next.interval > 0 && next.interval <= 1000 ? next.interval : this.#lastDelta;
    }
    this.#lastDelta = delta;
    held.sample.duration = Math.round(delta * VIDEO_TIMESCALE / 1000);
    if (!this.#current.length) this.#currentArrival = held.arrivedAt;
    this.#current.push(held.sample);
    this.#currentMs += delta;
    this.#currentBytes += held.sample.data.length;
    const due = key && (this.#currentMs >= this.#o.targetMs * 0.9 || this.#switchTo !== null);
    if (due || this.#currentMs >= MAX_SEGMENT_MS || this.#currentBytes >= MAX_SEGMENT_BYTES) {
      this.#cut();
    }
  }

  #cut(): void {
    const video = this.#videoTrack!;
    if (!this.init) {
      this.init = initSegment(video, this.#audioTrack);
      this.#inits.push({ name: "init.mp4", bytes: this.init });
      if (!this.#audioTrack) this.#audioPending = [];
    }
    const runs: TrackRun[] = [
      { trackId: VIDEO_TRACK, baseDecodeTime: this.#videoTime, samples: this.#current },
    ];
    if (this.#audioPending.length && this.init && this.#audioTrack) {
      runs.push({
        trackId: AUDIO_TRACK,
        baseDecodeTime: this.#audioTime,
        samples: this.#audioPending,
      });
      for (const s of this.#audioPending) this.#audioTime += s.duration;
    }
    for (const s of this.#current) this.#videoTime += s.duration;
    const sequence = this.#sequence++;
    const segment: Segment = {
      sequence,
      name: `s${sequence}.m4s`,
      durationMs: this.#currentMs,
      bytes: fragment(sequence + 1, runs),
      runs,
      tracks: { video, audio: this.#audioTrack },
      map: this.#inits[this.#inits.length - 1].name,
      discontinuity: this.#discontinuities,
      firstArrival: this.#currentArrival,
      publishedAt: Date.now(),
      keptBytes: 0,
    };
    this.#current = [];
    this.#audioPending = [];
    this.#currentMs = 0;
    this.#currentBytes = 0;
    this.#maxDurationMs = Math.max(this.#maxDurationMs, segment.durationMs);
    this.segments.push(segment);
    segment.keptBytes = segment.bytes.length * (this.#o.keepSamples ? 2 : 1);
    this.#keptBytes += segment.keptBytes;
    while (
      this.segments.length > this.#o.keep ||
      (this.#keptBytes > this.#o.maxBytes && this.segments.length > MIN_KEPT)
    ) {
      this.#keptBytes -= this.segments.shift()!.keptBytes;
    }
    this.#o.onSegment?.(segment);
    if (!this.#o.keepSamples) segment.runs = [];
    if (this.#switchTo) this.#switchTrack(this.#switchTo);
  }

  /** The next segments use a new init segment, after an EXT-X-DISCONTINUITY. */
  #switchTrack(track: VideoTrack): void {
    this.#switchTo = null;
    this.#videoTrack = track;
    this.init = initSegment(track, this.#audioTrack);
    this.#discontinuities++;
    this.#inits.push({ name: `init${this.#discontinuities}.mp4`, bytes: this.init });
    const used = new Set(this.segments.map((x) => x.map));
    this.#inits = this.#inits.filter((i, n) => n === this.#inits.length - 1 || used.has(i.name));
  }

  #pushAudio(frame: MediaFrame): void {
    const codec = audioCodecOf(frame.payloadType);
    if (this.audio !== codec && this.#audioTrack) return; // the track's codec is fixed
    this.audio = codec;
    if (codec === "aac") this.#pushAac(frame);
    else if (codec === "g711a" || codec === "g711u") this.#pushG711(frame, codec);
    else this.audioNote = AUDIO_DROPPED_NOTE;
  }

  #pushAac(frame: MediaFrame): void {
    for (const adts of parseAdts(stripHiSilicon(frame.data))) {
      if (!this.#audioTrack) {
        if (this.init) return; // audio that starts after the init segment is not played
        this.#audioTrack = {
          codec: "aac",
          sampleRate: adts.sampleRate,
          channels: adts.channels,
          asc: adts.asc,
        };
      }
      const duration = Math.round(1024 * this.#audioTrack.sampleRate / adts.sampleRate);
      this.#queueAudio({ duration, data: adts.data, key: true });
    }
  }

  /** G.711 8 kHz → 16-bit PCM → FLAC frames (browsers refuse G.711 in MP4). */
  #pushG711(frame: MediaFrame, codec: "g711a" | "g711u"): void {
    if (!this.#audioTrack) {
      if (this.init) return;
      this.#audioTrack = { codec: "flac", sampleRate: 8000, channels: 1 };
      this.#flac = new FlacEncoder(8000);
    }
    const pcm = decodeG711(stripHiSilicon(frame.data), codec === "g711a" ? "a" : "u");
    for (const data of this.#flac!.push(pcm)) {
      this.#queueAudio({ duration: FLAC_BLOCK, data, key: true });
    }
  }

  #queueAudio(sample: Sample): void {
    if (!this.#videoTrack) return; // audio starts with the first key frame
    this.#audioPending.push(sample);
    if (this.#audioPending.length > 2000) this.#audioPending.shift();
  }

  #collectParameterSet(codec: VideoCodec, nal: Uint8Array): void {
    const p = this.#params;
    if (codec === "h264") {
      const t = h264Type(nal);
      if (t === H264.SPS) p.sps = [nal.slice()];
      else if (t === H264.PPS) p.pps = [nal.slice()];
      return;
    }
    const t = h265Type(nal);
    if (t === H265.VPS) p.vps = [nal.slice()];
    else if (t === H265.SPS) p.sps = [nal.slice()];
    else if (t === H265.PPS) p.pps = [nal.slice()];
  }

  #trackFromParams(codec: VideoCodec): VideoTrack | null {
    const { vps, sps, pps } = this.#params;
    if (!sps.length || !pps.length) return null;
    if (codec === "h264") {
      const info = parseH264Sps(sps[0]);
      if (!info) return null;
      this.codecString = info.codecString;
      return { codec, width: info.width, height: info.height, config: avcC(sps, pps) };
    }
    const info = parseH265Sps(sps[0]);
    if (!info || !vps.length) return null;
    this.codecString = info.codecString;
    return { codec, width: info.width, height: info.height, config: hvcC(info, vps, sps, pps) };
  }

  /** The media playlist; `ended` adds EXT-X-ENDLIST (the connection closed). */
  playlist(ended: boolean): string | null {
    if (!this.init || !this.segments.length) return null;
    const listed = this.segments.slice(-this.#o.window);
    const lines = [
      "#EXTM3U",
      "#EXT-X-VERSION:7",
      `#EXT-X-TARGETDURATION:${Math.max(1, Math.round(this.#maxDurationMs / 1000))}`,
      `#EXT-X-MEDIA-SEQUENCE:${listed[0].sequence}`,
      `#EXT-X-DISCONTINUITY-SEQUENCE:${listed[0].discontinuity}`,
      "#EXT-X-INDEPENDENT-SEGMENTS",
      `#EXT-X-MAP:URI="${listed[0].map}"`,
    ];
    let map = listed[0].map;
    for (const s of listed) {
      if (s.map !== map) {
        lines.push("#EXT-X-DISCONTINUITY", `#EXT-X-MAP:URI="${s.map}"`);
        map = s.map;
      }
      lines.push(`#EXTINF:${(s.durationMs / 1000).toFixed(3)},`, s.name);
    }
    if (ended) lines.push("#EXT-X-ENDLIST");
    return lines.join("\n") + "\n";
  }

  segment(name: string): Uint8Array | null {
    if (name.startsWith("init")) return this.#inits.find((i) => i.name === name)?.bytes ?? null;
    return this.segments.find((s) => s.name === name)?.bytes ?? null;
  }

  /** The trailing frames as a last segment (the connection closed). */
  flush(): void {
    if (this.#held) {
      this.#advance({ ...this.#held, ts: this.#held.ts + this.#lastDelta }, false);
      this.#held = null;
    }
    if (this.#current.length && this.#videoTrack) this.#cut();
  }
}

function videoCodecOf(frame: MediaFrame): VideoCodec | null {
  if (frame.payloadType === 98) return "h264";
  if (frame.payloadType === 99) return "h265";
  // Some terminals put another number there: look at the first NAL header.
  const first = splitAnnexB(frame.data.subarray(0, 64))[0];
  if (!first) return null;
  if (h265Type(first) === H265.VPS) return "h265";
  return h264Type(first) >= 1 && h264Type(first) <= 9 ? "h264" : null;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function lengthPrefixed(nal: Uint8Array): Uint8Array {
  const out = new Uint8Array(nal.length + 4);
  new DataView(out.buffer).setUint32(0, nal.length);
  out.set(nal, 4);
  return out;
}
