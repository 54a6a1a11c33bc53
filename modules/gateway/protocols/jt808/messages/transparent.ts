/**
 * 0x0900 transparent data: the first byte names the payload type. The types decoded here come
 * from OBD boxes, driver-ID readers and BLE gateways that tunnel their data through JT/T 808.
 */
import type { AlarmType, DeviceMessage } from "../../types.ts";
import { parseBcdTime } from "../bcd.ts";
import type { ByteReader } from "../bytes.ts";
import { trimControl } from "../bytes.ts";
import { MsgId } from "../constants.ts";
import { decodeObdRt } from "../extras/obd.ts";
import { readCoordinates, readMotion } from "../location.ts";
import { knotsFromKmh, Readings, toPosition, toStatus } from "../readings.ts";
import { handled, type MessageContext, type MessageHandler } from "./context.ts";

type PayloadDecoder = (ctx: MessageContext, out: Readings) => DeviceMessage | null;

export const transparent: MessageHandler = (ctx) => {
  const type = ctx.body.u8();
  const message = PAYLOADS[type]?.(ctx, new Readings()) ?? null;
  return handled(message ? [message] : [], [ctx.ack()]);
};

const PAYLOADS: Readonly<Record<number, PayloadDecoder>> = {
  0x40: asciiPayload,
  0x41: (ctx, out) => {
    decodeObdRt(ctx.body.latin1(ctx.body.remaining), out);
    return toStatus(ctx.now(), out);
  },
  0xf0: obdBox,
  0xf3: collisionPayload,
  0xff: simpleFix,
  0x53: (ctx, out) => bleFix(ctx, out, readBleTags),
  0x54: (ctx, out) => bleFix(ctx, out, readBleSensors),
};

/** 0x40: ASCII; "GTSL|…|…|…|driver id|…" is a driver card swipe, other text is kept raw. */
function asciiPayload(ctx: MessageContext, out: Readings): DeviceMessage | null {
  const text = trimControl(ctx.body.latin1(ctx.body.remaining));
  if (text.startsWith("GTSL")) {
    const fields = text.split("|");
    if (fields.length > 4) out.set("driverUniqueId", fields[4]);
  } else if (text !== "") {
    out.set("data", text);
  }
  return Object.keys(out.attributes).length > 0 ? toStatus(ctx.now(), out) : null;
}

/** 0xFF: BCD time, signed lat/lon 1e-6°, altitude, speed 1/10 km/h, course. */
function simpleFix(ctx: MessageContext, out: Readings): DeviceMessage | null {
  const b = ctx.body;
  const time = parseBcdTime(b.bytes(6), ctx.tzMinutes);
  if (time === null) return null;
  const fix = {
    time,
    valid: true,
    latitude: b.i32() / 1e6,
    longitude: b.i32() / 1e6,
    altitude: b.i16(),
    speed: knotsFromKmh(b.u16() / 10),
    course: b.u16() % 360,
  };
  return { type: "position", position: toPosition(fix, out) };
}

/** 0xF3: (WORD type, WORD length) items; 0x0002 collision level, 0x0006 event time. */
function collisionPayload(ctx: MessageContext, out: Readings): DeviceMessage {
  let time = ctx.now();
  while (ctx.body.remaining > 4) {
    const type = ctx.body.u16();
    const item = ctx.body.sub(Math.min(ctx.body.u16(), ctx.body.remaining));
    if (type === 0x0002) out.set("collision", item.u16() / 256 / 100);
    else if (type === 0x0006) time = parseBcdTime(item.bytes(6), ctx.tzMinutes) ?? time;
  }
  return toStatus(time, out);
}

