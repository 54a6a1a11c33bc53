/**
 * What the video pages load and share: the caller's video-capable devices, a device's cameras
 * with their nicknames, the mapping of API refusals to a live cell's state, and formats.
 */
import type { TFunction } from "i18next";
import { api, ApiError } from "../../lib/client/api.ts";
import { CATALOGUE } from "../../lib/errors.ts";
import type { CameraNickname, LiveState } from "../../modules/video/model.ts";

/** The fields of the monitor's object list (GET /v3/new/monitor/objects) these pages read. */
interface ObjectList {
  imei: string[];
  name: string[];
  mcType: string[];
  /** Status names; `status` holds indexes into it. */
  statuses: string[];
  status: number[];
}

export interface VideoDevice {
  imei: string;
  name: string;
  online: boolean;
}

/**
 * The caller's devices whose model speaks JT/T 808 (JT/T 1078 video rides on its connection),
 * from the monitor's object list. `models` comes from the page (the server knows the models).
 */
export async function loadVideoDevices(models: readonly string[]): Promise<VideoDevice[]> {
  const p = await api<ObjectList>("/v3/new/monitor/objects");
  const wanted = new Set(models);
  const out: VideoDevice[] = [];
  p.imei.forEach((imei, i) => {
    if (!wanted.has(p.mcType[i])) return;
    const status = p.statuses[p.status[i]];
    out.push({
      imei,
      name: p.name[i] || imei,
      online: status !== "offline" && status !== "inactive",
    });
  });
  return out.sort((a, b) => Number(b.online) - Number(a.online) || a.name.localeCompare(b.name));
}

/** Channels offered when a device has no nicknamed cameras: the usual four of a dashcam. */
export const DEFAULT_CHANNELS = [1, 2, 3, 4];

/** A device's cameras: its nicknamed channels plus the default four, in channel order. */
export async function loadCameras(imei: string): Promise<CameraNickname[]> {
  const named = await api<{ cameras: CameraNickname[] }>("/v3/new/video/cameras/get", { imei })
    .then((a) => a.cameras, () => [] as CameraNickname[]);
  const byChannel = new Map(named.map((c) => [c.channel, c]));
  for (const ch of DEFAULT_CHANNELS) {
    if (!byChannel.has(ch)) byChannel.set(ch, { channel: ch, nickname: "" });
  }
  return [...byChannel.values()].sort((a, b) => a.channel - b.channel);
}

/** A camera's label: its nickname, or "CH n". */
export const cameraLabel = (c: CameraNickname, t: TFunction) =>
  c.nickname || t("video.common.channel", { n: c.channel });

const codes = CATALOGUE as Record<string, number>;
/** The catalogue names of "this link has expired" (the video one, and the share links' one). */
const EXPIRED = new Set(
  ["liveLinkExpired", "videoLinkExpired", "shareLinkExpired", "shareLinkNotFound"]
    .map((k) => codes[k]).filter((c) => c !== undefined),
);

const TIMEOUT = new Set(
  ["responseTimeout", "videoResponseTimeout"].map((k) => codes[k]).filter((c) => c !== undefined),
);

/** The live state a refusal puts a cell in (its message is shown beside it). */
export function refusalState(e: unknown): LiveState {
  if (!(e instanceof ApiError)) return "error";
  if (e.code === CATALOGUE.deviceOffline) return "deviceOffline";
  if (TIMEOUT.has(e.code)) return "timeout";
  if (EXPIRED.has(e.code)) return "linkExpired";
  return "error";
}

export const refusalText = (e: unknown) => e instanceof Error ? e.message : String(e);

const FAMILIES = new Set(["adas", "dms", "tpms", "bsd", "media", "camera"]);

/**
 * An event media record's alarm ("adas:1", "dms:5", "media:0", "camera:145": the family and
 * the device's type code) in words; other types are the alert centre's alarm types.
 */
export function alarmLabel(t: TFunction, type: string): string {
  const [family, code = ""] = type.split(":", 2);
  if (!FAMILIES.has(family)) {
    return t(`alerts.type.${type}`, { defaultValue: t("video.alarm.unknown", { code: type }) });
  }
  return t(`video.alarm.${family}.${code}`, {
    defaultValue: t(`video.alarm.${family}.other`, { code }),
  });
}

/** Bytes as KB/MB/GB with one decimal. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KB", "MB", "GB"];
  let v = bytes / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v.toFixed(1)} ${units[u]}`;
}

/** An ISO time in the user's zone as "YYYY-MM-DD HH:mm:ss". */
export function formatTime(iso: string, timeZone: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
  }).formatToParts(d);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return `${get("year")}-${get("month")}-${get("day")} ${get("hour")}:${get("minute")}:${
    get("second")
  }`;
}

/** Minutes and seconds of a duration in ms ("mm:ss", or "h:mm:ss"). */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  const hh = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60)).padStart(2, "0");
  const ss = String(s % 60).padStart(2, "0");
  return hh ? `${hh}:${mm}:${ss}` : `${mm}:${ss}`;
}

/** The page's zone offset for `day` (YYYY-MM-DD) as ISO UTC bounds of that local day. */
export function dayBounds(day: string, timeZone: string): { start: string; end: string } {
  const guess = new Date(`${day}T00:00:00Z`).getTime();
  const offset = zoneOffsetMs(guess, timeZone);
  const start = guess - offset;
  return {
    start: new Date(start).toISOString(),
    end: new Date(start + 86_400_000 - 1000).toISOString(),
  };
}

/** How far `timeZone` is ahead of UTC at `ms`. */
export function zoneOffsetMs(ms: number, timeZone: string): number {
  const local = formatTime(new Date(ms).toISOString(), timeZone).replace(" ", "T") + "Z";
  return new Date(local).getTime() - Math.floor(ms / 1000) * 1000;
}

/** Today in `timeZone` as YYYY-MM-DD. */
export const todayIn = (timeZone: string) =>
  formatTime(new Date().toISOString(), timeZone).slice(0, 10);
