/**
 * The MediaHub (modules/video/types.ts): streams keyed by (SIM, channel, purpose), fed with
 * reassembled frames by the JT/T 1078 listener, each muxed to fMP4 HLS by its Segmenter, with
 * waiters for the first segment (`expect`) and MP4 recorders (`record`). A media connection is
 * bound to the purpose the signalling half announced for its (SIM, channel), else "live".
 */
import type { MediaHub, StreamInfo, StreamKey } from "../types.ts";
import type { MediaFrame } from "./reassembly.ts";
import { Mp4Recorder } from "./recorder.ts";
import { type Segment, Segmenter } from "./segmenter.ts";

export const LIVE_PURPOSE = "live";

/** What the hub needs of a media connection: closing it. */
export interface MediaConnection {
  close(): void;
}

export interface MediaHubOptions {
  /** A closed stream's segments stay this long (the viewer plays the tail), then it is forgotten. */
  lingerMs?: number;
  segmentTargetMs?: number;
  /** Streams at most (each holds a few segments in memory). */
  maxStreams?: number;
  /** Observes every published segment (the bench's delay measure). */
  onSegment?: (key: StreamKey, segment: Segment) => void;
}

interface Stream {
  key: StreamKey;
  info: StreamInfo;
  segmenter: Segmenter;
  conn: MediaConnection | null;
  recorders: Set<Mp4Recorder>;
  lingerTimer?: ReturnType<typeof setTimeout>;
}

interface Expectation {
  purpose: string;
  waiters: ((info: StreamInfo | null) => void)[];
}

const id = (k: StreamKey) => `${k.sim}/${k.channel}/${k.purpose}`;
const lane = (sim: string, channel: number) => `${sim}/${channel}`;

export class MediaHubImpl implements MediaHub {
  #streams = new Map<string, Stream>();
  /** Purposes announced per (sim, channel), oldest first. */
  #expected = new Map<string, Expectation[]>();
  /** Recorders waiting for their stream to start. */
  #pendingRecorders = new Map<string, Set<Mp4Recorder>>();
  readonly #lingerMs: number;
  readonly #maxStreams: number;

  constructor(private readonly options: MediaHubOptions = {}) {
    this.#lingerMs = options.lingerMs ?? 30_000;
    this.#maxStreams = options.maxStreams ?? 2000;
  }

  expect(key: StreamKey, timeoutMs: number): Promise<StreamInfo | null> {
    const running = this.#streams.get(id(key));
    if (running?.info.connected && running.segmenter.init) {
      return Promise.resolve(this.#info(running));
    }
    return new Promise((resolve) => {
      const list = this.#expected.get(lane(key.sim, key.channel)) ?? [];
      let e = list.find((x) => x.purpose === key.purpose);
      if (!e) {
        e = { purpose: key.purpose, waiters: [] };
        list.push(e);
        this.#expected.set(lane(key.sim, key.channel), list);
      }
      const waiter = (info: StreamInfo | null) => {
        clearTimeout(timer);
        resolve(info);
      };
      e.waiters.push(waiter);
      const timer = setTimeout(() => {
        this.#dropWaiter(key, waiter);
        resolve(null);
      }, timeoutMs);
    });
  }

  #dropWaiter(key: StreamKey, waiter: (info: StreamInfo | null) => void): void {
    const list = this.#expected.get(lane(key.sim, key.channel));
    const e = list?.find((x) => x.purpose === key.purpose);
    if (!list || !e) return;
    e.waiters = e.waiters.filter((w) => w !== waiter);
    // An expectation nobody waits for and no connection took is withdrawn.
    if (!e.waiters.length && !this.#streams.has(id(key))) this.#removeExpectation(key);
  }

  #removeExpectation(key: StreamKey): void {
    const k = lane(key.sim, key.channel);
    const list = (this.#expected.get(k) ?? []).filter((x) => x.purpose !== key.purpose);
    if (list.length) this.#expected.set(k, list);
    else this.#expected.delete(k);
  }

  playlist(key: StreamKey): string | null {
    const s = this.#streams.get(id(key));
    if (!s) return null;
    s.info.lastViewedAt = Date.now();
    return s.segmenter.playlist(!s.info.connected);
  }

  segment(key: StreamKey, name: string): Uint8Array | null {
    return this.#streams.get(id(key))?.segmenter.segment(name) ?? null;
  }

  info(key: StreamKey): StreamInfo | null {
    const s = this.#streams.get(id(key));
    return s ? this.#info(s) : null;
  }

  streams(): StreamInfo[] {
    return [...this.#streams.values()].map((s) => this.#info(s));
  }

  close(key: StreamKey): void {
    const s = this.#streams.get(id(key));
    this.#removeExpectation(key);
    if (!s) return;
    this.#forget(s);
    s.conn?.close();
  }

  record(key: StreamKey, path: string, maxMs: number): Promise<number | null> {
    const recorder = new Mp4Recorder(path);
    const s = this.#streams.get(id(key));
    if (s) {
      for (const seg of s.segmenter.segments) recorder.add(seg);
      if (!s.info.connected) return recorder.end();
      s.recorders.add(recorder);
    } else {
      const set = this.#pendingRecorders.get(id(key)) ?? new Set();
      set.add(recorder);
      this.#pendingRecorders.set(id(key), set);
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.#endRecorder(key, recorder), maxMs);
      recorder.ended = (size) => {
        clearTimeout(timer);
        resolve(size);
      };
    });
  }

  #endRecorder(key: StreamKey, recorder: Mp4Recorder): void {
    this.#streams.get(id(key))?.recorders.delete(recorder);
    this.#pendingRecorders.get(id(key))?.delete(recorder);
    recorder.end().then((size) => recorder.ended?.(size), () => recorder.ended?.(null));
  }

