/**
 * Location reports: single (0x0200), query answer (0x0201, also a command reply) and batches
 * (0x0704, vendor 0x0210).
 */
import type { DeviceMessage, Position } from "../../types.ts";
import { parseBcdTime } from "../bcd.ts";
import type { ByteReader } from "../bytes.ts";
import { MsgId } from "../constants.ts";
import { type LocationContext, readLocation } from "../location.ts";
import { KMH_PER_KNOT, Readings, toStatus } from "../readings.ts";
import { handled, type MessageHandler } from "./context.ts";

export const locationReport: MessageHandler = (ctx) => {
  const location = readLocation(ctx.body, ctx.location);
  return handled(withSafetyAlarm(location), [ctx.ack()]);
};

/** The location, and the video module's event when it carries an active-safety item. */
function withSafetyAlarm(location: DeviceMessage): DeviceMessage[] {
  const safety = safetyAlarmOf(location);
  return safety ? [location, safety] : [location];
}

/**
 * An active-safety item (T/JSATL12 0x64-0x67) makes the report an alarm (DMS fatigue is
 * "fatigue", the rest "general") and tells the video module its label, which it asks the
 * attachments of (0x9208).
 */
function safetyAlarmOf(m: DeviceMessage): DeviceMessage | null {
  if (m.type !== "position" && m.type !== "status") return null;
  const target = m.type === "position" ? m.position : m;
  const attrs = target.attributes;
  const family = attrs.safetyFamily, label = attrs.alarmLabel;
  if (typeof family !== "string" || typeof label !== "string") return null;
  const type = Number(attrs.safetyType ?? 0);
  target.alarm ??= family === "dms" && type === 1 ? "fatigue" : "general";
  return {
    type: "video",
    event: {
      kind: "safetyAlarm",
      family: family as "adas" | "dms" | "tpms" | "bsd",
      alarmType: type,
      label,
      files: Number(attrs.safetyFiles ?? 0),
      time: (m.type === "position" ? m.position.time : m.time).getTime(),
    },
  };
}

/**
 * 0x0201: WORD serial of our 0x8201 query, then a location block. The location is stored like
 * any report, and it is also the answer to the "locate now" command sent with that serial.
 * It is a reply itself, so it gets no 0x8001.
 */
export const locationQueryReply: MessageHandler = (ctx) => {
  const serial = ctx.body.u16();
  const location = readLocation(ctx.body, ctx.location);
  const answer: DeviceMessage = {
    type: "commandReply",
    text: locationText(location),
    commandRef: serial,
    success: true,
  };
  return handled([...withSafetyAlarm(location), answer]);
};

/** The reply as the status page shows it: coordinates, speed, course and fix time (UTC). */
export function locationText(m: DeviceMessage): string {
  if (m.type !== "position") return "No position (the terminal sent no valid time)";
  const p = m.position;
  const kmh = Math.round(p.speed * KMH_PER_KNOT * 10) / 10;
  const time = p.time.toISOString().replace("T", " ").replace(/\.\d+Z$/, " UTC");
  return `Lat:${p.latitude.toFixed(6)},Lon:${p.longitude.toFixed(6)},Speed:${kmh}km/h,` +
    `Course:${p.course},Time:${time}${p.valid ? "" : ",No fix"}`;
}

/** 0x0704: WORD count, BYTE type (0 regular batch, 1 blind-area re-upload), WORD-length items. */
export const locationBatch: MessageHandler = (ctx) => {
  ctx.body.skip(2); // count: the items are length-prefixed anyway
  const archived = ctx.body.u8() === 1;
  const items = readItems(ctx.body, () => ctx.body.u16(), ctx.location, archived);
  return handled(items, [ctx.ack()]);
};

/**
 * 0x0210 (vendor): BYTE-length items; a 7-byte body is instead a battery report
 * (BYTE battery %, BCD time) sent while no location is available.
 */
export const locationBatch2: MessageHandler = (ctx) => {
  if (ctx.body.remaining === 7) {
    const out = new Readings();
    out.batteryPercent(ctx.body.u8());
    const time = parseBcdTime(ctx.body.bytes(6), ctx.tzMinutes) ?? ctx.now();
    return handled([toStatus(time, out)], [ctx.ack()]);
  }
  const items = readItems(ctx.body, () => ctx.body.u8(), ctx.location, false);
  return handled(items, [ctx.ack()]);
};

/**
 * Decodes length-prefixed location blocks. Positions are grouped into one "positions" message;
 * a block that cannot be decoded is skipped without losing the others.
 */
function readItems(
  body: ByteReader,
  readLength: () => number,
  location: LocationContext,
  archived: boolean,
): DeviceMessage[] {
  const positions: Position[] = [];
  const others: DeviceMessage[] = [];
  while (body.remaining > 0) {
    const length = readLength();
    if (length > body.remaining) break;
    const item = body.sub(length);
    let message: DeviceMessage;
    try {
      message = readLocation(item, location);
    } catch {
      continue;
    }
    if (message.type === "position") {
      if (archived) message.position.attributes.archive = true;
      positions.push(message.position);
    } else {
      others.push(message);
    }
  }
  return positions.length > 0 ? [{ type: "positions", positions }, ...others] : others;
}

export const LOCATION_HANDLERS: ReadonlyArray<[number, MessageHandler]> = [
  [MsgId.LOCATION, locationReport],
  [MsgId.LOCATION_QUERY_REPLY, locationQueryReply],
  [MsgId.LOCATION_BATCH, locationBatch],
  [MsgId.LOCATION_BATCH_2, locationBatch2],
];
