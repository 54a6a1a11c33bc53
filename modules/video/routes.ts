/**
 * The video API (spec business §2 Video): live, history (list, play, control, download),
 * event media, settings, camera nicknames, share links and the HLS files behind the answers'
 * URLs. Playing and reading video needs the `video` permission (spec console §6); settings and
 * nicknames are edits of the caller's own view or devices; public links carry a token.
 */
import { z } from "zod";
import type { StoredBlob } from "../../lib/blobs/types.ts";
import type { ApiRegistry } from "../../lib/http/api.ts";
import { BizError } from "../../lib/errors.ts";
import { contentDisposition } from "../tasks/routes.ts";
import { imei } from "../devices/schemas.ts";
import { BATCH_DOWNLOAD_MAX, EVENT_MEDIA_STATES, MAX_CHANNEL, MAX_LIVE_CHANNELS } from "./model.ts";
import type { VideoDownloads } from "./downloads.ts";
import type { EventMedia } from "./event_media.ts";
import type { HlsFile, HlsServing } from "./hls.ts";
import type { LiveVideo } from "./live.ts";
import type { OpenVideo } from "./open.ts";
import { SHARE_MAX_HOURS, type VideoShares } from "./shares.ts";
import type { VideoSettingsService } from "./settings.ts";

/** The services these routes use (the composition root builds them: modules/video/wiring.ts). */
export interface VideoRouteDeps {
  video: VideoServices;
}

export interface VideoServices {
  live: LiveVideo;
  downloads: VideoDownloads;
  events: EventMedia;
  settings: VideoSettingsService;
  shares: VideoShares;
  hls: HlsServing;
  open: OpenVideo;
  /** The device name the download rows show. */
  deviceName: (imei: string) => string;
}

const channel = z.number().int().min(1).max(MAX_CHANNEL);
const iso = z.iso.datetime({ offset: true });
const stream = z.enum(["main", "sub"]);
const channelBody = z.strictObject({ imei, channel });
const rangeBody = z.strictObject({
  imei,
  channel: z.number().int().min(0).max(MAX_CHANNEL),
  startTime: iso,
  endTime: iso,
});
const page = {
  pageNum: z.number().int().min(1).max(100_000).default(1),
  pageSize: z.number().int().min(1).max(100).default(20),
};
const id = z.string().trim().min(1).max(64);

export function registerVideoRoutes(api: ApiRegistry, { video: s }: VideoRouteDeps) {
  registerPlayRoutes(api, s);
  registerHistoryRoutes(api, s);
  registerMediaRoutes(api, s);
  registerSettingRoutes(api, s);
  registerShareRoutes(api, s);
}

function registerPlayRoutes(api: ApiRegistry, s: VideoServices) {
  const tag = "Video";
  api.add({
    method: "post",
    path: "/v3/new/video/live/start",
    need: "video",
    tag,
    summary:
      `Start (or reuse) a channel's live stream (JT/T 1078 0x9101); answers {url} of its HLS playlist within 15 s; up to ${MAX_LIVE_CHANNELS} per page`,
    // Without `stream`, the caller's default stream (settings).
    body: z.strictObject({ imei, channel, stream: stream.optional() }),
    handler: ({ body, c }) => s.live.start(c.var.session, body.imei, body.channel, body.stream),
  });
  api.add({
    method: "post",
    path: "/v3/new/video/live/stop",
    need: "video",
    tag,
    summary: "Stop a channel's live stream (0x9102)",
    body: channelBody,
    handler: async ({ body, c }) => {
      await s.live.stop(c.var.session, body.imei, body.channel);
    },
  });
  api.add({
    method: "get",
    path: "/v3/new/video/hls/:imei/:channel/:purpose/:name",
    need: "video",
    tag,
    summary: "A stream's HLS playlist (index.m3u8), init segment or media segment",
    produces: "application/vnd.apple.mpegurl",
    handler: async ({ c }) => {
      const p = c.req.param();
      const file = await s.hls.forViewer(
        c.var.session,
        imeiParam(p.imei),
        Number(p.channel),
        p.purpose,
        p.name,
      );
      return hlsResponse(file);
    },
  });
  api.add({
    method: "post",
    path: "/v3/new/video/open/start",
    access: "public",
    need: "public",
    tag,
    summary: "A public link's stream (live, or the shared recording): {url, kind, imei, channel}",
    body: z.strictObject({ token: z.string().trim().min(1).max(64) }),
    handler: ({ body }) => s.open.start(body.token),
  });
  api.add({
    method: "get",
    path: "/v3/new/video/open/:token/hls/:name",
    access: "public",
    need: "public",
    tag,
    summary: "The HLS files of a public link's stream (the token authorises them)",
    produces: "application/vnd.apple.mpegurl",
    handler: async ({ c }) => {
      const p = c.req.param();
      return hlsResponse(await s.hls.forShare(p.token, p.name));
    },
  });
}

