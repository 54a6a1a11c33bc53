/**
 * Each account's video settings (default stream, live default duration, daily play limit) and
 * the daily play quota they set, plus camera nicknames per device channel.
 */
import { BizError } from "../../lib/errors.ts";
import type { Session } from "../../lib/http/env.ts";
import type { CameraNickname, VideoSettings } from "./model.ts";
import type { VideoStore } from "./store.ts";

/** Defaults (docs/decisions.md): sub stream, 5 minutes of live per view, 100 plays a day. */
export const DEFAULT_VIDEO_SETTINGS: VideoSettings = {
  defaultStream: "sub",
  liveDefaultMinutes: 5,
  playLimitPerDay: 100,
};

export interface VisibleDevice {
  visibleDevice(session: Session, imei: string): Promise<{ imei: string; deviceName: string }>;
}

export class VideoSettingsService {
  constructor(
    private readonly store: VideoStore,
    private readonly devices: VisibleDevice,
  ) {}

  async get(session: Session): Promise<VideoSettings> {
    return { ...DEFAULT_VIDEO_SETTINGS, ...await this.store.settings(session.accountId) };
  }

  async set(session: Session, s: VideoSettings): Promise<VideoSettings> {
    await this.store.setSettings(session.accountId, s);
    return s;
  }

  /** Counts a live or history play of the caller today (UTC), or refuses over the limit. */
  async countPlay(session: Session): Promise<void> {
    const { playLimitPerDay } = await this.get(session);
    const day = new Date().toISOString().slice(0, 10);
    if (!await this.store.countPlay(session.accountId, day, playLimitPerDay)) {
      throw new BizError("videoPlayLimit", { max: playLimitPerDay });
    }
  }

  async cameras(session: Session, imei: string): Promise<CameraNickname[]> {
    await this.devices.visibleDevice(session, imei);
    return await this.store.cameras(imei);
  }

  async setCameras(
    session: Session,
    imei: string,
    list: CameraNickname[],
  ): Promise<CameraNickname[]> {
    await this.devices.visibleDevice(session, imei);
    const byChannel = new Map<number, CameraNickname>();
    for (const c of list) if (c.nickname.trim()) byChannel.set(c.channel, c);
    const clean = [...byChannel.values()].sort((a, b) => a.channel - b.channel);
    await this.store.setCameras(imei, clean);
    return clean;
  }
}
