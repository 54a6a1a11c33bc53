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

/**
 * T/JSATL12 active-safety items (ADAS 0x64, DMS 0x65, TPMS 0x66, BSD 0x67); the 16-byte alarm
 * label (terminal id, BCD time, sequence, attachment count, reserved) ends ADAS, DMS and BSD,
 * and precedes TPMS's tyre list. `safetyFamily` names the item, the label is what 0x9208 asks for.
 */
const ACTIVE_SAFETY_LABEL_BYTES = 16;
const ACTIVE_SAFETY_MIN_WITH_LABEL = 47;
/** TPMS: DWORD id, BYTE flag, BYTE speed, WORD altitude, 2 DWORD, BCD[6], WORD status = 24. */
const TPMS_LABEL_AT = 24;
/** BSD: DWORD id, BYTE flag, BYTE type, BYTE speed, WORD altitude, 2 DWORD, BCD[6], WORD = 25. */
const BSD_LABEL_AT = 25;

export const DRIVING_EXTRAS: ExtraTable = {
  0x57: (v, out) => {
    decodeBehaviourAlarms(v, out);
  },
  0x64: (v, out, ctx) => decodeActiveSafety(v, out, ctx.length, "adasAlarm"),
  0x65: (v, out, ctx) => decodeActiveSafety(v, out, ctx.length, "dmsAlarm"),
  0x66: (v, out, ctx) => {
    if (ctx.length < TPMS_LABEL_AT + ACTIVE_SAFETY_LABEL_BYTES) return;
    v.skip(TPMS_LABEL_AT);
    safetyLabel(v, out, "tpms", 0);
  },
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
  const type = v.u8();
  out.set(key, type);
  if (length >= ACTIVE_SAFETY_MIN_WITH_LABEL) {
    v.skip(v.remaining - ACTIVE_SAFETY_LABEL_BYTES);
    safetyLabel(v, out, key === "adasAlarm" ? "adas" : "dms", type);
  }
}

/** 0x67 is a BSD item at its length, otherwise a lock vendor's 8-byte password (locks.ts). */
export function decodeBlindSpot(v: ByteReader, out: Readings, length: number): boolean {
  if (length !== BSD_LABEL_AT + ACTIVE_SAFETY_LABEL_BYTES) return false;
  v.skip(6);
  const type = v.u8();
  out.set("bsdAlarm", type);
  v.skip(BSD_LABEL_AT - 7);
  safetyLabel(v, out, "bsd", type);
  return true;
}

/** The alarm label and what the video module needs of it (family, type, attachment count). */
function safetyLabel(v: ByteReader, out: Readings, family: string, type: number): void {
  const label = v.bytes(ACTIVE_SAFETY_LABEL_BYTES);
  let hex = "";
  for (const b of label) hex += b.toString(16).padStart(2, "0");
  out.set("alarmLabel", hex);
  out.set("safetyFamily", family);
  out.set("safetyType", type);
  out.set("safetyFiles", label[14]);
}
