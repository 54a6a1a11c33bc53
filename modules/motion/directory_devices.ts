/** The motion engine's view of the devices (MotionDevices), read from the device directory. */
import type { DeviceDirectory } from "../devices/directory.ts";
import type { MotionDevices } from "./engine.ts";

export function directoryDevices(
  directory: Pick<DeviceDirectory, "get" | "state" | "owners" | "ownedBy">,
  /** The device's own overspeed threshold (its alert settings), null when it has none. */
  overspeedKmh: (imei: string) => number | null = () => null,
): MotionDevices {
  return {
    owner: (imei) => directory.get(imei)?.userId,
    overspeedKmh,
    imeisOf: (userId) => directory.ownedBy(userId).map((d) => d.imei),
    *fixTimes() {
      for (const userId of directory.owners()) {
        for (const d of directory.ownedBy(userId)) {
          yield { imei: d.imei, userId, gpsTime: directory.state(d.imei)?.gpsTime ?? null };
        }
      }
    },
    lastHeard: (imei) => directory.state(imei)?.hbTime ?? null,
  };
}
