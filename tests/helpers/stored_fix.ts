/** A stored fix for tests: where and when, the rest a plain valid GPS fix unless given. */
import type { StoredPosition } from "../../modules/devices/model.ts";

export function storedFix(
  fix: Pick<StoredPosition, "time" | "lat" | "lng"> & Partial<StoredPosition>,
): StoredPosition {
  return {
    speed: 0,
    course: 90,
    altitude: 10,
    satellites: 9,
    posType: 1,
    valid: true,
    acc: true,
    mileage: null,
    battery: null,
    signal: null,
    attributes: {},
    ...fix,
  };
}
