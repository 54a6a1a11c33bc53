import type { DeviceStatus, StoredPosition } from "../devices/model.ts";
import type { AlertRaised } from "../alerts/events.ts";

/** A located fix was stored and moved the device's live position (after its commit). */
export interface PositionStored {
  type: "position";
  imei: string;
  userId: string;
  position: StoredPosition;
}

/**
 * Every located fix one commit stored for one device (also those older than its live state:
 * history a device uploads after a reconnect), in the order it sent them; once per commit and
 * device, after the commit. `points` is the commit's own array: handlers must not change it.
 */
export interface PositionsCommitted {
  type: "positionsCommitted";
  imei: string;
  userId: string;
  points: readonly StoredPosition[];
}

/** A device's derived status changed (moving, idling, stopped, offline…). */
export interface DeviceStatusChanged {
  type: "status";
  imei: string;
  userId: string;
  status: DeviceStatus;
  previous: DeviceStatus;
}

/** A device's connection attached (online) or went away (offline). */
export interface DeviceConnection {
  type: "connection";
  imei: string;
  userId: string;
  connected: boolean;
}

/** What live pages and other areas hear from the gateway, after it is stored. */
export type GatewayEvent =
  | PositionStored
  | PositionsCommitted
  | DeviceStatusChanged
  | AlertRaised
  | DeviceConnection;
