/**
 * Cell towers and Wi-Fi access points from the query form:
 * `cell=mcc,mnc,lac,cid[,rssi]` and `wifi=mac,rssi`, each repeatable.
 */

import type { AttributeValue } from "../types.ts";
import { parseDecimal } from "./values.ts";

export interface CellTower {
  mcc: number;
  mnc: number;
  lac: number;
  cid: number;
  rssi?: number;
}

export interface WifiAccessPoint {
  macAddress: string;
  signalStrength?: number;
}

const MAC_ADDRESS = /^[0-9A-Fa-f]{2}([-:][0-9A-Fa-f]{2}){5}$/;

export function parseCell(raw: string): CellTower | undefined {
  const parts = raw.split(",");
  if (parts.length < 4 || parts.length > 5) return undefined;
  const numbers = parts.map((part) => parseDecimal(part));
  if (numbers.some((value) => value === undefined || !Number.isInteger(value))) return undefined;
  const [mcc, mnc, lac, cid, rssi] = numbers as number[];
  if (mcc < 0 || mnc < 0 || lac < 0 || cid < 0) return undefined;
  return rssi === undefined ? { mcc, mnc, lac, cid } : { mcc, mnc, lac, cid, rssi };
}

export function parseWifi(raw: string): WifiAccessPoint | undefined {
  const [mac, rssiText, ...rest] = raw.split(",");
  if (rest.length > 0 || !MAC_ADDRESS.test(mac.trim())) return undefined;
  const macAddress = mac.trim().toLowerCase().replaceAll("-", ":");
  if (rssiText === undefined) return { macAddress };
  const signalStrength = parseDecimal(rssiText);
  return signalStrength === undefined ? undefined : { macAddress, signalStrength };
}

/** The contract's attributes hold scalars only, so the lists travel as JSON text. */
export function networkAttributes(
  cells: CellTower[],
  wifis: WifiAccessPoint[],
): Record<string, AttributeValue> {
  const attributes: Record<string, AttributeValue> = {};
  if (cells.length > 0) attributes.cellTowers = JSON.stringify(cells);
  if (wifis.length > 0) attributes.wifiAccessPoints = JSON.stringify(wifis);
  return attributes;
}
