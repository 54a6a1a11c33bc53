/** A stored fix of a generated track: point `i` at time `t`, creeping north near Shenzhen. */
import type { StoredPosition } from "../../modules/devices/model.ts";
import { storedFix } from "./stored_fix.ts";

export function trackPoint(t: number, i: number): StoredPosition {
  return storedFix({ time: t, lat: 22.5 + (i % 1000) * 1e-5, lng: 114.05, speed: 40 });
}
