/**
 * Binary H02 reports, marker `$` (or `X` on some firmwares), all BCD except the status:
 *
 *   marker 1 | id 5 (10 digits; 8 bytes = IMEI + pad nibble on some models)
 *   | hhmmss 3 | ddmmyy 3 | lat ddmmmmmm 4 | battery 1 | lon dddmmmmmm + flags nibble 5
 *   | speed (knots) 3 digits + course 3 digits 3 | status 4 | model-specific tail
 *
 * Flags nibble: bit 1 valid fix, bit 2 north, bit 3 east. The 45-byte variant's tail
 * carries the serving cell (MCC 2, MNC 1, LAC 2, CID 2) at bytes 8-14 of the tail.
 */

import type { Position } from "../types.ts";
import { parseDateTime } from "./fields.ts";
import { addServingCell, applyStatus, gpsPosition } from "./position.ts";

export interface BinaryDecoded {
  id: string;
  position: Position;
}

/** Bytes after the id: time 3, date 3, lat 4, battery 1, lon 5, speed/course 3, status 4. */
const BODY_LENGTH = 23;
const LONG_FRAME_LENGTH = 45;
const IMEI_FRAME_LENGTH = 42;

export function decodeBinary(frame: Uint8Array): BinaryDecoded | undefined {
  // The id width is not signalled; the 42-byte model uses an 8-byte IMEI, the rest
  // 5 bytes. Whichever layout yields a valid date and location wins.
  const idWidths = frame.length === IMEI_FRAME_LENGTH ? [8, 5] : [5, 8];
  for (const idWidth of idWidths) {
    const decoded = decodeLayout(frame, idWidth);
    if (decoded) return decoded;
  }
  return undefined;
}

function decodeLayout(frame: Uint8Array, idWidth: number): BinaryDecoded | undefined {
  const body = 1 + idWidth;
  if (frame.length < body + BODY_LENGTH) return undefined;
  const idDigits = nibbles(frame, 1, idWidth);
  // An 8-byte id is a 15-digit IMEI plus one pad nibble.
  const id = idWidth === 8 ? idDigits.slice(0, 15) : idDigits;
  if (!/^\d+$/.test(id)) return undefined;

  const time = parseDateTime(nibbles(frame, body, 3), nibbles(frame, body + 3, 3));
  if (!time) return undefined;
  const latDigits = nibbles(frame, body + 6, 4);
  const lonNibbles = nibbles(frame, body + 11, 5);
  const flags = parseInt(lonNibbles[9], 16);
  const latitude = degrees(latDigits, 2, 90);
  const longitude = degrees(lonNibbles.slice(0, 9), 3, 180);
  const speedCourse = nibbles(frame, body + 16, 3);
  if (latitude === undefined || longitude === undefined || !/^\d{6}$/.test(speedCourse)) {
    return undefined;
  }

  const position = gpsPosition({
    time,
    valid: (flags & 0x2) !== 0,
    latitude: (flags & 0x4) !== 0 ? latitude : -latitude,
    longitude: (flags & 0x8) !== 0 ? longitude : -longitude,
    speed: Number(speedCourse.slice(0, 3)),
    course: Number(speedCourse.slice(3)) % 360,
  });
  const battery = batteryPercent(frame[body + 10]);
  if (battery !== undefined) position.battery = battery;
  applyStatus(position, readUint32(frame, body + 19));
  if (idWidth === 5 && frame.length === LONG_FRAME_LENGTH) {
    readServingCell(position, frame, body + 23);
  }
  return { id, position };
}

/** `ddmm` + 4 minute decimals (3 degree digits for longitude) into degrees. */
function degrees(digits: string, degreeDigits: number, max: number): number | undefined {
  if (!/^\d+$/.test(digits)) return undefined;
  const minutes = Number(digits.slice(degreeDigits)) / 10000;
  const value = Number(digits.slice(0, degreeDigits)) + minutes / 60;
  return minutes < 60 && value <= max ? value : undefined;
}

/**
 * The battery byte is either a 1-6 level (6 = full) or already a percentage; 0 and values
 * above 100 (charging markers on some firmwares) carry no level.
 */
function batteryPercent(value: number): number | undefined {
  if (value >= 1 && value <= 6) return (value - 1) * 20;
  if (value > 6 && value <= 100) return value;
  return undefined;
}

function readServingCell(position: Position, frame: Uint8Array, tail: number): void {
  const mcc = (frame[tail + 8] << 8) | frame[tail + 9];
  if (mcc < 200 || mcc > 799) return; // not a real country code: another tail layout
  addServingCell(position, {
    mcc,
    mnc: frame[tail + 10],
    lac: (frame[tail + 11] << 8) | frame[tail + 12],
    cid: (frame[tail + 13] << 8) | frame[tail + 14],
  });
}

/** Hex nibbles of `length` bytes from `offset`; BCD fields are valid when all are digits. */
function nibbles(frame: Uint8Array, offset: number, length: number): string {
  let text = "";
  for (const byte of frame.subarray(offset, offset + length)) {
    text += byte.toString(16).padStart(2, "0");
  }
  return text;
}

function readUint32(frame: Uint8Array, offset: number): number {
  return new DataView(frame.buffer, frame.byteOffset, frame.byteLength).getUint32(offset);
}
