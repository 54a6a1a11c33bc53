import type { AlertRecord } from "./store.ts";

/**
 * A device crossed a zone's boundary (published by the alert engine for every enter and exit,
 * whatever the zone's alert settings; the motion analysis pairs them into visits).
 */
export interface FenceCrossed {
  type: "fenceCrossed";
  imei: string;
  userId: string;
  fenceId: string;
  fenceName: string;
  /** Fix time of the crossing (epoch ms). */
  time: number;
  dir: "enter" | "exit";
}

/** An alert was stored: a device alarm (by the gateway) or one the alert engine raised. */
export interface AlertRaised {
  type: "alert";
  imei: string;
  userId: string;
  alert: AlertRecord;
}
