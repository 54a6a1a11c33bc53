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

/**
 * A driver identity report (JT/T 808 0x0702 card inserted/removed; an RFID card id in a GT06,
 * OsmAnd… fix: `swipe`, whose in/out the fleet works out). Kept in the gateway's commit through
 * the DriverIdentityJournal port, so the device is acknowledged only once it is stored.
 */
export interface DriverIdentity {
  /** Stable per device, time and card: a report resent after a lost ack is the same one. */
  id: string;
  imei: string;
  /** ISO time the card was read (device time). */
  time: string;
  type: "in" | "out" | "swipe";
  /** JT/T 808: the qualification certificate code; others: the card id. "" when absent. */
  cardNo: string;
  name: string;
  issuer: string;
  /** YYYY-MM-DD or "". */
  certificateExpiry: string;
  /** JT/T 808 IC card read result (0 success); 0 elsewhere. */
  readResult: number;
  /** Where the device was (its last known fix), null when it never had one. */
  lat: number | null;
  lng: number | null;
}

export interface DriverIdentified {
  type: "driverIdentified";
  imei: string;
  userId: string;
  identity: DriverIdentity;
}

/** Where the gateway's commit keeps driver identities (the fleet module's store implements it). */
export interface DriverIdentityJournal {
  addTo(op: Deno.AtomicOperation, userId: string, identity: DriverIdentity): void;
}

/**
 * What a status message (no fix: a heartbeat, a sensor or OBD packet) reported, after its
 * commit: the sensor readings keep its attributes, which the device state does not.
 */
export interface StatusReported {
  type: "statusReported";
  imei: string;
  userId: string;
  /** Epoch ms (the message's time). */
  time: number;
  /** Battery percent, null when not reported. */
  battery: number | null;
  /** The decoded message's own object: handlers must not change it. */
  attributes: Record<string, string | number | boolean>;
  /** The alarm the message raised (harsh driving is a sensor event too), null when none. */
  alarm: string | null;
  /** Where the device was (its last known fix), null when it never had one. */
  lat: number | null;
  lng: number | null;
}

/** What live pages and other areas hear from the gateway, after it is stored. */
export type GatewayEvent =
  | PositionStored
  | PositionsCommitted
  | StatusReported
  | DeviceStatusChanged
  | AlertRaised
  | DeviceConnection
  | DriverIdentified;
