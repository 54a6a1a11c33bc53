/**
 * The H02 32-bit vehicle status word (`FFFFFBFF` in text frames, 4 bytes in binary ones).
 *
 * Negative logic: a bit at 0 means the condition is active, so an idle device reports all
 * ones. Bit numbers count from the least significant bit of the word (bit 0 is the last
 * hex digit's lowest bit). Only bits that the published H02 tables agree on are mapped;
 * the raw word is always kept as the `status` attribute.
 */

import type { AlarmType, AttributeValue } from "../types.ts";

export interface StatusInfo {
  acc: boolean;
  alarm?: AlarmType;
  attributes: Record<string, AttributeValue>;
}

/** Alarm bits in priority order: the contract carries one alarm per position. */
const ALARM_BITS: ReadonlyArray<readonly [bit: number, alarm: AlarmType]> = [
  [1, "sos"], // robbery / SOS button
  [19, "powerCut"], // running on the backup battery: main power lost
  [0, "vibration"], // theft (shock) alarm
  [2, "overspeed"],
  [4, "geofenceEnter"],
  [7, "geofenceExit"],
  [5, "gpsAntennaCut"],
];

const ACC_ON_BIT = 10; // 0 = ACC off
const DOOR_OPEN_BIT = 8;
const ARMED_BIT = 9;
const FUEL_CUT_BIT = 27; // oil and engine cut off (set by the S20 command)

function isActive(status: number, bit: number): boolean {
  // `>>>` keeps bit 31 unsigned.
  return ((status >>> bit) & 1) === 0;
}

export function decodeStatus(status: number): StatusInfo {
  const alarm = ALARM_BITS.find(([bit]) => isActive(status, bit))?.[1];
  const attributes: Record<string, AttributeValue> = { status };
  if (isActive(status, DOOR_OPEN_BIT)) attributes.door = true;
  if (isActive(status, ARMED_BIT)) attributes.armed = true;
  if (isActive(status, FUEL_CUT_BIT)) attributes.blocked = true;
  const info: StatusInfo = { acc: !isActive(status, ACC_ON_BIT), attributes };
  if (alarm) info.alarm = alarm;
  return info;
}
