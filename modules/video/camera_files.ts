/**
 * The position pipeline's "event media" stage: stored fixes of GT06-family dash cams that name
 * an event's video files (the `eventFiles` attribute of a 0x95 packet, comma-separated) become
 * event media records.
 */
import type { PositionsCommitted } from "../gateway/events.ts";
import type { EventMedia } from "./event_media.ts";
import { log } from "../../lib/log.ts";

const videoLog = log.area("video");
/** Names one event may list (a JC400 names two or three: one per camera). */
const MAX_FILES = 16;

export function cameraFilesHandler(
  events: Pick<EventMedia, "onCameraFiles">,
): (e: PositionsCommitted) => Promise<void> {
  return async (e) => {
    for (const p of e.points) {
      const names = p.attributes.eventFiles;
      if (typeof names !== "string" || !names) continue;
      const files = names.split(",").map((f) => f.trim()).filter(Boolean).slice(0, MAX_FILES);
      const code = typeof p.attributes.event === "number" ? p.attributes.event : 0;
      await events.onCameraFiles(e.imei, p.time, code, files).catch((err) =>
        videoLog.warn(`camera event files of ${e.imei}`, err)
      );
    }
  };
}
