import { BizError } from "../../lib/errors.ts";
import type { Session } from "../../lib/http/env.ts";
import type { DeviceService } from "../devices/service.ts";
import type { MonitorStore, ShareLink } from "./store.ts";

export type { ShareLink };

/** Spec: a share link is valid for a whole number of hours from 1 to 720. */
export const SHARE_MIN_HOURS = 1;
export const SHARE_MAX_HOURS = 720;

export function validShareHours(hours: unknown): hours is number {
  return typeof hours === "number" && Number.isInteger(hours) && hours >= SHARE_MIN_HOURS &&
    hours <= SHARE_MAX_HOURS;
}

/** Public live-location links for one device. */
export class ShareService {
  constructor(
    private readonly store: MonitorStore,
    private readonly devices: DeviceService,
    /** False once the device's owner account has expired (a trial's devices end with it). */
    private readonly ownerActive: (imei: string) => Promise<boolean> = () => Promise.resolve(true),
  ) {}

  async create(
    session: Session,
    imei: string,
    hours: number,
    now = Date.now(),
  ): Promise<ShareLink> {
    if (!validShareHours(hours)) {
      throw new BizError("shareHoursInvalid", { min: SHARE_MIN_HOURS, max: SHARE_MAX_HOURS }, {
        field: "hours",
      });
    }
    await this.devices.visibleDevice(session, imei);
    const bytes = crypto.getRandomValues(new Uint8Array(18));
    const token = btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_");
    const link: ShareLink = {
      token,
      imei,
      createdBy: session.accountId,
      createdAt: now,
      expiresAt: now + hours * 3600_000,
    };
    await this.store.saveShare(link);
    return link;
  }

  async list(session: Session, imei: string): Promise<ShareLink[]> {
    await this.devices.visibleDevice(session, imei);
    return await this.store.sharesOf(imei);
  }

  async revoke(session: Session, token: string): Promise<void> {
    const link = await this.store.share(token);
    if (!link) throw new BizError("shareLinkNotFound");
    await this.devices.visibleDevice(session, link.imei);
    await this.store.deleteShare(link);
  }

  /** For the public page: the link if it is still valid, else the catalogue refusal. */
  async open(token: string, now = Date.now()): Promise<ShareLink> {
    const link = /^[\w-]{10,64}$/.test(token) ? await this.store.share(token) : null;
    if (!link) throw new BizError("shareLinkNotFound");
    if (now >= link.expiresAt || !await this.ownerActive(link.imei)) {
      throw new BizError("shareLinkExpired");
    }
    return link;
  }
}