  /**
   * The stream a connection's frames of (sim, channel) go to: the oldest announced purpose not
   * yet connected, else the live stream of that channel when it exists (a terminal reconnecting
   * after a drop). Null when nothing was announced: JT/T 1078 has no credentials, so only media
   * the signalling asked for is taken (no spoofed or unsolicited streams). A stream of that key
   * on another connection is replaced.
   */
  open(conn: MediaConnection, sim: string, channel: number): Stream | null {
    const announced = (this.#expected.get(lane(sim, channel)) ?? []).find((e) => {
      const s = this.#streams.get(id({ sim, channel, purpose: e.purpose }));
      return !s || !s.info.connected;
    });
    const live = { sim, channel, purpose: LIVE_PURPOSE };
    if (!announced && !this.#streams.has(id(live))) return null;
    const key = announced ? { sim, channel, purpose: announced.purpose } : live;
    if (!this.#streams.has(id(key)) && this.#streams.size >= this.#maxStreams) return null;
    const old = this.#streams.get(id(key));
    if (old) {
      this.#forget(old);
      if (old.conn !== conn) old.conn?.close();
    }
    const now = Date.now();
    const stream: Stream = {
      key,
      info: {
        key,
        video: null,
        audio: null,
        startedAt: now,
        lastPacketAt: now,
        lastViewedAt: now,
        bytesIn: 0,
        connected: true,
      },
      segmenter: new Segmenter({
        targetMs: this.options.segmentTargetMs ?? 1000,
        ...(key.purpose === LIVE_PURPOSE
          ? { keepSamples: false }
          : { keep: 100_000, window: 100_000, keepSamples: true, maxBytes: 48 * 1024 * 1024 }),
        onSegment: (seg) => this.#published(stream, seg),
      }),
      conn,
      recorders: this.#pendingRecorders.get(id(key)) ?? new Set(),
    };
    this.#pendingRecorders.delete(id(key));
    this.#streams.set(id(key), stream);
    return stream;
  }

  /** A frame of an open stream. */
  feed(stream: Stream, frame: MediaFrame, arrivedAt: number): void {
    stream.info.lastPacketAt = arrivedAt;
    stream.info.bytesIn += frame.data.length;
    stream.segmenter.push(frame, arrivedAt);
  }

  /** The connection of these streams closed: the tail becomes a segment, recorders finish. */
  disconnected(streams: Iterable<Stream>): void {
    for (const s of streams) {
      if (this.#streams.get(id(s.key)) !== s) continue;
      s.segmenter.flush();
      s.info.connected = false;
      s.conn = null;
      for (const r of s.recorders) this.#endRecorder(s.key, r);
      s.lingerTimer = setTimeout(() => {
        if (this.#streams.get(id(s.key)) === s) this.#forget(s);
      }, this.#lingerMs);
    }
  }

  #published(stream: Stream, segment: Segment): void {
    for (const r of stream.recorders) r.add(segment);
    this.options.onSegment?.(stream.key, segment);
    if (segment.sequence !== 0) return;
    const list = this.#expected.get(lane(stream.key.sim, stream.key.channel));
    const e = list?.find((x) => x.purpose === stream.key.purpose);
    if (!e) return;
    this.#removeExpectation(stream.key);
    const info = this.#info(stream);
    for (const w of e.waiters) w(info);
  }

  #forget(s: Stream): void {
    clearTimeout(s.lingerTimer);
    this.#streams.delete(id(s.key));
    for (const r of s.recorders) this.#endRecorder(s.key, r);
    s.recorders.clear();
  }

  #info(s: Stream): StreamInfo {
    const seg = s.segmenter;
    return {
      ...s.info,
      key: { ...s.key },
      video: seg.video,
      audio: seg.audio,
      ...(seg.audioNote ? { audioNote: seg.audioNote } : {}),
    };
  }

  /** Stops linger timers (process shutdown, tests). */
  dispose(): void {
    for (const s of this.#streams.values()) this.#forget(s);
  }
}

export type { Stream as HubStream };
