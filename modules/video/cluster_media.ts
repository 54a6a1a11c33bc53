/**
 * The media hub in cluster mode (issue 23). A terminal's JT/T 1078 connection reaches whichever
 * instance the balancer picks, and the hub keeps its HLS in memory there. So:
 *  - `expect` is announced to every instance (`tp.media.all.expect`): the one the connection
 *    lands on binds it to the purpose, records itself as the holder (MediaHolderStore) and says
 *    `ready` (`tp.media.all.ready`), which resolves the waiter wherever it asked;
 *  - an HLS playlist or segment not in this instance's hub is asked of the holder over
 *    `tp.media.<holder>` (request/reply; a segment is ~100-200 KB, under NATS's 1 MB);
 *  - the holder repeats `ready` for its connected streams every refresh, so `info` on any
 *    instance knows a stream held elsewhere (for a while: a holder that stops saying so is
 *    forgotten after REMOTE_INFO_TTL_MS);
 *  - `close` reaches every instance (`tp.media.all.close`);
 *  - `record` of a stream held elsewhere runs on the holder, which hands the MP4 over through
 *    the shared blob store.
 * Single mode never builds this: the local hub is used as it always was.
 */
import type { BlobStore } from "../../lib/blobs/types.ts";
import { type Cluster, SUBJECTS } from "../../lib/cluster/types.ts";
import { log } from "../../lib/log.ts";
import type { HlsFile } from "./hls.ts";
import type { MediaHolderStore } from "./store_media_holder.ts";
import { PLAYLIST } from "./paths.ts";
import type { MediaHub, StreamInfo, StreamKey } from "./types.ts";
import { runSignal, type SignalCall, type SignalTarget } from "./signal_relay.ts";

const mediaLog = log.area("video");
const ALL = `${SUBJECTS.media}.all`;
const enc = new TextEncoder(), dec = new TextDecoder();
const id = (k: StreamKey) => `${k.sim}/${k.channel}/${k.purpose}`;

/** A stream another instance held and stopped announcing is forgotten after this. */
export const REMOTE_INFO_TTL_MS = 25_000;

/** Answer tags of a forwarded HLS request (first byte). */
const MISSING = 0, PLAYLIST_TEXT = 1, SEGMENT_BYTES = 2;

type MediaRequest =
  | { op: "file"; key: StreamKey; name: string }
  | { op: "signal"; call: SignalCall }
  | { op: "record"; key: StreamKey; maxMs: number; blob: string };

export interface ClusterMediaDeps {
  /** This instance's hub (the JT/T 1078 listener feeds it). */
  local: MediaHub;
  cluster: Pick<Cluster, "instanceId" | "link">;
  holders: MediaHolderStore;
  /** Where a recording of a stream held here is handed to the instance that asked. */
  blobs: BlobStore;
  /** A folder for this instance's working files (recordings before they are handed over). */
  workDir: string;
  /** Holder records of connected streams are refreshed this often. */
  refreshMs?: number;
  /** A forwarded playlist/segment answer must come within this. */
  fileTimeoutMs?: number;
}

export class ClusterMediaHub implements MediaHub {
  readonly #waiting = new Map<string, Set<(info: StreamInfo | null) => void>>();
  /** Streams other instances hold, as last announced. */
  readonly #remote = new Map<string, { info: StreamInfo; at: number }>();
  readonly #stops: (() => void)[] = [];
  readonly #refresher: ReturnType<typeof setInterval>;
  #signals: SignalTarget | null = null;

