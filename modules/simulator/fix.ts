/** What a simulated tracker knows at one instant; every protocol builder encodes one of these. */
import type { SimSensors } from "./sensors.ts";

/** The alarms simulated devices raise. */
export type SimAlarm = "sos" | "vibration" | "powerCut";

export interface DeviceFix {
  /** Fix time (UTC). */
  time: Date;
  /** GPS fix valid. */
  valid: boolean;
  latitude: number;
  longitude: number;
  /** Metres. */
  altitude: number;
  speedKmh: number;
  /** Degrees 0-359. */
  course: number;
  satellites: number;
  /** Ignition. */
  acc: boolean;
  /** Odometer, km. */
  odometerKm: number;
  /** Backup battery, percent 0-100. */
  battery: number;
  /** GSM signal level 0-4. */
  signal: number;
  /** Mobile network of the serving cell (for the LBS fields some frames carry). */
  mcc: number;
  mnc: number;
  lac: number;
  cellId: number;
  /** Alarm raised at this instant, if any. */
  alarm?: SimAlarm;
  /** Fuel, temperatures, door, OBD, harsh driving (vehicles carry them; sampleFix does not). */
  sensors?: SimSensors;
}

export const KMH_PER_KNOT = 1.852;

/** A fix with plausible defaults; tests override what they check. */
export function sampleFix(overrides: Partial<DeviceFix> = {}): DeviceFix {
  return {
    time: new Date(Date.UTC(2024, 4, 17, 8, 30, 15)),
    valid: true,
    latitude: 22.543096,
    longitude: 114.057865,
    altitude: 35,
    speedKmh: 54,
    course: 128,
    satellites: 9,
    acc: true,
    odometerKm: 1234.5,
    battery: 83,
    signal: 4,
    mcc: 460,
    mnc: 0,
    lac: 0x2795,
    cellId: 0x0e7b9c,
    ...overrides,
  };
}

/** ASCII bytes; other characters become "?" so byte counts stay exact. */
export function asciiBytes(text: string): Uint8Array {
  return Uint8Array.from(text, (ch) => {
    const c = ch.charCodeAt(0);
    return c < 0x80 ? c : 0x3f;
  });
}

export function latin1Text(bytes: Uint8Array): string {
  let out = "";
  for (const b of bytes) out += String.fromCharCode(b);
  return out;
}

export { concatBytes } from "../../lib/bytes.ts";
