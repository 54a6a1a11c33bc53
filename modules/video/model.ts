/**
 * The video area's shared vocabulary (spec business §2 Video, §3, §4, §8, §9): limits, states and
 * the API's request/answer shapes. Used by the API (modules/video), the pages (islands/video) and
 * the tests. Browser code may import this file.
 */

/** Live channels one page plays at once (spec §9); the grid offers 1, 4 or 9 cells. */
export const MAX_LIVE_CHANNELS = 9;
export const LIVE_GRID_SIZES = [1, 4, 9] as const;
/** Fetched history video is kept this long (spec §9). */
export const HISTORY_KEEP_DAYS = 7;
/** Videos one batch download may name (spec §9). */
export const BATCH_DOWNLOAD_MAX = 10;
/** A download ("upload task") stays valid this long (spec §9). */
export const DOWNLOAD_VALID_HOURS = 24;
/** A live stream stops when no viewer fetched its playlist for this long. */
export const LIVE_IDLE_STOP_SECONDS = 60;
/** `live/start` answers within this long (ready, or a timeout refusal). */
export const LIVE_START_TIMEOUT_SECONDS = 15;
/** Logical channels a JT/T 1078 terminal may have (1-37 audio/video in the standard's table). */
export const MAX_CHANNEL = 37;

export type StreamType = "main" | "sub";

/** What a live cell shows (the page's own states plus the API's refusals). */
export const LIVE_STATES = [
  "idle",
  "connecting",
  "playing",
  "deviceOffline",
  "timeout",
  "linkExpired",
  "unsupportedCodec",
  "error",
] as const;
export type LiveState = typeof LIVE_STATES[number];

/** Event media (spec §4): not obtained, obtaining, obtained (picture, video or both), failed, overwritten. */
export const EVENT_MEDIA_STATES = [
  "notObtained",
  "obtaining",
  "obtainedPicture",
  "obtainedVideo",
  "obtainedBoth",
  "failed",
  "overwritten",
] as const;
export type EventMediaState = typeof EVENT_MEDIA_STATES[number];

/** Video download (spec §4). */
export const DOWNLOAD_STATES = ["downloading", "success", "failure"] as const;
export type DownloadState = typeof DOWNLOAD_STATES[number];

/** Face photo matching (spec §4). */
export const FACE_MATCH_STATES = ["matching", "success", "failure"] as const;
export type FaceMatchState = typeof FACE_MATCH_STATES[number];

export type VideoCodec = "h264" | "h265";
export type AudioCodec = "aac" | "g711a" | "g711u" | "g726" | "adpcm" | "unknown";

// ---- API contract: POST /v3/new/video/... (every answer is the usual envelope; refusals are
// catalogue errors with HTTP 200). Times are ISO-8601 UTC strings. ----

/** POST /v3/new/video/live/start */
export interface LiveStartRequest {
  imei: string;
  channel: number;
  stream: StreamType;
}
/** `url`: this server's HLS playlist path (session cookie or Bearer token authorises it). */
export interface LiveStartAnswer {
  url: string;
  codec: VideoCodec | null;
  /** Set when the channel's audio is dropped or transcoded: a catalogue message key. */
  audioNote?: string;
}
/** POST /v3/new/video/live/stop */
export interface LiveStopRequest {
  imei: string;
  channel: number;
}

/** POST /v3/new/video/history/list (0x9205 → 0x1205). */
export interface HistoryListRequest {
  imei: string;
  channel: number;
  startTime: string;
  endTime: string;
}
export interface HistoryFile {
  /** Stable id of this file within the answer: `${channel}-${startTime}-${endTime}`. */
  id: string;
  channel: number;
  startTime: string;
  endTime: string;
  /** Bytes, as the terminal reports it. */
  size: number;
  /** The 64-bit alarm flags as a decimal string (0 when none). */
  alarmFlags: string;
  stream: StreamType;
}
/** POST /v3/new/video/history/play (0x9201): answers `{url}` like live/start. */
export interface HistoryPlayRequest {
  imei: string;
  channel: number;
  startTime: string;
  endTime: string;
}
/** POST /v3/new/video/history/control (0x9202). */
export interface HistoryControlRequest {
  imei: string;
  channel: number;
  action: "pause" | "resume" | "stop" | "seek" | "speed";
  /** For seek: ISO time within the file. */
  seekTo?: string;
  /** For speed: 1, 2, 4, 8 or 16 (fast forward). */
  speed?: 1 | 2 | 4 | 8 | 16;
}
/** POST /v3/new/video/history/download: up to BATCH_DOWNLOAD_MAX files → tasks. */
export interface HistoryDownloadRequest {
  imei: string;
  files: { channel: number; startTime: string; endTime: string }[];
}
/** POST /v3/new/video/history/downloads {pageNum, pageSize} → list of these. */
export interface VideoDownloadRow {
  id: string;
  imei: string;
  deviceName: string;
  channel: number;
  startTime: string;
  endTime: string;
  state: DownloadState;
  size: number;
  createdAt: string;
  /** When the file stops being downloadable (createdAt + DOWNLOAD_VALID_HOURS). */
  expiresAt: string;
  /** Path of the MP4 once state is success. */
  url?: string;
}

/** POST /v3/new/video/event/list {imeis?, startTime, endTime, state?, pageNum, pageSize}. */
export interface EventMediaRow {
  id: string;
  alertId: string;
  imei: string;
  deviceName: string;
  alarmType: string;
  time: string;
  lat: number | null;
  lng: number | null;
  state: EventMediaState;
  /** Paths of the pictures and videos on this server (session-authorised). */
  pictures: string[];
  videos: string[];
  /** `driverPhoto`: path of the matched driver's photo (fleet drivers) when there is one. */
  face?: { state: FaceMatchState; driverName?: string; similarity?: number; driverPhoto?: string };
  /** Files a dash cam named for the event but keeps on its memory card (GT06-family cams). */
  cameraFiles?: string[];
}

/** POST /v3/new/video/settings/get {} and settings/set (the caller's account). */
export interface VideoSettings {
  defaultStream: StreamType;
  /** Minutes a live view plays before it asks to continue (0: no limit). */
  liveDefaultMinutes: number;
  /** Live and history plays one account may start per day (0: no limit). */
  playLimitPerDay: number;
}
/** POST /v3/new/video/cameras/get {imei} and cameras/set {imei, cameras}. */
export interface CameraNickname {
  channel: number;
  nickname: string;
}

/** POST /v3/new/video/share/create → {url}; list; revoke {id}. */
export interface VideoShareRequest {
  imei: string;
  channel: number;
  kind: "live" | "history";
  /** For history links: the file's range. */
  startTime?: string;
  endTime?: string;
  /** Hours the link stays valid. */
  validHours: number;
}
export interface VideoShareRow {
  id: string;
  imei: string;
  channel: number;
  kind: "live" | "history";
  url: string;
  createdAt: string;
  expiresAt: string;
}
