/**
 * JT/T 1078-2016 video signalling over JT/T 808 and the T/JSATL12 attachment request:
 * platform → terminal 0x9101 (real-time AV), 0x9102 (real-time control), 0x9205 (resource
 * query), 0x9201 (playback), 0x9202 (playback control), 0x9208 (alarm attachment upload);
 * terminal → platform 0x1205 (resource list), 0x0800/0x0801 (multimedia event and data).
 * Times on the wire are BCD in the terminal's local time, like positions.
 */
import type { ProtocolSession, VideoRequest, VideoResource } from "../types.ts";
import { encodeBcd, parseBcdTime } from "./bcd.ts";
import { ByteWriter, fromHex } from "./bytes.ts";
import { encodeMessage } from "./encoder.ts";
import { handled, type MessageHandler } from "./messages/context.ts";
import { nextSerial, timezoneMinutes } from "./session_state.ts";
import type { TerminalAddress } from "./session_state.ts";

export const VideoMsgId = {
  LIVE: 0x9101,
  LIVE_CONTROL: 0x9102,
  PLAYBACK: 0x9201,
  PLAYBACK_CONTROL: 0x9202,
  QUERY_RESOURCES: 0x9205,
  ATTACHMENT_UPLOAD: 0x9208,
  RESOURCE_LIST: 0x1205,
  MEDIA_EVENT: 0x0800,
  MEDIA_DATA: 0x0801,
  MEDIA_DATA_REPLY: 0x8800,
} as const;

/** A 0x1205 answer lists at most this many files (bounded decode of a hostile count). */
export const MAX_RESOURCES = 1000;
/** Bytes of one 0x1205 file entry. */
const RESOURCE_BYTES = 28;

/** BCD[6] YYMMDDhhmmss of `ms` in the terminal's local time (0: all zeros, "any"). */
export function bcdTime(ms: number, tzMinutes: number): Uint8Array {
  if (ms <= 0) return new Uint8Array(6);
  const d = new Date(ms + tzMinutes * 60_000);
  const two = (n: number) => String(n).padStart(2, "0");
  const digits = two(d.getUTCFullYear() % 100) + two(d.getUTCMonth() + 1) + two(d.getUTCDate()) +
    two(d.getUTCHours()) + two(d.getUTCMinutes()) + two(d.getUTCSeconds());
  return encodeBcd(digits, 6);
}

function hostBytes(host: string): Uint8Array {
  const bytes = new TextEncoder().encode(host);
  if (bytes.length > 255) throw new Error("JT/T 1078: server address longer than 255 bytes");
  return bytes;
}

/** The body of one video request (the message id comes with it). */
export function videoBody(
  request: VideoRequest,
  session: ProtocolSession,
): { msgId: number; body: Uint8Array } {
  const tz = timezoneMinutes(session);
  const w = new ByteWriter();
  switch (request.type) {
    case "live": {
      const host = hostBytes(request.host);
      w.u8(host.length).bytes(host).u16(request.port).u16(0).u8(request.channel)
        .u8(0).u8(request.stream === "main" ? 0 : 1);
      return { msgId: VideoMsgId.LIVE, body: w.finish() };
    }
    case "liveClose":
      // Control 0 close AV, type 0 close everything of the channel, switch stream 0.
      w.u8(request.channel).u8(0).u8(0).u8(0);
      return { msgId: VideoMsgId.LIVE_CONTROL, body: w.finish() };
    case "queryResources":
      // AV type 0 (audio and video), stream 0 (any), storage 0 (any), alarm flags 0 (any).
      w.u8(request.channel).bytes(bcdTime(request.start, tz)).bytes(bcdTime(request.end, tz))
        .u32(0).u32(0).u8(0).u8(0).u8(0);
      return { msgId: VideoMsgId.QUERY_RESOURCES, body: w.finish() };
    case "playback": {
      const host = hostBytes(request.host);
      // AV type 0, stream 0 (main or sub), storage 0 (any), mode 0 normal, speed 0 (none).
      w.u8(host.length).bytes(host).u16(request.port).u16(0).u8(request.channel)
        .u8(0).u8(0).u8(0).u8(0).u8(0)
        .bytes(bcdTime(request.start, tz)).bytes(bcdTime(request.end, tz));
      return { msgId: VideoMsgId.PLAYBACK, body: w.finish() };
    }
    case "playbackControl":
      w.u8(request.channel).u8(request.control).u8(request.speed)
        .bytes(bcdTime(request.seekTo, tz));
      return { msgId: VideoMsgId.PLAYBACK_CONTROL, body: w.finish() };
    case "attachmentUpload": {
      const host = hostBytes(request.host);
      const label = fromHex(request.label);
      if (label.length !== 16) throw new Error("T/JSATL12: alarm label must be 16 bytes");
      const no = new Uint8Array(32);
      no.set(new TextEncoder().encode(request.alarmNo).subarray(0, 32));
      w.u8(host.length).bytes(host).u16(request.port).u16(0).bytes(label).bytes(no)
        .bytes(new Uint8Array(16));
      return { msgId: VideoMsgId.ATTACHMENT_UPLOAD, body: w.finish() };
    }
  }
}

