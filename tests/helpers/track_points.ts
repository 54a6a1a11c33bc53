/** A stored fix of a generated track: point `i` at time `t`, creeping north near Shenzhen. */
import type { StoredPosition } from "../../modules/devices/model.ts";

export function trackPoint(t: number, i: number): StoredPosition {
  return {
    time: t,
    lat: 22.5 + (i % 1000) * 1e-5,
    lng: 114.05,
    speed: 40,
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
  };
}
