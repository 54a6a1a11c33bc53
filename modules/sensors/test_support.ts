/** A stored fix for the sensor tests: a vehicle in Shenzhen with ACC on and the given readings. */
import type { StoredPosition } from "../devices/model.ts";

export function fixAt(
  time: number,
  attributes: StoredPosition["attributes"],
  speed = 0,
): StoredPosition {
  return {
    time,
    lat: 22.5431,
    lng: 114.0579,
    speed,
    course: 0,
    altitude: 0,
    satellites: 9,
    posType: 1,
    valid: true,
    acc: true,
    mileage: null,
    battery: 80,
    signal: 4,
    attributes,
  };
}
