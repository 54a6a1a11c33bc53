/** Optional trailing fields that several location packets append after the cell block. */

import type { Position } from "../../types.ts";
import type { ByteReader } from "../reader.ts";
import { toHex } from "../reader.ts";

/** ACC, data upload mode, re-upload flag (JM-VL03 style GPS packets). */
export function readIgnitionTail(r: ByteReader, p: Position): void {
  p.acc = r.u8() > 0;
  p.attributes.uploadMode = r.u8();
  p.attributes.archive = r.u8() > 0;
}

/** Seeworld 0x22 tail after ACC/upload: odometer, trip time, temperature, humidity. */
export function readSeeworldTail(r: ByteReader, p: Position): void {
  setOdometerMeters(p, r.u32());
  r.skip(4); // trip time
  p.attributes.temp1 = signMagnitude16(r.u16()) / 100;
  p.attributes.humidity = r.u16() / 100;
}

/** Odometer in metres → Position.mileage in km. */
export function setOdometerMeters(p: { mileage?: number }, meters: number): void {
  p.mileage = meters / 1000;
}

/** Engine hours, kept in hours. */
export function setEngineHours(p: Position, hours: number): void {
  p.attributes.hours = hours;
}

/** An 8-byte id card / iButton number, hex; all-zero means "no card". */
export function setDriverId(p: Position, bytes: Uint8Array): void {
  if (bytes.some((b) => b !== 0)) p.attributes.driverUniqueId = toHex(bytes);
}

/** Extension modules: id (2), length (1), value. Only a few ids are documented. */
export function readShortModules(r: ByteReader, p: Position): void {
  while (r.remaining >= 3) {
    const id = r.u16();
    const value = r.bytesOf(r.u8());
    if (id === 0x0027 && value.length >= 2) p.attributes.power = ((value[0] << 8) | value[1]) / 100;
    if (id === 0x002e && value.length >= 4) setOdometerMeters(p, readUintBE(value));
    if (id === 0x003b && value.length >= 2) {
      p.attributes.accuracy = ((value[0] << 8) | value[1]) / 100;
    }
  }
}

export function readUintBE(bytes: Uint8Array): number {
  let value = 0;
  for (const b of bytes) value = value * 256 + b;
  return value;
}

/** Sign-magnitude temperature byte: bit 7 set means below zero. */
export function signMagnitude8(value: number): number {
  return value & 0x80 ? -(value & 0x7f) : value;
}

/** Sign-magnitude 16-bit value: bit 15 set means negative. */
export function signMagnitude16(value: number): number {
  return value & 0x8000 ? -(value & 0x7fff) : value;
}