/** Frames a video request with header serial `serial` (the terminal's 0x0001 echoes it). */
export function videoRequest(
  to: TerminalAddress,
  serial: number,
  request: VideoRequest,
  session: ProtocolSession,
): Uint8Array {
  const { msgId, body } = videoBody(request, session);
  return encodeMessage(to, msgId, serial, body);
}

/**
 * 0x1205: WORD serial of the 0x9205, DWORD count, then 28-byte entries: BYTE channel, BCD[6]
 * start, BCD[6] end, 64-bit alarm flags, BYTE AV type, BYTE stream type, BYTE storage type,
 * DWORD size. Entries whose times are not dates are skipped.
 */
export const resourceList: MessageHandler = (ctx) => {
  const serial = ctx.body.u16();
  const count = Math.min(ctx.body.u32(), MAX_RESOURCES);
  const files: VideoResource[] = [];
  for (let i = 0; i < count && ctx.body.remaining >= RESOURCE_BYTES; i++) {
    const channel = ctx.body.u8();
    const start = parseBcdTime(ctx.body.bytes(6), ctx.tzMinutes);
    const end = parseBcdTime(ctx.body.bytes(6), ctx.tzMinutes);
    const high = BigInt(ctx.body.u32());
    const alarmFlags = ((high << 32n) | BigInt(ctx.body.u32())).toString();
    const avType = ctx.body.u8();
    const streamType = ctx.body.u8();
    const storageType = ctx.body.u8();
    const size = ctx.body.u32();
    if (!start || !end) continue;
    files.push({
      channel,
      start: start.getTime(),
      end: end.getTime(),
      alarmFlags,
      avType,
      streamType,
      storageType,
      size,
    });
  }
  return handled([{ type: "video", event: { kind: "resources", serial, files } }], [ctx.ack()]);
};

/** 0x0800: DWORD media id, BYTE type (0 picture, 1 audio, 2 video), BYTE format, BYTE event, BYTE channel. */
export const mediaEvent: MessageHandler = (ctx) => {
  const mediaId = ctx.body.u32();
  const mediaType = ctx.body.u8();
  ctx.body.skip(1);
  const event = ctx.body.u8();
  const channel = ctx.body.u8();
  return handled(
    [{ type: "video", event: { kind: "mediaEvent", mediaId, mediaType, event, channel } }],
    [ctx.ack()],
  );
};

/**
 * 0x0801 in one frame (a subpackaged upload is refused by the decoder): DWORD media id, BYTE
 * type, BYTE format (0 JPEG), BYTE event, BYTE channel, a 28-byte location block, the data.
 * Answered by 0x8800 (media id, no packets to resend).
 */
export const mediaData: MessageHandler = (ctx) => {
  const mediaId = ctx.body.u32();
  const mediaType = ctx.body.u8();
  const format = ctx.body.u8();
  const event = ctx.body.u8();
  const channel = ctx.body.u8();
  ctx.body.skip(28);
  const data = ctx.body.rest().slice();
  const reply = encodeMessage(
    ctx.address,
    VideoMsgId.MEDIA_DATA_REPLY,
    nextSerial(ctx.session),
    new ByteWriter().u32(mediaId).u8(0).finish(),
  );
  return handled([{
    type: "video",
    event: { kind: "mediaData", mediaId, mediaType, format, event, channel, data },
  }], [reply]);
};

export const VIDEO_HANDLERS: ReadonlyArray<[number, MessageHandler]> = [
  [VideoMsgId.RESOURCE_LIST, resourceList],
  [VideoMsgId.MEDIA_EVENT, mediaEvent],
  [VideoMsgId.MEDIA_DATA, mediaData],
];
