/**
 * Live video and history playback: the JT/T 1078 request goes out over the device's JT/T 808
 * connection (VideoLink), the media hub is told which stream to expect, and the answer is the
 * HLS playlist path once the first segment is ready (15 s at most). Streams nobody watched for
 * LIVE_IDLE_STOP_SECONDS are closed (0x9102 / 0x9202 stop).
 */
import { BizError } from "../../lib/errors.ts";
import type { Session } from "../../lib/http/env.ts";
import { log } from "../../lib/log.ts";
import type { LiveConnection } from "../gateway/types.ts";
import {
  type HistoryControlRequest,
  type HistoryFile,
  type HistoryListRequest,
  type HistoryPlayRequest,
  LIVE_IDLE_STOP_SECONDS,
  LIVE_START_TIMEOUT_SECONDS,
  type LiveStartAnswer,
  type StreamType,
} from "./model.ts";
import { hlsUrl, keyOf, LIVE, PLAYBACK } from "./paths.ts";
import type { VideoSettingsService, VisibleDevice } from "./settings.ts";
import type { VideoLink } from "./signalling.ts";
import type { MediaHub, StreamInfo, StreamKey } from "./types.ts";

const videoLog = log.area("video");

/** Where terminals send their media: this server's public host and JT/T 1078 port. */
/** The media address for a device's connection (here, or on another instance). */
export type MediaAddress = (conn: Pick<LiveConnection, "remote">) => { host: string; port: number };

/** 0x9202 control codes (JT/T 1078 table 21) and speeds (1x … 16x as 1 … 5). */
const CONTROL = { resume: 0, pause: 1, stop: 2, speed: 3, seek: 5 } as const;
const SPEED_CODE: Record<number, number> = { 1: 1, 2: 2, 4: 3, 8: 4, 16: 5 };

export interface LiveDeps {
  link: VideoLink;
  hub: MediaHub;
  devices: VisibleDevice;
  settings: VideoSettingsService;
  mediaAddress: MediaAddress;
  /** Milliseconds to wait for the media (LIVE_START_TIMEOUT_SECONDS; tests shorten it). */
  startTimeoutMs?: number;
}

