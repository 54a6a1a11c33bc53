/**
 * `alarm=` values of OsmAnd requests (Traccar's alarm names, as Traccar Client and scripts send
 * them) → the alarm types the binary protocols raise, so an SOS from a phone becomes the same
 * alert as an SOS from a GT06. Names without a type of their own become "general"; the name
 * sent is kept in the `alarmName` attribute when it differs from the type (the stored `alarm`
 * attribute is the type).
 */
import type { AlarmType } from "../types.ts";

const ALARMS: ReadonlyMap<string, AlarmType> = new Map<string, AlarmType>([
  ["sos", "sos"],
  ["general", "general"],
  ["vibration", "vibration"],
  ["shock", "vibration"],
  ["movement", "movement"],
  ["tow", "movement"],
  ["overspeed", "overspeed"],
  ["fallDown", "fall"],
  ["lowPower", "lowPower"],
  ["lowBattery", "lowBattery"],
  ["powerOff", "powerOff"],
  ["powerOn", "powerOn"],
  ["powerRestored", "powerOn"],
  ["powerCut", "powerCut"],
  ["door", "door"],
  ["bonnet", "door"],
  ["geofenceEnter", "geofenceEnter"],
  ["geofenceExit", "geofenceExit"],
  ["gpsAntennaCut", "gpsAntennaCut"],
  ["accident", "accident"],
  ["hardAcceleration", "harshAcceleration"],
  ["hardBraking", "harshBraking"],
  ["hardCornering", "harshCornering"],
  ["fatigueDriving", "fatigue"],
  ["jamming", "tamper"],
  ["tampering", "tamper"],
  ["removing", "removing"],
  ["temperature", "temperature"],
  // Traccar alarms with no type of their own here: an alert all the same.
  ["fault", "general"],
  ["lock", "general"],
  ["unlock", "general"],
  ["geofence", "general"],
  ["idle", "general"],
  ["highRpm", "general"],
  ["laneChange", "general"],
  ["parking", "general"],
  ["footBrake", "general"],
  ["fuelLeak", "general"],
]);

/**
 * The alarm type of an `alarm=` value; undefined for a name Traccar does not define (kept as
 * an attribute only). Traccar joins several alarms with commas: the first known one counts.
 */
export function osmAndAlarm(value: string): AlarmType | undefined {
  for (const name of value.split(",")) {
    const type = ALARMS.get(name.trim());
    if (type) return type;
  }
  return undefined;
}
