/**
 * Accumulates what one message reports (alarms, battery, attributes…) before it becomes a
 * Position or a status message. Decoders of extra items only ever write here.
 */
import type { AlarmType, AttributeValue, DeviceMessage, Position } from "../types.ts";

export const KMH_PER_KNOT = 1.852;

export function knotsFromKmh(kmh: number): number {
  return kmh / KMH_PER_KNOT;
}

export class Readings {
  readonly attributes: Record<string, AttributeValue> = {};
  readonly alarms: AlarmType[] = [];
  battery?: number;
  signal?: number;
  satellites?: number;
  mileage?: number;
  acc?: boolean;

  set(key: string, value: AttributeValue): void {
    this.attributes[key] = value;
  }

  /** Adds an alarm once; undefined is ignored so callers can pass conditional results. */
  alarm(type: AlarmType | undefined): void {
    if (type !== undefined && !this.alarms.includes(type)) this.alarms.push(type);
  }

  /** Battery percent, clamped to the contract's 0-100. */
  batteryPercent(value: number): void {
    this.battery = Math.max(0, Math.min(100, value));
  }

  /** Raw GSM CSQ (0-31, 99 unknown): kept as `rssi`, mapped to the contract's 0-4 level. */
  rssi(csq: number): void {
    this.set("rssi", csq);
    if (csq <= 31) this.signal = csq >= 20 ? 4 : csq >= 15 ? 3 : csq >= 10 ? 2 : csq >= 5 ? 1 : 0;
  }
}

/** The location part of a report, in contract units. */
export interface Fix {
  time: Date;
  valid: boolean;
  latitude: number;
  longitude: number;
  altitude: number;
  /** Knots. */
  speed: number;
  course: number;
}

export function toPosition(fix: Fix, r: Readings): Position {
  const position: Position = {
    ...fix,
    posType: 1,
    attributes: { ...r.attributes },
  };
  if (r.satellites !== undefined) position.satellites = r.satellites;
  if (r.acc !== undefined) position.acc = r.acc;
  if (r.mileage !== undefined) position.mileage = r.mileage;
  if (r.battery !== undefined) position.battery = r.battery;
  if (r.signal !== undefined) position.signal = r.signal;
  applyAlarms(position, r);
  return position;
}

export function toStatus(time: Date, r: Readings): DeviceMessage {
  const status: Extract<DeviceMessage, { type: "status" }> = {
    type: "status",
    time,
    attributes: { ...r.attributes },
  };
  if (r.acc !== undefined) status.acc = r.acc;
  if (r.battery !== undefined) status.battery = r.battery;
  if (r.signal !== undefined) status.signal = r.signal;
  if (r.satellites !== undefined) status.attributes.sat = r.satellites;
  if (r.mileage !== undefined) status.attributes.mileage = r.mileage;
  applyAlarms(status, r);
  return status;
}

/** The contract has one alarm slot: the first one reported; all of them go to `alarms`. */
function applyAlarms(
  target: { alarm?: AlarmType; attributes: Record<string, AttributeValue> },
  r: Readings,
): void {
  if (r.alarms.length === 0) return;
  target.alarm = r.alarms[0];
  if (r.alarms.length > 1) target.attributes.alarms = r.alarms.join(",");
}
