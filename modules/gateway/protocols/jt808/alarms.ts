/** JT/T 808 alarm flag word (location report DWORD 1) → contract alarms. */
import type { AlarmType } from "../types.ts";

export type AlarmBits = ReadonlyMap<number, AlarmType>;

/**
 * JT/T 808-2013/2019 alarm flag table. Bits 15-17 are reserved by the standard but widely used
 * by vendors for vibration (15) and tamper/removal (16, 17). Fault bits (4, 9-12) and those
 * without a matching alarm type stay visible in the raw `alarmFlags` attribute only.
 */
export const STANDARD_ALARM_BITS: AlarmBits = new Map<number, AlarmType>([
  [0, "sos"], // emergency button
  [1, "overspeed"],
  [2, "fatigue"],
  [3, "general"], // danger pre-warning
  [5, "gpsAntennaCut"], // antenna disconnected
  [6, "gpsAntennaCut"], // antenna short circuit
  [7, "lowPower"], // main power under-voltage
  [8, "powerCut"], // main power off
  [13, "overspeed"], // overspeed pre-warning
  [14, "fatigue"], // fatigue pre-warning
  [15, "vibration"], // vendor use of a reserved bit
  [16, "tamper"], // vendor use of a reserved bit
  [17, "tamper"], // vendor use of a reserved bit
  [18, "fatigue"], // accumulated driving time exceeded
  [26, "general"], // vehicle stolen (VSS)
  [28, "movement"], // illegal displacement
  [29, "accident"], // collision
  [30, "accident"], // rollover
  [31, "door"], // illegal door opening
]);

export function alarmsFromWord(word: number, bits: AlarmBits): AlarmType[] {
  const out: AlarmType[] = [];
  for (const [bit, type] of bits) {
    if (bitSet(word, bit) && !out.includes(type)) out.push(type);
  }
  return out;
}

/** Bit test that also works for bit 31 (JS bitwise ops are signed 32-bit). */
export function bitSet(value: number, bit: number): boolean {
  return Math.floor(value / 2 ** bit) % 2 === 1;
}