/** 0x53/0x54: status + coordinates, altitude, speed, course, time, then BLE data. */
function bleFix(
  ctx: MessageContext,
  out: Readings,
  readData: (b: ByteReader, out: Readings) => void,
): DeviceMessage | null {
  const coordinates = readCoordinates(ctx.body, out, ctx.location.profile);
  const { time, ...motion } = readMotion(ctx.body, ctx.tzMinutes);
  try {
    readData(ctx.body, out);
  } catch {
    // keep the fix and whatever tags were read
  }
  if (time === null) return toStatus(ctx.now(), out);
  return { type: "position", position: toPosition({ time, ...coordinates, ...motion }, out) };
}

/** Node count, then per tag: index, MAC, RSSI, BYTE length, raw data. */
function readBleTags(b: ByteReader, out: Readings): void {
  b.skip(1);
  while (b.remaining > 0) {
    const tag = `tag${b.u8() + 1}`;
    out.set(`${tag}Mac`, b.hex(6));
    out.set(`${tag}Rssi`, b.i8());
    out.set(`${tag}Data`, b.hex(b.u8()));
  }
}

/** Samples: WORD mask, BCD time, then the fields the mask selects. */
function readBleSensors(b: ByteReader, out: Readings): void {
  while (b.remaining > 0) {
    const mask = b.u16();
    b.skip(6);
    if (mask & 0x01) out.set("lightSensor", b.u16());
    if (mask & 0x02) {
      out.set("deviceTemp", b.i16() / 10);
      out.set("humidity", b.i16() / 10);
    }
    if (mask & 0x04) out.set("temp3", b.i16() / 10);
    if (mask & 0x08) b.skip(6); // acceleration
    if (mask & 0x10) out.set("airPressure", b.u16());
  }
}

// ---- 0xF0: OBD box reports -------------------------------------------------------------------

/**
 * BCD time, BYTE archive flag, BYTE vehicle type, BYTE subtype, subtype data; subtypes 1-3 end
 * with status + coordinates and become positions, the others are status messages.
 */
function obdBox(ctx: MessageContext, out: Readings): DeviceMessage | null {
  const b = ctx.body;
  const time = parseBcdTime(b.bytes(6), ctx.tzMinutes) ?? ctx.now();
  if (b.u8() > 0) out.set("archive", true);
  b.skip(1); // vehicle type
  const subtype = b.u8();
  const decode = OBD_BOX_SUBTYPES[subtype];
  if (!decode) return null;
  const withFix = decode(b, out);
  if (!withFix) return toStatus(time, out);
  const coordinates = readCoordinates(b, out, ctx.location.profile);
  const fix = { time, ...coordinates, altitude: 0, speed: 0, course: 0 };
  return { type: "position", position: toPosition(fix, out) };
}

/** Returns true when the subtype is followed by coordinates. */
type ObdBoxSubtype = (b: ByteReader, out: Readings) => boolean;

const OBD_BOX_SUBTYPES: Readonly<Record<number, ObdBoxSubtype>> = {
  // Data stream: BYTE count of (WORD id, BYTE length, value).
  0x01: (b, out) => {
    const count = b.u8();
    for (let i = 0; i < count; i++) {
      const id = b.u16();
      const length = b.u8();
      const v = b.sub(length);
      try {
        decodeObdBoxValue(id, length, v, out);
      } catch {
        // value shorter than its id implies: skip it
      }
    }
    return true;
  },
  // Trouble codes: WORD systems × (DWORD system id, WORD codes × (DWORD, DWORD, WORD len, text)).
  0x02: (b, out) => {
    const codes: string[] = [];
    const systems = b.u16();
    for (let i = 0; i < systems; i++) {
      b.skip(4);
      const count = b.u16();
      for (let j = 0; j < count; j++) {
        b.skip(8);
        codes.push(trimControl(b.latin1(b.u16())));
      }
    }
    out.set("dtcs", codes.join(" "));
    return true;
  },
  // Alarm events: BYTE count of (BYTE id, BYTE length, data).
  0x03: (b, out) => {
    const count = b.u8();
    for (let i = 0; i < count; i++) {
      const id = b.u8();
      b.skip(b.u8());
      out.alarm(OBD_BOX_ALARMS.get(id));
    }
    return true;
  },
  // Trip summary: BYTE property (2 = trip end), DWORD trip number, BCD start, [end summary].
  0x04: (b, out) => {
    const property = b.u8();
    out.set("tripNumber", b.u32());
    b.skip(6);
    if (property === 0x02) {
      b.skip(6 + 8 + 8 + 1); // end time, start and end locations, flags
      out.set("idlingCount", b.u16());
      out.set("idlingTime", b.u16());
      out.set("odometerTrip", b.u16() / 10);
      out.set("tripFuel", b.u16() / 100);
    }
    return false;
  },
  // VIN: BYTE present flag, 17 chars.
  0x0b: (b, out) => {
    if (b.u8() > 0) out.set("vin", b.latin1(17));
    return false;
  },
  // Driving event: DWORD code.
  0x15: (b, out) => {
    const event = b.u32();
    const alarm = OBD_BOX_EVENTS.get(event);
    if (alarm) out.alarm(alarm);
    else out.set("event", event);
    return false;
  },
};

