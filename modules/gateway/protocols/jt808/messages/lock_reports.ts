/**
 * JT701-family lock reports on a JT/T 808 link (0x5501 live, 0x5502 blind-area). The header has
 * a 1-byte serial and the body is the JT600 binary location, not the JT/T 808 block:
 *
 *   BCD DDMMYY hhmmss (UTC) | BCD lat DDMMmmmm | BCD lon DDDMMmmmm + flag nibble (bit 0 valid,
 *   bit 1 north, bit 2 east) | BCD speed km/h | BYTE course/2 | BYTE CSQ | BYTE satellites
 *   | DWORD odometer km | BYTE battery (% or 0xAA/0xAB charging) | DWORD cell id | WORD LAC
 *   | BYTE product | WORD status | WORD alarms | items (BYTE id, BYTE length, value)
 */
import type { AlarmType } from "../../types.ts";
import { bcdDigits } from "../bcd.ts";
import type { ByteReader } from "../bytes.ts";
import { MsgId } from "../constants.ts";
import { lockReply } from "../encoder.ts";
import { decodeLockOperation } from "../extras/locks.ts";
import { type Fix, knotsFromKmh, Readings, toPosition } from "../readings.ts";
import { handled, type MessageHandler } from "./context.ts";

/** Alarm word bits per product type (1/2: padlocks, 3: container lock). */
const PRODUCT_ALARMS: Readonly<Record<number, ReadonlyArray<[number, AlarmType]>>> = {
  1: [[0, "lowPower"]],
  2: [[0, "lowPower"]],
  3: [
    [0, "overspeed"],
    [1, "lowPower"],
    [2, "vibration"],
    [3, "lowBattery"],
    [5, "geofenceEnter"],
    [6, "geofenceExit"],
  ],
};

const BATTERY_CHARGING = [0xaa, 0xab];

/** Reply 0x4401 only when the terminal asks for one (properties bit 15). */
const WANTS_REPLY = 0x8000;

export const lockReport: MessageHandler = (ctx) => {
  const out = new Readings();
  const fix = readBinaryFix(ctx.body);
  if (fix === null) return handled([]);
  const body = ctx.body;
  out.rssi(body.u8());
  out.satellites = body.u8();
  out.mileage = body.u32();
  const battery = body.u8();
  if (battery <= 100) out.batteryPercent(battery);
  else if (BATTERY_CHARGING.includes(battery)) out.set("charge", true);
  body.skip(6); // cell id, LAC
  const product = body.u8();
  const status = body.u16();
  const alarms = body.u16();
  out.set("status", status);
  if (product === 3) out.set("blocked", (status & 0x20) !== 0);
  for (const [bit, type] of PRODUCT_ALARMS[product] ?? []) {
    if (alarms & (1 << bit)) out.alarm(type);
  }
  readLockItems(body, out, fix);
  if (ctx.header.msgId === MsgId.LOCK_LOCATION_BLIND) out.set("archive", true);
  const replies = ctx.header.properties & WANTS_REPLY
    ? [lockReply(ctx.address, ctx.header.msgId)]
    : [];
  return handled([{ type: "position", position: toPosition(fix, out) }], replies);
};

function readLockItems(body: ByteReader, out: Readings, fix: Fix): void {
  while (body.remaining >= 2) {
    const id = body.u8();
    const length = body.u8();
    if (length > body.remaining) return;
    const v = body.sub(length);
    try {
      if (id === 0x02) fix.altitude = v.i16();
      else if (id === 0x10) out.set("wakeSource", v.u8());
      else if (id === 0x0b) decodeLockOperation(v, out, { id, length });
      else if (id === 0x0c) out.set("tilt", `[${v.i16()},${v.i16()},${v.i16()}]`);
      else if (id === 0xfc) out.set("geofence", v.u8());
    } catch {
      // malformed item: skip it
    }
  }
}

/** Time, coordinates, flags, speed and course; null when the time is not BCD. */
function readBinaryFix(r: ByteReader): Fix | null {
  const timeDigits = bcdDigits(r.bytes(6));
  const latDigits = bcdDigits(r.bytes(4));
  const lonBytes = r.bytes(5);
  const lonDigits = bcdDigits(lonBytes.subarray(0, 4));
  const lonLast = lonBytes[4] >> 4;
  const flags = lonBytes[4] & 0x0f;
  const speedDigits = bcdDigits(r.bytes(1));
  const course = r.u8() * 2;
  if (!timeDigits || !latDigits || !lonDigits || lonLast > 9 || !speedDigits) return null;
  const [dd, mo, yy, hh, mi, ss] = [0, 2, 4, 6, 8, 10].map((i) =>
    Number(timeDigits.slice(i, i + 2))
  );
  if (mo < 1 || mo > 12 || dd < 1 || dd > 31 || hh > 23 || mi > 59 || ss > 59) return null;
  const latitude = degreesMinutes(latDigits, 2);
  const longitude = degreesMinutes(lonDigits + String(lonLast), 3);
  return {
    time: new Date(Date.UTC(2000 + yy, mo - 1, dd, hh, mi, ss)),
    valid: (flags & 0x01) !== 0,
    latitude: flags & 0x02 ? latitude : -latitude,
    longitude: flags & 0x04 ? longitude : -longitude,
    altitude: 0,
    speed: knotsFromKmh(Number(speedDigits)),
    course: course % 360,
  };
}

/** "DDMMmmmm" (minutes with 4 decimals) → decimal degrees. */
function degreesMinutes(digits: string, degreeDigits: number): number {
  const degrees = Number(digits.slice(0, degreeDigits));
  const minutes = Number(digits.slice(degreeDigits)) / 10_000;
  return degrees + minutes / 60;
}

export const LOCK_HANDLERS: ReadonlyArray<[number, MessageHandler]> = [
  [MsgId.LOCK_LOCATION, lockReport],
  [MsgId.LOCK_LOCATION_BLIND, lockReport],
];
