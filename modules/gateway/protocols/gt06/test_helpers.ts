/** Builders for hand-made GT06 frames used by the unit tests. */

import { buildFrame } from "./frame.ts";

export function bytes(...parts: (number | number[] | Uint8Array)[]): Uint8Array {
  const flat: number[] = [];
  for (const part of parts) {
    if (typeof part === "number") flat.push(part);
    else flat.push(...part);
  }
  return Uint8Array.from(flat);
}

export function u16(value: number): number[] {
  return [(value >> 8) & 0xff, value & 0xff];
}

export function u32(value: number): number[] {
  return [(value >>> 24) & 0xff, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff];
}

export interface GpsFields {
  /** [yy, mm, dd, hh, mi, ss] */
  time: number[];
  satellites: number;
  latitude: number;
  longitude: number;
  speedKmh: number;
  course: number;
  valid?: boolean;
  acc?: boolean;
}

/** The 18-byte GPS block; hemisphere bits are derived from the coordinate signs. */
export function gpsBlock(g: GpsFields): number[] {
  let flags = g.course & 0x3ff;
  if (g.latitude >= 0) flags |= 0x0400;
  if (g.longitude < 0) flags |= 0x0800;
  if (g.valid !== false) flags |= 0x1000;
  if (g.acc !== undefined) flags |= 0x4000 | (g.acc ? 0x8000 : 0);
  return [
    ...g.time,
    0xc0 | g.satellites,
    ...u32(Math.round(Math.abs(g.latitude) * 1_800_000)),
    ...u32(Math.round(Math.abs(g.longitude) * 1_800_000)),
    g.speedKmh,
    ...u16(flags),
  ];
}

export const frame = buildFrame;

export function hex(data: Uint8Array): string {
  return Array.from(data, (b) => b.toString(16).padStart(2, "0")).join("");
}
