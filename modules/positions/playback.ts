/**
 * A device's track for the playback page, with its rules: at most 31 days per query, the
 * start before the end, and only devices the caller sees.
 */
import { BizError } from "../../lib/errors.ts";
import type { Session } from "../../lib/http/env.ts";
import type { DeviceService } from "../devices/service.ts";
import type { PositionStore } from "./store.ts";

/** Spec: playback queries span at most 31 days. */
export const PLAYBACK_MAX_DAYS = 31;

export class Playback {
  constructor(
    private readonly store: PositionStore,
    private readonly devices: Pick<DeviceService, "visibleDevice">,
  ) {}

  /** Refuses a reversed or too long range, or a device the caller does not see. */
  private async check(session: Session, imei: string, from: number, to: number) {
    if (from > to) throw new BizError("startAfterEnd");
    if (to - from > PLAYBACK_MAX_DAYS * 86_400_000) {
      throw new BizError("playbackRangeTooLong", { days: PLAYBACK_MAX_DAYS });
    }
    await this.devices.visibleDevice(session, imei);
  }

  /** The points in time order. */
  async points(session: Session, imei: string, from: number, to: number) {
    await this.check(session, imei, from, to);
    return this.store.range(imei, from, to);
  }

  /** The points as ready JSON blocks (json.ts), for streaming. */
  async jsonParts(session: Session, imei: string, from: number, to: number) {
    await this.check(session, imei, from, to);
    return this.store.rangeJsonParts(imei, from, to);
  }
}
