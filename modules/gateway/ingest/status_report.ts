import type { Device, StoredPosition } from "../../devices/model.ts";
import type { StatusReported } from "../events.ts";
import type { AttributeValue } from "../protocols/types.ts";

export function hasKeys(o: object): boolean {
  for (const _ in o) return true;
  return false;
}

/** The sensor readings' view of a report without a stored fix, placed at the last known fix. */
export function statusReported(
  device: Device,
  time: number,
  m: { battery?: number | null; alarm?: string; attributes: Record<string, AttributeValue> },
  at: StoredPosition | null,
): StatusReported {
  return {
    type: "statusReported",
    imei: device.imei,
    userId: device.userId,
    time,
    battery: m.battery ?? null,
    attributes: m.attributes,
    alarm: m.alarm ?? null,
    lat: at?.lat ?? null,
    lng: at?.lng ?? null,
  };
}
