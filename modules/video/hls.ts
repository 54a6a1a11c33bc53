/**
 * Serving a stream's HLS (playlist, init segment, media segments) from the media hub: to a
 * logged-in viewer with the video need who sees the device, or to whoever holds a share link's
 * token. A name that is not a playlist or segment, or a stream that is gone, is not found.
 */
import { BizError } from "../../lib/errors.ts";
import type { Session } from "../../lib/http/env.ts";
import { keyOf, LIVE, PLAYBACK, PLAYLIST } from "./paths.ts";
import type { VisibleDevice } from "./settings.ts";
import type { VideoShares } from "./shares.ts";
import type { ShareRecord } from "./store.ts";
import type { MediaHub, StreamKey } from "./types.ts";

const NAME = /^[A-Za-z0-9_-]{1,64}\.(m3u8|mp4|m4s|ts)$/;
const PURPOSE = /^(live|playback|sh[0-9a-f]{32})$/;

export interface HlsFile {
  body: string | Uint8Array;
  type: string;
}

/** Cluster mode: a stream held by another instance (modules/video/cluster_media.ts). */
export interface RemoteHls {
  remoteFile(key: StreamKey, name: string): Promise<HlsFile | null>;
}

export class HlsServing {
  constructor(
    private readonly hub: MediaHub,
    private readonly devices: VisibleDevice,
    private readonly shares: VideoShares,
    private readonly remote?: RemoteHls,
  ) {}

  async forViewer(
    session: Session,
    imei: string,
    channel: number,
    purpose: string,
    name: string,
  ): Promise<HlsFile> {
    if (!PURPOSE.test(purpose) || !Number.isInteger(channel)) throw notFound();
    await this.devices.visibleDevice(session, imei);
    return this.file(keyOf(imei, channel, purpose), name);
  }

  async forShare(token: string, name: string): Promise<HlsFile> {
    const share = await this.shares.open(token);
    return this.file(shareKey(share), name);
  }

  private async file(key: StreamKey, name: string): Promise<HlsFile> {
    if (!NAME.test(name)) throw notFound();
    const here = this.localFile(key, name);
    if (here) return here;
    const there = await this.remote?.remoteFile(key, name);
    if (!there) throw notFound();
    return there;
  }

  private localFile(key: StreamKey, name: string): HlsFile | null {
    if (name === PLAYLIST) {
      const text = this.hub.playlist(key);
      if (text === null) return null;
      return { body: text, type: "application/vnd.apple.mpegurl" };
    }
    const bytes = this.hub.segment(key, name);
    if (!bytes) return null;
    return { body: bytes, type: name.endsWith(".ts") ? "video/mp2t" : "video/mp4" };
  }
}

/** The stream a share link plays: the channel's live stream, or its own playback. */
export function shareKey(share: ShareRecord): StreamKey {
  return keyOf(share.imei, share.channel, sharePurpose(share));
}

export function sharePurpose(share: ShareRecord): string {
  return share.kind === "live" ? LIVE : `sh${share.id.replaceAll("-", "")}`;
}

export { PLAYBACK };

function notFound(): BizError {
  return new BizError("videoFileNotFound", {}, null, 404);
}
