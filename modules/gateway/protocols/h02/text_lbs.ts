/** Cell-tower (LBS) text reports: NBR and V3, plus the VP1 short form. */

import type { Position } from "../types.ts";
import {
  isSixDigits,
  normalizeCourse,
  parseCoordinate,
  parseDateTime,
  parseDecimal,
  parseStatusWord,
  parseUnsigned,
} from "./fields.ts";
import { applyStatus, type CellTower, gpsPosition, lbsPosition } from "./position.ts";

/**
 * `NBR,hhmmss,mcc,mnc,ta,count,(lac,cid,rxlev)*count,ddmmyy,status[,battery]`:
 * neighbouring cells when there is no GPS fix.
 */
export function decodeNbr(fields: string[], now: Date): Position | undefined {
  const mcc = parseUnsigned(fields[1], 10);
  const mnc = parseUnsigned(fields[2], 10);
  const count = parseUnsigned(fields[4], 10);
  if (mcc === undefined || mnc === undefined || count === undefined) return undefined;
  const dateIndex = 5 + count * 3;
  if (!isSixDigits(fields[0]) || !isSixDigits(fields[dateIndex])) return undefined;
  // Some firmwares send impossible clock values here (`160169`); the cells are current,
  // so the receive time stands in.
  const time = parseDateTime(fields[0], fields[dateIndex]) ?? now;
  const cells: CellTower[] = [];
  for (let i = 0; i < count; i++) {
    const cell = readCell(mcc, mnc, fields[5 + i * 3], fields[6 + i * 3], fields[7 + i * 3]);
    if (cell) cells.push(cell);
  }
  return applyStatus(lbsPosition(time, mcc, mnc, cells), parseStatusWord(fields[dateIndex + 1]));
}

/**
 * `V3,hhmmss,<mcc><mnc>,count,(lac,cid,?,rssi)*count,...,ddmmyy,status`: the trailing
 * fields between the cells and the date vary by firmware, so date and status are read
 * from the end.
 */
export function decodeV3(fields: string[]): Position | undefined {
  const operator = fields[1] ?? "";
  const count = parseUnsigned(fields[2], 10);
  if (!/^\d{5,6}$/.test(operator) || count === undefined) return undefined;
  if (3 + count * 4 > fields.length - 2) return undefined;
  const time = parseDateTime(fields[0], fields.at(-2) ?? "");
  if (!time) return undefined;
  const mcc = Number(operator.slice(0, 3));
  const mnc = Number(operator.slice(3));
  const cells: CellTower[] = [];
  for (let i = 0; i < count; i++) {
    const base = 3 + i * 4;
    const cell = readCell(mcc, mnc, fields[base], fields[base + 1], fields[base + 3]);
    if (cell) cells.push(cell);
  }
  return applyStatus(lbsPosition(time, mcc, mnc, cells), parseStatusWord(fields.at(-1)));
}

/**
 * VP1 carries no time of day: `VP1,A,lat,N,lon,E,speed,course,ddmmyy` with a fix, or
 * `VP1,V,mcc,mnc,lac,cid,...` without one. A fix dated today gets the receive time,
 * an older one midnight of its date.
 */
export function decodeVp1(fields: string[], now: Date): Position | undefined {
  const latitude = parseCoordinate(fields[1], fields[2], false);
  const longitude = parseCoordinate(fields[3], fields[4], true);
  if (latitude !== undefined && longitude !== undefined) {
    const time = dateOnly(fields[7] ?? "", now);
    if (!time) return undefined;
    return gpsPosition({
      time,
      valid: fields[0] === "A",
      latitude,
      longitude,
      speed: Math.max(0, parseDecimal(fields[5]) ?? 0),
      course: normalizeCourse(parseDecimal(fields[6]) ?? 0),
    });
  }
  const mcc = parseUnsigned(fields[1], 10);
  const mnc = parseUnsigned(fields[2], 10);
  if (mcc === undefined || mnc === undefined) return undefined;
  const cell = readCell(mcc, mnc, fields[3], fields[4], undefined);
  return lbsPosition(now, mcc, mnc, cell ? [cell] : []);
}

function dateOnly(ddmmyy: string, now: Date): Date | undefined {
  const midnight = parseDateTime("000000", ddmmyy);
  if (!midnight) return undefined;
  const sameDay = midnight.toISOString().slice(0, 10) === now.toISOString().slice(0, 10);
  return sameDay ? now : midnight;
}

function readCell(
  mcc: number,
  mnc: number,
  lacText: string | undefined,
  cidText: string | undefined,
  rssiText: string | undefined,
): CellTower | undefined {
  const lac = parseUnsigned(lacText, 10);
  const cid = parseUnsigned(cidText, 10);
  if (lac === undefined || cid === undefined) return undefined;
  const cell: CellTower = { mcc, mnc, lac, cid };
  const rssi = parseDecimal(rssiText);
  if (rssi !== undefined) cell.rssi = rssi;
  return cell;
}
