/**
 * JT/T 1078 signalling over a device's JT/T 808 connection: sends the video requests
 * (gateway/protocols/types.ts VideoRequest) through the gateway's live connection and matches
 * the terminal's answers by header serial (0x0001 general answers, 0x1205 resource lists).
 */
import { BizError } from "../../lib/errors.ts";
import type { Connections, LiveConnection } from "../gateway/types.ts";
import type { VideoRequest, VideoResource } from "../gateway/protocols/types.ts";
import { simOf } from "./paths.ts";
import type { RemoteTerminal, SignalRelay, SignalTarget } from "./signal_relay.ts";

/** Requests whose answers are recognised (the latest sent). */
const MAX_REMEMBERED = 4096;
/** Serials of video requests start here, away from the command module's small refs. */
const FIRST_REF = 0x7000_0000;

interface Waiter<T> {
  resolve: (v: T) => void;
  timer: ReturnType<typeof setTimeout>;
}

export class VideoLink {
  private ref = FIRST_REF;
  /** `${imei}:${serial}` → whoever waits for that request's general answer. */
  private readonly answers = new Map<string, Waiter<boolean>>();
  private readonly lists = new Map<string, Waiter<VideoResource[]>>();

  /** SIM → IMEI of the devices video was asked of (the hub keys streams by SIM). */
  private readonly sims = new Map<string, string>();

  /** Cluster mode: reaches terminals connected to other instances. */
  constructor(private readonly connections: Connections, private readonly relay?: SignalRelay) {}

  /** The calls run here only (what a relayed call from another instance runs). */
  readonly local: SignalTarget = {
    connection: (imei) => this.connection(imei),
    send: (imei, request) => this.sendHere(imei, request),
    request: (imei, request, timeoutMs) => this.requestHere(imei, request, timeoutMs),
    resources: (imei, channel, start, end, timeoutMs) =>
      this.resourcesHere(imei, channel, start, end, timeoutMs),
  };

  imeiOfSim(sim: string): string | null {
    return this.sims.get(sim) ?? null;
  }

  /** The device's JT/T 808 connection, or the catalogue refusal (offline, not a video terminal). */
  connection(imei: string): LiveConnection {
    const conn = this.connections.get(imei);
    if (!conn) throw new BizError("deviceOffline");
    if (conn.protocol !== "jt808") throw new BizError("videoNotSupported");
    return conn;
  }

  /**
   * The device's connection here, or (cluster mode) on the instance holding it; the catalogue
   * refusal when neither (offline) or not a video terminal.
   */
  async reach(imei: string): Promise<LiveConnection | RemoteTerminal> {
    if (!this.relay || this.connections.get(imei)) return this.connection(imei);
    const remote = await this.relay.locate(imei);
    if (!remote) throw new BizError("deviceOffline");
    if (remote.protocol !== "jt808") throw new BizError("videoNotSupported");
    return remote;
  }

  /** The holder of a device connected elsewhere (cluster mode), else null: send from here. */
  private async elsewhere(imei: string): Promise<string | null> {
    if (!this.relay || this.connections.get(imei)) return null;
    const t = await this.reach(imei);
    return "holder" in t ? t.holder : null;
  }

  /** Sends a request; resolves with its header serial. */
  async send(imei: string, request: VideoRequest): Promise<number> {
    const holder = await this.elsewhere(imei);
    if (!holder) return await this.sendHere(imei, request);
    this.sims.set(simOf(imei), imei);
    return await this.relay!.call<number>(holder, { signal: "send", imei, request });
  }

  private async sendHere(imei: string, request: VideoRequest): Promise<number> {
    const conn = this.connection(imei);
    this.sims.set(simOf(imei), imei);
    const ref = this.ref = this.ref >= 0x7fff_fff0 ? FIRST_REF : this.ref + 1;
    this.remember(`${imei}:${ref & 0xffff}`, request.type === "queryResources" ? "list" : "answer");
    try {
      await conn.send({ content: "", ref, native: { kind: "jt808Video", request } });
    } catch {
      throw new BizError("deviceOffline");
    }
    return ref & 0xffff;
  }

  /** Sends and waits for the 0x0001 answer: true accepted, false refused, null no answer. */
  async request(imei: string, request: VideoRequest, timeoutMs: number): Promise<boolean | null> {
    const holder = await this.elsewhere(imei);
    if (holder) {
      return await this.relay!.call(holder, { signal: "request", imei, request, timeoutMs });
    }
    return await this.requestHere(imei, request, timeoutMs);
  }

  private async requestHere(
    imei: string,
    request: VideoRequest,
    timeoutMs: number,
  ): Promise<boolean | null> {
    const serial = await this.sendHere(imei, request);
    return await this.wait(this.answers, `${imei}:${serial}`, timeoutMs);
  }

  /** 0x9205 → 0x1205; null when the terminal did not answer in time. */
  async resources(
    imei: string,
    channel: number,
    start: number,
    end: number,
    timeoutMs: number,
  ): Promise<VideoResource[] | null> {
    const holder = await this.elsewhere(imei);
    if (holder) {
      const call = { signal: "resources" as const, imei, channel, start, end, timeoutMs };
      return await this.relay!.call(holder, call);
    }
    return await this.resourcesHere(imei, channel, start, end, timeoutMs);
  }

  private async resourcesHere(
    imei: string,
    channel: number,
    start: number,
    end: number,
    timeoutMs: number,
  ): Promise<VideoResource[] | null> {
    // An answer quicker than send() resolving is kept in `early` for wait() to find.
    const serial = await this.sendHere(imei, { type: "queryResources", channel, start, end });
    return await this.wait(this.lists, `${imei}:${serial}`, timeoutMs);
  }

  private wait<T>(map: Map<string, Waiter<T>>, key: string, timeoutMs: number): Promise<T | null> {
    const early = this.early.get(key);
    if (early !== undefined) {
      this.early.delete(key);
      return Promise.resolve(early as T);
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        map.delete(key);
        resolve(null);
      }, timeoutMs);
      map.set(key, { resolve, timer });
    });
  }

  /** Answers that arrived before their waiter registered (a fast terminal), briefly kept. */
  private readonly early = new Map<string, unknown>();

  private settle<T>(map: Map<string, Waiter<T>>, key: string, value: T): void {
    const w = map.get(key);
    if (!w) {
      this.early.set(key, value);
      setTimeout(() => this.early.delete(key), 5_000);
      return;
    }
    map.delete(key);
    clearTimeout(w.timer);
    w.resolve(value);
  }

  /**
   * Requests sent lately (`imei:serial` → what answers them, oldest first): only their answers
   * are ours. A 0x9205 is answered by its 0x1205 (a 0x0001 some terminals send too is ignored).
   */
  private readonly sent = new Map<string, "answer" | "list">();

  private remember(key: string, answeredBy: "answer" | "list"): void {
    this.sent.set(key, answeredBy);
    if (this.sent.size > MAX_REMEMBERED) this.sent.delete(this.sent.keys().next().value!);
  }

  /** A general answer (0x0001) of the device: settles the request it names, if it is ours. */
  onAnswer(imei: string, serial: number | undefined, success: boolean | undefined): void {
    if (serial === undefined) return;
    const key = `${imei}:${serial}`;
    if (this.sent.get(key) === "answer") {
      this.sent.delete(key);
      this.settle(this.answers, key, success !== false);
    }
  }

  onResources(imei: string, serial: number, files: VideoResource[]): void {
    const key = `${imei}:${serial}`;
    if (this.sent.get(key) !== "list") return;
    this.sent.delete(key);
    this.settle(this.lists, key, files);
  }
}
