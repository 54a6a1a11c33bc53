/**
 * Names the video area shares: the media hub's key of a device's stream, the HLS paths the API
 * answers, and where media files live under DATA_DIR.
 */
import type { StreamKey } from "./types.ts";

/** HLS of a logged-in viewer: `/v3/new/video/hls/<imei>/<channel>/<purpose>/<name>`. */
export const HLS_PREFIX = "/v3/new/video/hls";
/** HLS of a public share link: `/v3/new/video/open/<token>/hls/<name>`. */
export const OPEN_PREFIX = "/v3/new/video/open";
export const PLAYLIST = "index.m3u8";

/** Live streams are "live"; history playbacks "playback"; downloads "dl<id>". */
export const LIVE = "live";
export const PLAYBACK = "playback";

/**
 * The SIM a JT/T 1078 terminal puts in its stream packets, as the gateway's terminal id: the
 * phone number the JT/T 808 link matched to the end of the IMEI (12 digits, 2016 BCD[6]).
 */
export function simOf(imei: string): string {
  return imei.slice(-12).padStart(12, "0");
}

export function keyOf(imei: string, channel: number, purpose: string): StreamKey {
  return { sim: simOf(imei), channel, purpose };
}

export function hlsUrl(imei: string, channel: number, purpose: string): string {
  return `${HLS_PREFIX}/${imei}/${channel}/${purpose}/${PLAYLIST}`;
}

export function openUrl(token: string): string {
  return `${OPEN_PREFIX}/${token}/hls/${PLAYLIST}`;
}

/** DATA_DIR/video/downloads: recorded MP4 files of download tasks. */
export function downloadsDir(dataDir: string): string {
  return `${dataDir}/video/downloads`;
}

/** Blob key of a recorded download (DATA_DIR/video/downloads/<file> in single mode). */
export function downloadKey(file: string): string {
  return `video/downloads/${file}`;
}

/** Blob key of one event media file (DATA_DIR/video/events/<id>/<name> in single mode). */
export function eventFileKey(id: string, name: string): string {
  return `video/events/${id}/${name}`;
}

/** A stored file name: letters, digits, dot, dash and underscore only, at most 100. */
export function safeName(name: string): string {
  const clean = name.replace(/[^A-Za-z0-9._-]/g, "_").replace(/^\.+/, "_").slice(-100);
  return clean || "file";
}
