/** Minimal GT06 device-side frames for gateway tests (the simulator has the full set). */
import { buildFrame } from "../../modules/gateway/protocols/gt06/frame.ts";

export function gt06Login(imei: string, serial = 1): Uint8Array {
  const digits = imei.padStart(16, "0");
  const bcd = new Uint8Array(8);
  for (let i = 0; i < 8; i++) bcd[i] = (Number(digits[2 * i]) << 4) | Number(digits[2 * i + 1]);
  return buildFrame(0x01, serial, bcd);
}

/** A GT06 date and time: six binary bytes, UTC (year − 2000, month, day, hour, minute, second). */
export function gt06Time(t: Date): number[] {
  return [
    t.getUTCFullYear() - 2000,
    t.getUTCMonth() + 1,
    t.getUTCDate(),
    t.getUTCHours(),
    t.getUTCMinutes(),
    t.getUTCSeconds(),
  ];
}

/** A 0x12 GPS location: time UTC, positive (north/east) coordinates, speed km/h. */
export function gt06Location(
  p: { time: Date; lat: number; lng: number; speedKmh: number; course: number },
  serial = 2,
): Uint8Array {
  const c = new Uint8Array(26);
  c.set(gt06Time(p.time), 0);
  c[6] = 0xc9; // 12 bytes of GPS data, 9 satellites
  const view = new DataView(c.buffer);
  view.setUint32(7, Math.round(p.lat * 1_800_000));
  view.setUint32(11, Math.round(p.lng * 1_800_000));
  c[15] = Math.round(p.speedKmh);
  // bit12 positioned, bit10 north, east = 0; low 10 bits course.
  view.setUint16(16, (1 << 12) | (1 << 10) | (p.course & 0x3ff));
  view.setUint16(18, 460); // MCC
  c[20] = 0; // MNC
  view.setUint16(21, 0x2a6f); // LAC
  c.set([0x00, 0x12, 0x34], 23); // cell id
  return buildFrame(0x12, serial, c);
}

export function gt06Heartbeat(serial = 3): Uint8Array {
  return buildFrame(0x13, serial, new Uint8Array([0x46, 0x06, 0x04, 0x00, 0x02]));
}
