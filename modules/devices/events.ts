import type { Device } from "./model.ts";

/** Devices were imported into an account (`userId`) by `operatorId`. */
export interface DevicesImported {
  type: "devicesImported";
  userId: string;
  devices: Device[];
  operatorId: string;
}

/** Devices were sold / transferred to the account `targetId` by `operatorId`. */
export interface DevicesTransferred {
  type: "devicesTransferred";
  targetId: string;
  devices: Device[];
  operatorId: string;
}
