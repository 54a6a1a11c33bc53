/** Message id → handler, assembled from the per-family files. */
import { DEVICE_INFO_HANDLERS } from "./device_info.ts";
import { LOCATION_HANDLERS } from "./location_reports.ts";
import { LOCK_HANDLERS } from "./lock_reports.ts";
import { REPLY_HANDLERS } from "./replies.ts";
import { SESSION_HANDLERS } from "./session_messages.ts";
import { TRANSPARENT_HANDLERS } from "./transparent.ts";
import type { MessageHandler } from "./context.ts";
import { VIDEO_HANDLERS } from "../video.ts";

export const HANDLERS: ReadonlyMap<number, MessageHandler> = new Map([
  ...SESSION_HANDLERS,
  ...LOCATION_HANDLERS,
  ...LOCK_HANDLERS,
  ...REPLY_HANDLERS,
  ...DEVICE_INFO_HANDLERS,
  ...TRANSPARENT_HANDLERS,
  ...VIDEO_HANDLERS,
]);
