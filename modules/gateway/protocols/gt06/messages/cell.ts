/**
 * Cell tower and WIFI fields. Towers and access points go into the position attributes as
 * JSON arrays (`cellTowers`, `wifiAccessPoints`) so the platform can geolocate LBS/WIFI fixes.
 */

import type { AttributeValue } from "../../types.ts";
import type { ByteReader } from "../reader.ts";

export interface CellTower {
  mcc: number;
  mnc: number;
  lac: number;
  cid: number;
  /** Raw signal byte as sent by the device. */
  signal?: number;
}

export interface WifiAccessPoint {
  mac: string;
  signal?: number;
}

/** How wide the LAC and cell-id fields are: 2G packets use 2+3 bytes, 4G packets 4+8. */
export type CellFormat = "legacy" | "classic" | "wide" | "4g";

const SIZES: Record<CellFormat, { lac: number; cid: number }> = {
  legacy: { lac: 2, cid: 2 },
  classic: { lac: 2, cid: 3 },
  wide: { lac: 2, cid: 4 },
  "4g": { lac: 4, cid: 8 },
};

/** MCC with bit 15 meaning "MNC takes two bytes". */
export function readMccMnc(r: ByteReader, forceWideMnc = false): { mcc: number; mnc: number } {
  const word = r.u16();
  const mnc = word & 0x8000 || forceWideMnc ? r.u16() : r.u8();
  return { mcc: word & 0x7fff, mnc };
}

/** Reads one serving cell whose field widths are known from the packet type. */
export function readCell(r: ByteReader, format: CellFormat): CellTower {
  const { mcc, mnc } = readMccMnc(r, format === "wide");
  const { lac, cid } = SIZES[format];
  return { mcc, mnc, lac: r.uint(lac), cid: r.uint(cid) };
}

/** LAC+CID widths that occur in the wild, keyed by their combined size. */
const LAC_CID_BY_SIZE: Record<number, [number, number]> = { 5: [2, 3], 6: [2, 4], 12: [4, 8] };

/**
 * Parses a serving-cell block whose layout must be inferred from its size: vendors differ on
 * whether a length byte precedes it (and whether that byte counts itself), on MNC width and
 * on 2G/4G field widths. Returns undefined for empty (zero-filled) or unrecognisable blocks.
 */
export function parseCellBlock(block: Uint8Array): CellTower | undefined {
  const prefixed = block.length > 0 && (block[0] === block.length || block[0] === block.length - 1);
  const candidates = prefixed ? [block.subarray(1), block] : [block, block.subarray(1)];
  for (const candidate of candidates) {
    const cell = tryCellLayouts(candidate);
    if (cell) return cell;
  }
  return undefined;
}

function tryCellLayouts(b: Uint8Array): CellTower | undefined {
  if (b.length < 8) return undefined;
  const word = (b[0] << 8) | b[1];
  const mcc = word & 0x7fff;
  if (mcc === 0 || mcc > 999) return undefined;
  const mncSizes = word & 0x8000 ? [2, 1] : [1, 2];
  for (const mncSize of mncSizes) {
    const split = LAC_CID_BY_SIZE[b.length - 2 - mncSize];
    if (!split) continue;
    const [lacSize, cidSize] = split;
    let pos = 2;
    const mnc = readUint(b, pos, mncSize);
    pos += mncSize;
    const lac = readUint(b, pos, lacSize);
    const cid = readUint(b, pos + lacSize, cidSize);
    return { mcc, mnc, lac, cid };
  }
  return undefined;
}

function readUint(b: Uint8Array, at: number, size: number): number {
  let value = 0;
  for (let i = 0; i < size; i++) value = value * 256 + b[at + i];
  return value;
}

export interface CellListOptions {
  count: number;
  format: CellFormat;
}

/** MCC/MNC followed by `count` neighbour entries of LAC, CID, signal; empty slots are dropped. */
export function readCellList(r: ByteReader, options: CellListOptions): CellTower[] {
  const { mcc, mnc } = readMccMnc(r);
  return readNeighbours(r, mcc, mnc, options);
}

export function readNeighbours(
  r: ByteReader,
  mcc: number,
  mnc: number,
  { count, format }: CellListOptions,
): CellTower[] {
  const { lac: lacSize, cid: cidSize } = SIZES[format];
  const cells: CellTower[] = [];
  for (let i = 0; i < count; i++) {
    const lac = r.uint(lacSize);
    const cid = r.uint(cidSize);
    const signal = r.u8();
    if (lac > 0 || cid > 0) cells.push({ mcc, mnc, lac, cid, signal });
  }
  return cells;
}

export function macAddress(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join(":");
}

/** `count` entries of MAC (6) + signal (1); all-zero MACs are empty slots. */
export function readWifiList(r: ByteReader, count: number): WifiAccessPoint[] {
  const points: WifiAccessPoint[] = [];
  for (let i = 0; i < count; i++) {
    const mac = r.bytesOf(6);
    const signal = r.u8();
    if (mac.some((b) => b !== 0)) points.push({ mac: macAddress(mac), signal });
  }
  return points;
}

export function setCells(
  attributes: Record<string, AttributeValue>,
  cells: (CellTower | undefined)[],
) {
  const present = cells.filter((c): c is CellTower => c !== undefined && (c.lac > 0 || c.cid > 0));
  if (present.length > 0) attributes.cellTowers = JSON.stringify(present);
}

export function setWifi(attributes: Record<string, AttributeValue>, points: WifiAccessPoint[]) {
  if (points.length > 0) attributes.wifiAccessPoints = JSON.stringify(points);
}