function registerHistoryRoutes(api: ApiRegistry, s: VideoServices) {
  const tag = "Video";
  api.add({
    method: "post",
    path: "/v3/new/video/history/list",
    need: "video",
    tag,
    summary: "The terminal's recorded files of a channel (0 all) in a range (0x9205 → 0x1205)",
    body: rangeBody,
    handler: async ({ body, c }) => ({ list: await s.live.list(c.var.session, body) }),
  });
  api.add({
    method: "post",
    path: "/v3/new/video/history/play",
    need: "video",
    tag,
    summary: "Play a recording back (0x9201); answers {url} of its HLS playlist",
    body: z.strictObject({ imei, channel, startTime: iso, endTime: iso }),
    handler: ({ body, c }) => s.live.play(c.var.session, body),
  });
  api.add({
    method: "post",
    path: "/v3/new/video/history/control",
    need: "video",
    tag,
    summary: "Pause, resume, stop, seek or fast-forward the playback (0x9202)",
    body: z.strictObject({
      imei,
      channel,
      action: z.enum(["pause", "resume", "stop", "seek", "speed"]),
      seekTo: iso.optional(),
      speed: z.union([z.literal(1), z.literal(2), z.literal(4), z.literal(8), z.literal(16)])
        .optional(),
    }),
    handler: async ({ body, c }) => {
      await s.live.control(c.var.session, body);
    },
  });
  api.add({
    method: "post",
    path: "/v3/new/video/history/download",
    need: "video",
    tag,
    summary:
      `Download recordings as MP4 (at most ${BATCH_DOWNLOAD_MAX}); each becomes a task valid 24 h`,
    body: z.strictObject({
      imei,
      files: z.array(z.strictObject({ channel, startTime: iso, endTime: iso })).min(1)
        .max(BATCH_DOWNLOAD_MAX * 5),
    }),
    audit: false,
    handler: async ({ body, c }) => ({ list: await s.downloads.create(c.var.session, body) }),
  });
  api.add({
    method: "post",
    path: "/v3/new/video/history/downloads",
    need: "video",
    tag,
    summary: "The caller's download tasks of the last 24 hours (downloading, success, failure)",
    body: z.strictObject(page),
    handler: ({ body, c }) =>
      s.downloads.list(c.var.session, body.pageNum, body.pageSize, s.deviceName),
  });
  api.add({
    method: "get",
    path: "/v3/new/video/download/:id",
    need: "video",
    tag,
    summary: "The MP4 of one of the caller's successful download tasks",
    produces: "video/mp4",
    handler: async ({ c }) => {
      const f = await s.downloads.file(c.var.session, c.req.param("id") ?? "");
      return blobResponse(f.blob, "video/mp4", contentDisposition(f.name));
    },
  });
}

function registerMediaRoutes(api: ApiRegistry, s: VideoServices) {
  const tag = "Video";
  api.add({
    method: "post",
    path: "/v3/new/video/event/list",
    need: "video",
    tag,
    summary: "Alarm pictures and videos linked to their alerts, newest first; paged",
    body: z.strictObject({
      imeis: z.array(imei).max(500).optional(),
      startTime: iso,
      endTime: iso,
      state: z.enum(EVENT_MEDIA_STATES).optional(),
      ...page,
    }),
    handler: ({ body, c }) => s.events.list(c.var.session, body),
  });
  api.add({
    method: "get",
    path: "/v3/new/video/media/:id/:name",
    need: "video",
    tag,
    summary: "A picture or video of an event media record",
    produces: "image/jpeg",
    handler: async ({ c }) => {
      const f = await s.events.file(
        c.var.session,
        c.req.param("id") ?? "",
        c.req.param("name") ?? "",
      );
      return blobResponse(f, f.type, "inline");
    },
  });
}

