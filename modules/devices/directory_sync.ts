import type { CacheSync } from "../../lib/cluster/cache_sync.ts";
import type { DeviceDirectory } from "./directory.ts";

/** Sync areas of the device directory (tp.sync.<area>). */
export const DEVICE_SYNC = { devices: "devices", states: "deviceStates" } as const;

/** Ids per message: an import of 10,000 devices is a few messages, not one huge one. */
const IDS_PER_MESSAGE = 1000;

/**
 * Cluster mode: keeps every instance's DeviceDirectory in step with the store. Device records
 * (import, transfer, edits, expiry, enabling — every write goes through the directory) are
 * announced after their commit and re-read elsewhere; device states are announced after each
 * batched flush and taken elsewhere when newer. A login of a device this instance has not heard
 * of reads the store (readsThrough), so even a lost message delays nothing.
 * Single mode: nothing is installed.
 */
export function syncDirectory(directory: DeviceDirectory, sync: CacheSync): () => void {
  if (!sync.active) return () => {};
  const announce = (area: string) => (imeis: string[]) => {
    for (let i = 0; i < imeis.length; i += IDS_PER_MESSAGE) {
      sync.publish(area, imeis.slice(i, i + IDS_PER_MESSAGE));
    }
  };
  directory.onWritten = announce(DEVICE_SYNC.devices);
  directory.onStatesSaved = announce(DEVICE_SYNC.states);
  directory.readsThrough = true;
  const stops = [
    sync.on(DEVICE_SYNC.devices, (imeis) => directory.reload(imeis)),
    sync.on(DEVICE_SYNC.states, (imeis) => directory.reloadStates(imeis)),
  ];
  return () => stops.forEach((stop) => stop());
}