export class LiveVideo {
  private readonly timeoutMs: number;
  private sweeper: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly d: LiveDeps) {
    this.timeoutMs = d.startTimeoutMs ?? LIVE_START_TIMEOUT_SECONDS * 1000;
  }

  /** POST live/start: counts a play, reuses a running stream; the default stream by settings. */
  async start(
    session: Session,
    imei: string,
    channel: number,
    stream?: StreamType,
  ): Promise<LiveStartAnswer> {
    await this.d.devices.visibleDevice(session, imei);
    await this.d.link.reach(imei);
    await this.d.settings.countPlay(session);
    const chosen = stream ?? (await this.d.settings.get(session)).defaultStream;
    return await this.startStream(imei, channel, chosen);
  }

  /** Live starts in flight by `imei/channel`: viewers starting the same channel share one. */
  private readonly starting = new Map<string, Promise<LiveStartAnswer>>();

  /** Starts (or reuses) a device channel's live stream, without a session (share links). */
  startStream(imei: string, channel: number, stream: StreamType): Promise<LiveStartAnswer> {
    const id = `${imei}/${channel}`;
    const pending = this.starting.get(id);
    if (pending) return pending;
    const started = this.openLive(imei, channel, stream).finally(() => this.starting.delete(id));
    this.starting.set(id, started);
    return started;
  }

  private async openLive(
    imei: string,
    channel: number,
    stream: StreamType,
  ): Promise<LiveStartAnswer> {
    const key = keyOf(imei, channel, LIVE);
    const running = this.d.hub.info(key);
    if (running?.connected) return answer(hlsUrl(imei, channel, LIVE), running);
    const conn = await this.d.link.reach(imei);
    const { host, port } = this.d.mediaAddress(conn);
    const ready = this.d.hub.expect(key, this.timeoutMs);
    await this.d.link.send(imei, { type: "live", host, port, channel, stream });
    const info = await ready;
    if (!info) {
      await this.closeLive(imei, channel);
      throw new BizError("videoResponseTimeout");
    }
    return answer(hlsUrl(imei, channel, LIVE), info);
  }

  /** POST live/stop. */
  async stop(session: Session, imei: string, channel: number): Promise<void> {
    await this.d.devices.visibleDevice(session, imei);
    await this.closeLive(imei, channel);
  }

  private async closeLive(imei: string, channel: number): Promise<void> {
    this.d.hub.close(keyOf(imei, channel, LIVE));
    await this.d.link.send(imei, { type: "liveClose", channel }).catch(() => {});
  }

  /** POST history/list (0x9205 → 0x1205). */
  async list(session: Session, req: HistoryListRequest): Promise<HistoryFile[]> {
    await this.d.devices.visibleDevice(session, req.imei);
    const [start, end] = range(req.startTime, req.endTime);
    const files = await this.d.link.resources(req.imei, req.channel, start, end, this.timeoutMs);
    if (!files) throw new BizError("videoResponseTimeout");
    return files
      .filter((f) => req.channel === 0 || f.channel === req.channel)
      .map((f): HistoryFile => {
        const startTime = new Date(f.start).toISOString();
        const endTime = new Date(f.end).toISOString();
        return {
          id: `${f.channel}-${startTime}-${endTime}`,
          channel: f.channel,
          startTime,
          endTime,
          size: f.size,
          alarmFlags: f.alarmFlags,
          stream: f.streamType === 2 ? "sub" : "main",
        };
      })
      .sort((a, b) => a.startTime.localeCompare(b.startTime));
  }

  /** POST history/play (0x9201): one playback per device channel at a time. */
  async play(session: Session, req: HistoryPlayRequest): Promise<LiveStartAnswer> {
    await this.d.devices.visibleDevice(session, req.imei);
    await this.d.link.reach(req.imei);
    await this.d.settings.countPlay(session);
    return await this.playStream(req.imei, req.channel, ...range(req.startTime, req.endTime));
  }

  /** Plays a recording back as `purpose` (PLAYBACK, or a download's own id). */
  async playStream(
    imei: string,
    channel: number,
    start: number,
    end: number,
    purpose = PLAYBACK,
  ): Promise<LiveStartAnswer> {
    const key = keyOf(imei, channel, purpose);
    // A new playback replaces the previous one of the channel.
    if (this.d.hub.info(key)) this.d.hub.close(key);
    const conn = await this.d.link.reach(imei);
    const { host, port } = this.d.mediaAddress(conn);
    const ready = this.d.hub.expect(key, this.timeoutMs);
    await this.d.link.send(imei, { type: "playback", host, port, channel, start, end });
    const info = await ready;
    if (!info) {
      this.d.hub.close(key);
      throw new BizError("videoResponseTimeout");
    }
    return answer(hlsUrl(imei, channel, purpose), info);
  }

  /** POST history/control (0x9202). */
  async control(session: Session, req: HistoryControlRequest): Promise<void> {
    await this.d.devices.visibleDevice(session, req.imei);
    const key = keyOf(req.imei, req.channel, PLAYBACK);
    if (!this.d.hub.info(key)) throw new BizError("videoPlaybackError");
    const seekTo = req.action === "seek" && req.seekTo ? Date.parse(req.seekTo) : 0;
    const speed = req.action === "speed" ? SPEED_CODE[req.speed ?? 1] ?? 1 : 0;
    await this.d.link.send(req.imei, {
      type: "playbackControl",
      channel: req.channel,
      control: CONTROL[req.action],
      speed,
      seekTo,
    });
    if (req.action === "stop") this.d.hub.close(key);
  }

  /** Every 10 s: live and playback streams whose playlist nobody fetched for 60 s stop. */
  startIdleSweep(): void {
    if (this.sweeper !== undefined) return;
    this.sweeper = setInterval(() => this.sweep(Date.now()), 10_000);
    Deno.unrefTimer(this.sweeper as unknown as number);
  }

  stopIdleSweep(): void {
    if (this.sweeper !== undefined) clearInterval(this.sweeper);
    this.sweeper = undefined;
  }

  /** Stops idle viewer streams (live, playback, share links; downloads have their recorder). */
  sweep(now: number): void {
    for (const s of this.d.hub.streams()) {
      if (s.key.purpose.startsWith("dl")) continue;
      const seen = Math.max(s.lastViewedAt, s.startedAt);
      if (now - seen < LIVE_IDLE_STOP_SECONDS * 1000) continue;
      this.stopIdle(s.key).catch((e) => videoLog.warn(`idle stop of ${s.key.sim} failed`, e));
    }
  }

  private async stopIdle(key: StreamKey): Promise<void> {
    this.d.hub.close(key);
    const imei = this.imeiOf(key);
    if (!imei) return;
    const request = key.purpose === LIVE ? { type: "liveClose" as const, channel: key.channel } : {
      type: "playbackControl" as const,
      channel: key.channel,
      control: CONTROL.stop,
      speed: 0,
      seekTo: 0,
    };
    await this.d.link.send(imei, request).catch(() => {});
  }

  /** Streams are keyed by SIM; the link knows which connected IMEI ends with it. */
  private imeiOf(key: StreamKey): string | null {
    return this.d.link.imeiOfSim(key.sim);
  }
}

function answer(url: string, info: StreamInfo): LiveStartAnswer {
  const a: LiveStartAnswer = { url, codec: info.video };
  if (info.audioNote) a.audioNote = info.audioNote;
  return a;
}

/** ISO start and end → epoch ms, end after start. */
export function range(startTime: string, endTime: string): [number, number] {
  const start = Date.parse(startTime), end = Date.parse(endTime);
  if (!(end > start)) throw new BizError("videoRangeInvalid");
  return [start, end];
}
