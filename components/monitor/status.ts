/** Status colours shared by the map, the list, the legend and the charts. */
import type { DeviceStatus } from "../../modules/devices/model.ts";

export const STATUS_COLORS: Record<DeviceStatus, string> = {
  moving: "#1f9d55",
  idling: "#f08c00",
  stopped: "#3b7aff",
  offline: "#8a94a6",
  sleeping: "#7c6bd6",
  poweredOff: "#59606b",
  inactive: "#c3c9d4",
};
