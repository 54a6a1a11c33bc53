/**
 * The JT/T 808 location block (0x0200 body, 0x0201 after its reply serial, each 0x0704 item):
 *
 *   DWORD alarm flags | DWORD status | DWORD lat 1e-6° | DWORD lon 1e-6° | WORD altitude m
 *   | WORD speed 1/10 km/h | WORD course | BCD[6] YYMMDDhhmmss local time | extra items…
 */
import type { DeviceMessage } from "../types.ts";
import { alarmsFromWord, bitSet } from "./alarms.ts";
import { parseBcdTime } from "./bcd.ts";
import type { ByteReader } from "./bytes.ts";
import { readExtras } from "./extras/index.ts";
import type { Profile } from "./models.ts";
import { type Fix, knotsFromKmh, Readings, toPosition, toStatus } from "./readings.ts";

export interface LocationContext {
  profile: Profile;
  /** Offset of the device's clock from UTC. */
  tzMinutes: number;
  /** Used when the block's own time is not a valid BCD date. */
  now: () => Date;
}

export interface Coordinates {
  valid: boolean;
  latitude: number;
  longitude: number;
}

/** Status bits 13-17: doors 1-5 open. */
const DOOR_BITS = [13, 14, 15, 16, 17];
/** Status bit 10: oil circuit cut (immobiliser engaged). */
const OIL_CUT_BIT = 10;

/** DWORD status + latitude + longitude; status bits also feed `out`. */
export function readCoordinates(r: ByteReader, out: Readings, profile: Profile): Coordinates {
  const status = r.u32();
  const latitude = r.u32() / 1e6;
  const longitude = r.u32() / 1e6;
  out.acc = bitSet(status, 0);
  out.set("blocked", bitSet(status, OIL_CUT_BIT));
  out.set("door", DOOR_BITS.some((bit) => bitSet(status, bit)));
  profile.status?.(status, out);
  return {
    valid: bitSet(status, 1),
    latitude: bitSet(status, 2) ? -latitude : latitude,
    longitude: bitSet(status, 3) ? -longitude : longitude,
  };
}

/** Altitude, speed, course and BCD time; time is null when not a valid date. */
export function readMotion(r: ByteReader, tzMinutes: number) {
  return {
    altitude: r.i16(), // metres; signed so devices below sea level do not wrap
    speed: knotsFromKmh(r.u16() / 10),
    course: r.u16() % 360,
    time: parseBcdTime(r.bytes(6), tzMinutes),
  };
}

/**
 * Decodes one location block. A block whose time is not a date still carries readings
 * (battery, alarms…), so it becomes a status message stamped with the receive time.
 */
export function readLocation(r: ByteReader, ctx: LocationContext): DeviceMessage {
  const out = new Readings();
  const alarmWord = r.u32();
  for (const alarm of alarmsFromWord(alarmWord, ctx.profile.alarmBits)) out.alarm(alarm);
  if (alarmWord !== 0) out.set("alarmFlags", alarmWord);
  const coordinates = readCoordinates(r, out, ctx.profile);
  const { time, ...motion } = readMotion(r, ctx.tzMinutes);
  readExtras(r, out, ctx.profile);
  if (time === null) return toStatus(ctx.now(), out);
  const fix: Fix = { time, ...coordinates, ...motion };
  return { type: "position", position: toPosition(fix, out) };
}
