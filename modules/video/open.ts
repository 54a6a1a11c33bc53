/**
 * What a public link's page (/openLive, /openHistory) does: start the link's stream (the live
 * channel, or the shared recording as the link's own playback) and answer its HLS path.
 */
import type { LiveStartAnswer } from "./model.ts";
import { openUrl } from "./paths.ts";
import { sharePurpose } from "./hls.ts";
import type { LiveVideo } from "./live.ts";
import type { VideoShares } from "./shares.ts";

export interface OpenStartAnswer extends LiveStartAnswer {
  kind: "live" | "history";
  imei: string;
  channel: number;
  expiresAt: string;
}

export class OpenVideo {
  constructor(private readonly shares: VideoShares, private readonly live: LiveVideo) {}

  async start(token: string): Promise<OpenStartAnswer> {
    const s = await this.shares.open(token);
    const started = s.kind === "live"
      ? await this.live.startStream(s.imei, s.channel, "sub")
      : await this.live.playStream(s.imei, s.channel, s.startTime!, s.endTime!, sharePurpose(s));
    return {
      ...started,
      url: openUrl(token),
      kind: s.kind,
      imei: s.imei,
      channel: s.channel,
      expiresAt: new Date(s.expiresAt).toISOString(),
    };
  }
}
