/** GPS block and time fields shared by the location-carrying packets. */

import type { Position, PositionType } from "../../types.ts";
import type { ByteReader } from "../reader.ts";

/** Size of the standard GPS block (time 6, satellites 1, lat 4, lon 4, speed 1, course 2). */
export const GPS_BLOCK = 18;

const KMH_PER_KNOT = 1.852;
/** GT06 coordinates are minutes × 30000, i.e. degrees × 1 800 000. */
const COORDINATE_SCALE = 1_800_000;

/** yy mm dd hh mm ss, binary, UTC (the GT06 documents specify UTC for these fields). */
export function readDateTime(r: ByteReader): Date {
  const [yy, mo, dd, hh, mi, ss] = r.bytesOf(6);
  return new Date(Date.UTC(2000 + yy, mo - 1, dd, hh, mi, ss));
}

/** Same six fields BCD-coded (legacy WIFI packets 0x17/0x69). */
export function readBcdDateTime(r: ByteReader): Date {
  const [yy, mo, dd, hh, mi, ss] = Array.from(r.bytesOf(6), (b) => (b >> 4) * 10 + (b & 0x0f));
  return new Date(Date.UTC(2000 + yy, mo - 1, dd, hh, mi, ss));
}

export function kmhToKnots(kmh: number): number {
  return kmh / KMH_PER_KNOT;
}

export interface GpsOptions {
  /** The satellites byte is present (low nibble = satellites in use). Default true. */
  satellites?: boolean;
  /** Speed field: one byte (default), two bytes, or absent. */
  speed?: "u8" | "u16" | "none";
  /** Some alarm packets put the 2-byte speed after the course/status word. */
  speedAfterCourse?: boolean;
}

/** Reads the standard 18-byte block: time, satellites, latitude, longitude, speed, course/status. */
export function readGps(r: ByteReader, options: GpsOptions = {}): Position {
  const time = readDateTime(r);
  const satellites = options.satellites === false ? undefined : r.u8() & 0x0f;
  const latitude = r.u32() / COORDINATE_SCALE;
  const longitude = r.u32() / COORDINATE_SCALE;
  const speedField = options.speed ?? "u8";
  const readSpeed = () => (speedField === "u8" ? r.u8() : speedField === "u16" ? r.u16() : 0);
  let speedKmh = options.speedAfterCourse ? 0 : readSpeed();
  const courseStatus = r.u16();
  if (options.speedAfterCourse) speedKmh = readSpeed();
  return gpsPosition({ time, satellites, latitude, longitude, speedKmh, courseStatus });
}

export interface RawFix {
  time: Date;
  satellites?: number;
  latitude: number;
  longitude: number;
  speedKmh: number;
  courseStatus: number;
  altitude?: number;
}

/**
 * Course/status word: bits 0-9 course, bit 10 north latitude, bit 11 west longitude,
 * bit 12 fix valid; bit 14 set means bit 15 carries ACC (vendor extension).
 */
export function gpsPosition(fix: RawFix): Position {
  const flags = fix.courseStatus;
  const position: Position = {
    time: fix.time,
    valid: (flags & 0x1000) !== 0,
    latitude: flags & 0x0400 ? fix.latitude : -fix.latitude,
    longitude: flags & 0x0800 ? -fix.longitude : fix.longitude,
    altitude: fix.altitude ?? 0,
    speed: kmhToKnots(fix.speedKmh),
    course: flags & 0x03ff,
    posType: 1,
    attributes: {},
  };
  if (fix.satellites !== undefined) position.satellites = fix.satellites;
  if (flags & 0x4000) position.acc = (flags & 0x8000) !== 0;
  return position;
}

/** A position without a GPS fix (LBS / WIFI packets): the platform resolves the cells. */
export function networkPosition(time: Date, posType: PositionType): Position {
  return {
    time,
    valid: false,
    latitude: 0,
    longitude: 0,
    altitude: 0,
    speed: 0,
    course: 0,
    posType,
    attributes: {},
  };
}

/** A plausible binary date at `offset` (used to tell vendor layouts apart). */
export function looksLikeDate(bytes: Uint8Array, offset: number): boolean {
  if (bytes.length < offset + 6) return false;
  const [yy, mo, dd, hh, mi, ss] = bytes.subarray(offset, offset + 6);
  return yy >= 10 && yy < 100 && mo >= 1 && mo <= 12 && dd >= 1 && dd <= 31 && hh < 24 &&
    mi < 60 && ss < 60;
}

/** 8 BCD bytes of an IMEI (15 digits behind a leading 0 nibble). */
export function looksLikeImei(bytes: Uint8Array, offset: number): boolean {
  if (bytes.length < offset + 8 || bytes[offset] >> 4 !== 0) return false;
  return bytes.subarray(offset, offset + 8).every((b) => b >> 4 < 10 && (b & 0x0f) < 10);
}
