/** Builders for the Position objects every H02 form produces. */

import type { AttributeValue, Position } from "../types.ts";
import { decodeStatus } from "./status.ts";

export interface CellTower {
  mcc: number;
  mnc: number;
  lac: number;
  cid: number;
  rssi?: number;
}

export interface GpsFix {
  time: Date;
  valid: boolean;
  latitude: number;
  longitude: number;
  /** Knots. */
  speed: number;
  course: number;
}

export function gpsPosition(fix: GpsFix): Position {
  return { ...fix, altitude: 0, posType: 1, attributes: {} };
}

/**
 * A cell-tower-only report. The contract has no "no location" position, so latitude and
 * longitude are 0 with `valid: false` and posType 2; the towers travel as attributes for
 * a later LBS lookup.
 */
export function lbsPosition(time: Date, mcc: number, mnc: number, cells: CellTower[]): Position {
  const attributes: Record<string, AttributeValue> = { mcc, mnc };
  const serving = cells[0];
  if (serving) {
    attributes.lac = serving.lac;
    attributes.cid = serving.cid;
    attributes.cellTowers = JSON.stringify(cells);
  }
  return {
    time,
    valid: false,
    latitude: 0,
    longitude: 0,
    altitude: 0,
    speed: 0,
    course: 0,
    posType: 2,
    attributes,
  };
}

/** Adds ignition, alarm and status-word attributes when the frame carried a status word. */
export function applyStatus(position: Position, status: number | undefined): Position {
  if (status === undefined) return position;
  const info = decodeStatus(status);
  position.acc = info.acc;
  if (info.alarm) position.alarm = info.alarm;
  Object.assign(position.attributes, info.attributes);
  return position;
}

/**
 * Adds the serving cell some V1 variants and the long binary form append. All-zero
 * LAC/CID is the firmware's placeholder for "unknown": only the network is kept then.
 */
export function addServingCell(position: Position, cell: CellTower): void {
  Object.assign(position.attributes, { mcc: cell.mcc, mnc: cell.mnc });
  if (cell.lac !== 0 || cell.cid !== 0) {
    Object.assign(position.attributes, { lac: cell.lac, cid: cell.cid });
  }
}