  constructor(private readonly d: ClusterMediaDeps) {
    const { link, instanceId } = d.cluster;
    this.#stops.push(
      // An instance's own expect and close took effect when made: its echo is skipped (a late
      // echo of a close would withdraw the expectation made right after it).
      link.subscribe(`${ALL}.expect`, (data) => {
        const { key, timeoutMs, from } = parse<{ key: StreamKey; timeoutMs: number; from: string }>(
          data,
        );
        if (from !== instanceId) this.#onExpect(key, timeoutMs);
      }),
      link.subscribe(`${ALL}.ready`, (data) => this.#onReady(parse(data))),
      link.subscribe(`${ALL}.close`, (data) => {
        const { key, from } = parse<{ key: StreamKey; from: string }>(data);
        if (from === instanceId) return;
        this.#remote.delete(id(key));
        d.local.close(key);
      }),
      link.reply(`${SUBJECTS.media}.${instanceId}`, (data) => this.#answer(parse(data))),
    );
    this.#refresher = setInterval(() => this.#refresh(), d.refreshMs ?? 10_000);
    Deno.unrefTimer(this.#refresher);
  }

  expect(key: StreamKey, timeoutMs: number): Promise<StreamInfo | null> {
    return new Promise((resolve) => {
      const waiters = this.#waiting.get(id(key)) ?? new Set();
      this.#waiting.set(id(key), waiters);
      const done = (info: StreamInfo | null) => {
        clearTimeout(timer);
        waiters.delete(done);
        if (!waiters.size && this.#waiting.get(id(key)) === waiters) this.#waiting.delete(id(key));
        resolve(info);
      };
      const timer = setTimeout(() => done(null), timeoutMs);
      waiters.add(done);
      // Here at once: the command goes to the terminal next, and its connection may land here
      // before our own message came back through NATS (it would be taken for live video).
      this.#onExpect(key, timeoutMs);
      const from = this.d.cluster.instanceId;
      this.d.cluster.link.publish(`${ALL}.expect`, json({ key, timeoutMs, from }));
    });
  }

  /** Every instance (this one too) waits for the connection; the one it reaches says so. */
  #onExpect(key: StreamKey, timeoutMs: number): void {
    this.d.local.expect(key, timeoutMs).then(async (info) => {
      if (!info) return;
      await this.d.holders.hold(key, this.d.cluster.instanceId)
        .catch((e) => mediaLog.warn(`media holder of ${id(key)} not recorded`, e));
      this.#announce(key, info);
    });
  }

  #announce(key: StreamKey, info: StreamInfo): void {
    const from = this.d.cluster.instanceId;
    this.d.cluster.link.publish(`${ALL}.ready`, json({ key, info, from }));
  }

  #onReady({ key, info, from }: { key: StreamKey; info: StreamInfo; from: string }): void {
    if (from !== this.d.cluster.instanceId) this.#remote.set(id(key), { info, at: Date.now() });
    for (const done of [...(this.#waiting.get(id(key)) ?? [])]) done(info);
  }

  /** Keeps the holder records and the other instances' view of our streams fresh. */
  async #refresh(): Promise<void> {
    const now = Date.now();
    for (const [k, r] of this.#remote) if (now - r.at > REMOTE_INFO_TTL_MS) this.#remote.delete(k);
    for (const s of this.d.local.streams()) {
      if (!s.connected || !s.video) continue;
      await this.d.holders.hold(s.key, this.d.cluster.instanceId).catch(() => {});
      this.#announce(s.key, s);
    }
  }

  playlist(key: StreamKey): string | null {
    return this.d.local.playlist(key);
  }

  segment(key: StreamKey, name: string): Uint8Array | null {
    return this.d.local.segment(key, name);
  }

  /** This instance's stream, else one another instance announced recently. */
  info(key: StreamKey): StreamInfo | null {
    const here = this.d.local.info(key);
    if (here) return here;
    const there = this.#remote.get(id(key));
    if (!there || Date.now() - there.at > REMOTE_INFO_TTL_MS) return null;
    return there.info;
  }

  streams(): StreamInfo[] {
    return this.d.local.streams();
  }

  close(key: StreamKey): void {
    this.#remote.delete(id(key));
    this.d.local.close(key);
    this.d.cluster.link.publish(`${ALL}.close`, json({ key, from: this.d.cluster.instanceId }));
  }

  /** Records here when the stream is here (or not held anywhere yet), else on its holder. */
  async record(key: StreamKey, path: string, maxMs: number): Promise<number | null> {
    const holder = this.d.local.info(key) ? null : await this.d.holders.holder(key);
    if (!holder || holder === this.d.cluster.instanceId) {
      return await this.d.local.record(key, path, maxMs);
    }
    const blob = `video/handover/${crypto.randomUUID().replaceAll("-", "")}.mp4`;
    const answer = await this.d.cluster.link.request(
      `${SUBJECTS.media}.${holder}`,
      json({ op: "record", key, maxMs, blob } satisfies MediaRequest),
      maxMs + 60_000,
    );
    const { size } = parse<{ size: number | null }>(answer);
    if (!size) return null;
    const stored = await this.d.blobs.get(blob);
    if (!stored) return null;
    await Deno.writeFile(path, stored.stream);
    await this.d.blobs.delete(blob);
    return size;
  }

  /** A playlist or segment of a stream another instance holds, or null. */
  async remoteFile(key: StreamKey, name: string): Promise<HlsFile | null> {
    const holder = await this.d.holders.holder(key);
    if (!holder || holder === this.d.cluster.instanceId) return null;
    let answer: Uint8Array;
    try {
      answer = await this.d.cluster.link.request(
        `${SUBJECTS.media}.${holder}`,
        json({ op: "file", key, name } satisfies MediaRequest),
        this.d.fileTimeoutMs ?? 5_000,
      );
    } catch (e) {
      mediaLog.debug(`media ${id(key)}/${name} from ${holder}: ${e}`);
      return null;
    }
    // A plain view (NATS hands a Buffer): what the local hub would answer.
    const body = new Uint8Array(answer.buffer, answer.byteOffset + 1, answer.byteLength - 1);
    if (answer[0] === PLAYLIST_TEXT) {
      return { body: dec.decode(body), type: "application/vnd.apple.mpegurl" };
    }
    if (answer[0] === SEGMENT_BYTES) {
      return { body, type: name.endsWith(".ts") ? "video/mp2t" : "video/mp4" };
    }
    return null;
  }

  /** Runs JT/T 1078 signalling other instances forward to terminals connected here. */
  serveSignals(target: SignalTarget): void {
    this.#signals = target;
  }

  /** The holder's side of a forwarded request. */
  async #answer(req: MediaRequest): Promise<Uint8Array> {
    if (req.op === "signal") {
      if (!this.#signals) throw new Error("no video signalling here");
      return await runSignal(this.#signals, req.call);
    }
    if (req.op === "record") {
      const path = `${this.d.workDir}/${req.blob.split("/").pop()}`;
      await Deno.mkdir(this.d.workDir, { recursive: true });
      const size = await this.d.local.record(req.key, path, req.maxMs);
      if (size) await this.d.blobs.putFile(req.blob, path, { type: "video/mp4" });
      else await Deno.remove(path).catch(() => {});
      return json({ size });
    }
    if (req.name === PLAYLIST) {
      const text = this.d.local.playlist(req.key);
      return text === null ? Uint8Array.of(MISSING) : tagged(PLAYLIST_TEXT, enc.encode(text));
    }
    const bytes = this.d.local.segment(req.key, req.name);
    return bytes ? tagged(SEGMENT_BYTES, bytes) : Uint8Array.of(MISSING);
  }

  dispose(): void {
    clearInterval(this.#refresher);
    for (const stop of this.#stops) stop();
    for (const waiters of this.#waiting.values()) for (const done of [...waiters]) done(null);
  }
}

function tagged(tag: number, body: Uint8Array): Uint8Array {
  const out = new Uint8Array(body.length + 1);
  out[0] = tag;
  out.set(body, 1);
  return out;
}

function json(value: unknown): Uint8Array {
  return enc.encode(JSON.stringify(value));
}

function parse<T>(data: Uint8Array): T {
  return JSON.parse(dec.decode(data)) as T;
}
