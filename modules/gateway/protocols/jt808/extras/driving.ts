/** Driving-behaviour and ADAS/DMS alarm items, plus driver identification items. */
import { trimControl } from "../bytes.ts";
import type { ByteReader } from "../bytes.ts";
import type { Readings } from "../readings.ts";
import type { ExtraTable } from "./types.ts";

/** 0x57: WORD behaviour alarms (bits 8-10), WORD switches, DWORD extra alarms. */
export function decodeBehaviourAlarms(v: ByteReader, out: Readings): number {
  const bits = v.u16();
  if (bits & 0x0100) out.alarm("harshAcceleration");
  if (bits & 0x0200) out.alarm("harshBraking");
  if (bits & 0x0400) out.alarm("harshCornering");
  v.skip(2); // external switch state
  return v.u32();
}

/** JT/T 1078 active-safety (ADAS 0x64 / DMS 0x65) items; the 16-byte alarm label ends the item. */
const ACTIVE_SAFETY_LABEL_BYTES = 16;
const ACTIVE_SAFETY_MIN_WITH_LABEL = 47;

export const DRIVING_EXTRAS: ExtraTable = {
  0x57: (v, out) => {
    decodeBehaviourAlarms(v, out);
  },
  0x64: (v, out, ctx) => decodeActiveSafety(v, out, ctx.length, "adasAlarm"),
  0x65: (v, out, ctx) => decodeActiveSafety(v, out, ctx.length, "dmsAlarm"),
  // Alarm id, status, type.
  0x70: (v, out) => {
    v.skip(5);
    const type = v.u8();
    if (type === 0x01) out.alarm("harshAcceleration");
    else if (type === 0x02) out.alarm("harshBraking");
    else if (type === 0x03) out.alarm("harshCornering");
    else if (type === 0x16) out.alarm("accident");
  },
  0xbc: (v, out, ctx) => out.set("driver", trimControl(v.latin1(ctx.length))),
  0xbd: (v, out, ctx) => out.set("driverUniqueId", v.latin1(ctx.length)),
  // User status word: bit 3 vibration.
  0xd0: (v, out) => {
    if (v.u32() & 0x08) out.alarm("vibration");
  },
  0xed: (v, out, ctx) => out.set("card", trimControl(v.latin1(ctx.length))),
};

function decodeActiveSafety(v: ByteReader, out: Readings, length: number, key: string): void {
  v.skip(5); // alarm id, status
  out.set(key, v.u8());
  if (length >= ACTIVE_SAFETY_MIN_WITH_LABEL) {
    v.skip(v.remaining - ACTIVE_SAFETY_LABEL_BYTES);
    out.set("alarmLabel", v.hex(ACTIVE_SAFETY_LABEL_BYTES));
  }
}