const OBD_BOX_ALARMS: ReadonlyMap<number, AlarmType> = new Map<number, AlarmType>([
  [0x01, "powerOn"], // power restored
  [0x02, "powerCut"],
  [0x1a, "harshAcceleration"],
  [0x1b, "harshBraking"],
  [0x1c, "harshCornering"],
  [0x23, "fatigue"],
  [0x25, "overspeed"],
  [0x26, "accident"],
  [0x27, "accident"],
  [0x28, "accident"],
  [0x31, "door"],
  [0x32, "door"],
]);

const OBD_BOX_EVENTS: ReadonlyMap<number, AlarmType> = new Map<number, AlarmType>([
  [51, "harshAcceleration"],
  [52, "harshBraking"],
  [53, "harshCornering"],
  [56, "accident"],
]);

/** Data-stream ids with a known meaning; others are kept as io<id> when numeric. */
function decodeObdBoxValue(id: number, length: number, v: ByteReader, out: Readings): void {
  switch (id) {
    case 0x0102:
    case 0x0528:
    case 0x0546:
      out.mileage = v.u32() / 10; // 1/10 km
      return;
    case 0x0103:
      return out.set("fuel", v.u32() / 100);
    case 0x052a:
      return out.set("fuel", v.u16() / 100);
    case 0x052b:
      return out.set("fuelLevel", v.u8());
    case 0x0105:
    case 0x052c:
      return out.set("fuelUsed", v.u32() / 100);
    case 0x014a:
    case 0x0537:
    case 0x0538:
    case 0x0539:
      return out.set("fuelConsumption", v.u16() / 100);
    case 0x0111:
      return out.set("fuelTemp", v.u8() - 40);
    case 0x012e:
      return out.set("oilLevel", v.u16() / 10);
    case 0x052d:
      return out.set("coolantTemp", v.u8() - 40);
    case 0x052e:
      return out.set("airTemp", v.u8() - 40);
    case 0x0530:
      return out.set("power", v.u16() / 1000);
    case 0x0535:
      return out.set("obdSpeed", v.u16() / 10);
    case 0x0536:
      return out.set("rpm", v.u16());
    case 0x053d:
      return out.set("intakePressure", v.u16() / 10);
    case 0x0544:
      return out.set("liquidLevel", v.u8());
    case 0x0547:
    case 0x0548:
      return out.set("throttle", v.u8());
    case 0xfeec:
      return out.set("vin", v.latin1(length));
  }
  if (length === 1) out.set(`io${id}`, v.u8());
  else if (length === 2) out.set(`io${id}`, v.u16());
  else if (length === 4) out.set(`io${id}`, v.u32());
}

export const TRANSPARENT_HANDLERS: ReadonlyArray<[number, MessageHandler]> = [
  [MsgId.TRANSPARENT, transparent],
];
