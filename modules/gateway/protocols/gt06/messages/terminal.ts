/** Terminal information byte, voltage level, GSM signal and alarm codes. */

import type { AlarmType } from "../../types.ts";
import type { ByteReader } from "../reader.ts";
import type { Telemetry } from "./context.ts";

/** Terminal-info bits 3-5 (the GT06 "status" alarm). */
const STATUS_ALARMS: Record<number, AlarmType> = {
  1: "vibration",
  2: "powerCut",
  3: "lowBattery",
  4: "sos",
  7: "removing",
};

/**
 * Terminal information: bit 0 armed, 1 ACC, 2 charging, 3-5 alarm, 6 GPS tracking on,
 * 7 oil/electricity cut.
 */
export function applyTerminalInfo(t: Telemetry, info: number): void {
  t.acc = (info & 0x02) !== 0;
  t.attributes.armed = (info & 0x01) !== 0;
  t.attributes.charging = (info & 0x04) !== 0;
  t.attributes.blocked = (info & 0x80) !== 0;
  const alarm = STATUS_ALARMS[(info >> 3) & 0x07];
  if (alarm) t.alarm = alarm;
}

/** Voltage level 0-6 is a coarse gauge; some firmwares send a percentage instead. */
export function applyVoltageLevel(t: Telemetry, level: number): void {
  if (level <= 6) t.battery = Math.round((level * 100) / 6);
  else if (level <= 100) t.battery = level;
}

/** GSM signal strength 0-4; larger values are raw RSSI from other firmwares. */
export function applyGsmSignal(t: Telemetry, value: number): void {
  if (value <= 4) t.signal = value;
  else t.attributes.rssi = value;
}

/** Alarm byte of the status block ("alarm/language" in the GT06 documents). */
const ALARM_CODES: Record<number, AlarmType> = {
  0x01: "sos",
  0x02: "powerCut",
  0x03: "vibration",
  0x04: "geofenceEnter",
  0x05: "geofenceExit",
  0x06: "overspeed",
  0x09: "vibration",
  0x0c: "tamper",
  0x0e: "lowBattery",
  0x0f: "lowBattery",
  0x11: "powerOff",
  0x13: "tamper",
  0x14: "door",
  0x18: "removing",
  0x19: "lowBattery",
  0x1a: "harshBraking",
  0x1b: "harshCornering",
  0x23: "fall",
  0x25: "tamper",
  0x28: "harshBraking",
  0x29: "harshAcceleration",
  0x2a: "harshCornering",
  0x2b: "harshCornering",
  0x2c: "accident",
  // GPS jamming: the contract has no jamming type, keep it visible as a generic alarm.
  0x30: "general",
};

/** Model families that reuse codes with another meaning. */
const MODEL_ALARM_CODES: {
  matches: (model: string) => boolean;
  codes: Record<number, AlarmType>;
}[] = [
  { matches: (m) => m.startsWith("LW"), codes: { 0x18: "accident", 0x19: "harshAcceleration" } },
  { matches: (m) => m === "G18", codes: { 0x30: "harshBraking" } },
];

export function alarmFromCode(code: number, model: string): AlarmType | undefined {
  for (const family of MODEL_ALARM_CODES) {
    if (family.matches(model) && family.codes[code]) return family.codes[code];
  }
  return ALARM_CODES[code];
}

/**
 * Records the raw code as `event` and maps it to an alarm unless the terminal-info bits
 * already raised one (those are the device's primary state; the code is a refinement).
 */
export function applyAlarmCode(t: Telemetry, code: number, model: string): void {
  if (code === 0) return;
  t.attributes.event = code;
  if (!t.alarm) t.alarm = alarmFromCode(code, model);
}

export const STATUS_BLOCK = 5;

/** The common 5-byte block: terminal info, voltage level, GSM signal, alarm, language. */
export function readStatusBlock(r: ByteReader, t: Telemetry, model: string): void {
  applyTerminalInfo(t, r.u8());
  applyVoltageLevel(t, r.u8());
  applyGsmSignal(t, r.u8());
  applyAlarmCode(t, r.u8(), model);
  r.skip(1); // language
}
