/**
 * The video module as the gateway sees it (gateway/types.ts VideoDesk): general answers and
 * resource lists settle VideoLink's requests, alarm items and pictures go to EventMedia.
 */
import { log } from "../../lib/log.ts";
import type { CommandReply, LiveConnection, VideoDesk } from "../gateway/types.ts";
import type { VideoEvent } from "../gateway/protocols/types.ts";
import type { EventMedia } from "./event_media.ts";
import type { VideoLink } from "./signalling.ts";

const videoLog = log.area("video");

export class VideoGatewayDesk implements VideoDesk {
  constructor(private readonly link: VideoLink, private readonly media: EventMedia) {}

  onReply(conn: LiveConnection, reply: CommandReply): void {
    this.link.onAnswer(conn.imei, reply.commandRef, reply.success);
  }

  onVideo(conn: LiveConnection, event: VideoEvent): void {
    if (event.kind === "resources") {
      this.link.onResources(conn.imei, event.serial, event.files);
      return;
    }
    this.media.onEvent(conn, event).catch((e) =>
      videoLog.warn(`event media of ${conn.imei} (${event.kind})`, e)
    );
  }
}
