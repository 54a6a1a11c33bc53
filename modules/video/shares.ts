/**
 * Public video links (/openLive, /openHistory) for one device channel: a random token in the
 * URL, valid for the hours chosen (like the monitor's share links), revocable by the subtree
 * that made it. A revoked or expired link answers "live link expired".
 */
import { BizError } from "../../lib/errors.ts";
import type { Session } from "../../lib/http/env.ts";
import type { VideoShareRequest, VideoShareRow } from "./model.ts";
import type { VisibleDevice } from "./settings.ts";
import { range } from "./live.ts";
import type { ShareRecord, VideoStore } from "./store.ts";

/** Longest validity of a link (hours): 7 days, like the monitor's share links' longest choice. */
export const SHARE_MAX_HOURS = 24 * 7;

export class VideoShares {
  constructor(
    private readonly store: VideoStore,
    private readonly devices: VisibleDevice,
  ) {}

  async create(session: Session, req: VideoShareRequest): Promise<VideoShareRow> {
    await this.devices.visibleDevice(session, req.imei);
    const now = Date.now();
    const record: ShareRecord = {
      id: crypto.randomUUID(),
      token: randomToken(),
      ownerId: session.cAccountId,
      imei: req.imei,
      channel: req.channel,
      kind: req.kind,
      createdAt: now,
      expiresAt: now + req.validHours * 3_600_000,
      revoked: false,
    };
    if (req.kind === "history") {
      [record.startTime, record.endTime] = range(req.startTime ?? "", req.endTime ?? "");
    }
    await this.store.addShare(record);
    return row(record);
  }

  async list(session: Session): Promise<VideoShareRow[]> {
    const now = Date.now();
    return (await this.store.sharesOf(session.cAccountId))
      .filter((r) => !r.revoked && r.expiresAt > now)
      .sort((a, b) => b.createdAt - a.createdAt)
      .map(row);
  }

  /** An id of another subtree answers like an unknown one. */
  async revoke(session: Session, id: string): Promise<void> {
    const r = await this.store.share(id);
    if (!r || r.ownerId !== session.cAccountId || r.revoked) throw new BizError("notFound");
    await this.store.saveShare({ ...r, revoked: true });
  }

  /** The link behind a token, or "live link expired". */
  async open(token: string): Promise<ShareRecord> {
    const r = /^[A-Za-z0-9_-]{16,64}$/.test(token) ? await this.store.shareByToken(token) : null;
    if (!r || r.revoked || r.expiresAt <= Date.now()) throw new BizError("videoLinkExpired");
    return r;
  }
}

function row(r: ShareRecord): VideoShareRow {
  return {
    id: r.id,
    imei: r.imei,
    channel: r.channel,
    kind: r.kind,
    url: `/${r.kind === "live" ? "openLive" : "openHistory"}?token=${r.token}`,
    createdAt: new Date(r.createdAt).toISOString(),
    expiresAt: new Date(r.expiresAt).toISOString(),
  };
}

function randomToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_");
}