function registerSettingRoutes(api: ApiRegistry, s: VideoServices) {
  const tag = "Video";
  api.add({
    method: "post",
    path: "/v3/new/video/settings/get",
    need: "read",
    tag,
    summary: "The caller's video settings (default stream, live minutes, daily play limit)",
    body: z.strictObject({}),
    handler: ({ c }) => s.settings.get(c.var.session),
  });
  api.add({
    method: "post",
    path: "/v3/new/video/settings/set",
    need: "self",
    tag,
    summary: "Change the caller's video settings",
    body: z.strictObject({
      defaultStream: stream,
      liveDefaultMinutes: z.number().int().min(0).max(24 * 60),
      playLimitPerDay: z.number().int().min(0).max(100_000),
    }),
    handler: ({ body, c }) => s.settings.set(c.var.session, body),
  });
  api.add({
    method: "post",
    path: "/v3/new/video/cameras/get",
    need: "read",
    tag,
    summary: "A device's camera nicknames per channel",
    body: z.strictObject({ imei }),
    handler: async ({ body, c }) => ({
      cameras: await s.settings.cameras(c.var.session, body.imei),
    }),
  });
  api.add({
    method: "post",
    path: "/v3/new/video/cameras/set",
    need: "editData",
    tag,
    summary: "Replace a device's camera nicknames (empty nickname: none)",
    body: z.strictObject({
      imei,
      cameras: z.array(z.strictObject({
        channel,
        nickname: z.string().trim().max(30),
      })).max(MAX_CHANNEL),
    }),
    handler: async ({ body, c }) => ({
      cameras: await s.settings.setCameras(c.var.session, body.imei, body.cameras),
    }),
  });
}

function registerShareRoutes(api: ApiRegistry, s: VideoServices) {
  const tag = "Video";
  api.add({
    method: "post",
    path: "/v3/new/video/share/create",
    need: "video",
    tag,
    summary: "A public link to a channel's live video or a recording, valid for validHours",
    body: z.strictObject({
      imei,
      channel,
      kind: z.enum(["live", "history"]),
      startTime: iso.optional(),
      endTime: iso.optional(),
      validHours: z.number().int().min(1).max(SHARE_MAX_HOURS),
    }),
    audit: true,
    handler: ({ body, c }) => s.shares.create(c.var.session, body),
  });
  api.add({
    method: "post",
    path: "/v3/new/video/share/list",
    need: "video",
    tag,
    summary: "The subtree's video links still valid, newest first",
    body: z.strictObject({}),
    handler: async ({ c }) => ({ list: await s.shares.list(c.var.session) }),
  });
  api.add({
    method: "post",
    path: "/v3/new/video/share/revoke",
    need: "video",
    tag,
    summary: 'Revoke a video link (it answers "live link expired" from then on)',
    body: z.strictObject({ id }),
    audit: true,
    handler: async ({ body, c }) => {
      await s.shares.revoke(c.var.session, body.id);
    },
  });
}

function imeiParam(v: string): string {
  if (!/^\d{15}$/.test(v)) throw new BizError("videoFileNotFound", {}, null, 404);
  return v;
}

function hlsResponse(f: HlsFile): Response {
  return new Response(f.body as BodyInit, {
    headers: { "content-type": f.type, "cache-control": "no-cache, no-store" },
  });
}

/** A stored file streamed out (a download's MP4 is never read whole). */
function blobResponse(blob: StoredBlob, type: string, disposition: string): Response {
  return new Response(blob.stream, {
    headers: {
      "content-type": type,
      "content-length": String(blob.size),
      "content-disposition": disposition,
      "cache-control": "private, no-store",
    },
  });
}
