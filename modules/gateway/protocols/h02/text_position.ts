/**
 * GPS positions in text frames (V1, V2, V5, V6, V8, V19, VI1, ... and the fix inside V4):
 * `hhmmss,A|V,lat,N|S,lon,E|W,speed(knots),course,[extra,]ddmmyy,status[,tail...]`.
 */

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
import { addServingCell, applyStatus, type CellTower, gpsPosition } from "./position.ts";

/**
 * Index of the validity flag (`A`/`V`) of the first fix in `fields`, found by its shape:
 * preceded by a time slot and followed by a latitude/hemisphere/longitude/hemisphere run.
 * Searching (rather than fixed offsets) also locates the fix after a V4 command echo.
 */
export function findFixStart(fields: string[]): number {
  for (let index = 1; index + 4 < fields.length; index++) {
    const northSouth = fields[index + 2];
    const eastWest = fields[index + 4];
    if (
      (northSouth === "N" || northSouth === "S") &&
      (eastWest === "E" || eastWest === "W") &&
      (isSixDigits(fields[index - 1]) || fields[index - 1] === "")
    ) {
      return index;
    }
  }
  return -1;
}

/**
 * Decodes the fix starting at `fields[validityIndex]`. Returns undefined when the location
 * or a present date is unusable (e.g. `000000` dates from a receiver without a fix yet).
 * Frames with empty time and date fields get the receive time.
 */
export function decodeTextFix(
  fields: string[],
  validityIndex: number,
  now: Date,
): Position | undefined {
  const v = validityIndex;
  const latitude = parseCoordinate(fields[v + 1], fields[v + 2], false);
  const longitude = parseCoordinate(fields[v + 3], fields[v + 4], true);
  if (latitude === undefined || longitude === undefined) return undefined;

  // Some firmwares put one extra field (e.g. satellites) between course and date.
  const dateIndex = [v + 7, v + 8].find((i) => isSixDigits(fields[i]) || fields[i] === "");
  if (dateIndex === undefined) return undefined;
  const timeText = fields[v - 1];
  const dateText = fields[dateIndex];
  const time = timeText === "" || dateText === "" ? now : parseDateTime(timeText, dateText);
  if (!time) return undefined;

  const position = gpsPosition({
    time,
    valid: fields[v] === "A",
    latitude,
    longitude,
    speed: Math.max(0, parseDecimal(fields[v + 5]) ?? 0),
    course: normalizeCourse(parseDecimal(fields[v + 6]) ?? 0),
  });

  const statusIndex = fields.findIndex((field, i) =>
    i > dateIndex && parseStatusWord(field) !== undefined
  );
  if (statusIndex < 0) return position;
  applyStatus(position, parseStatusWord(fields[statusIndex]));
  if (statusIndex === dateIndex + 1) {
    const cell = parseServingCell(fields.slice(statusIndex + 1));
    if (cell) addServingCell(position, cell);
  }
  return position;
}

/**
 * `MCC,MNC,LAC,CID` after the status word. Firmwares disagree on the radix: some send
 * decimal (`460,11,...`), others hex (`cc,28,...`, `106,14,...`). Real MCCs are 200-799,
 * so the MCC decides: decimal if it is a valid MCC read as decimal, otherwise hex.
 */
function parseServingCell(tail: string[]): CellTower | undefined {
  if (tail.length < 4) return undefined;
  const [mccText, mncText, lacText, cidText] = tail;
  const decimalMcc = parseUnsigned(mccText, 10);
  const radix = decimalMcc !== undefined && isMcc(decimalMcc) ? 10 : 16;
  const mcc = parseUnsigned(mccText, radix);
  if (mcc === undefined || !isMcc(mcc)) return undefined;
  const mnc = parseUnsigned(mncText, radix);
  // Decimal firmwares still send long LTE cell ids in hex (`d18e105`).
  const lac = parseUnsigned(lacText, radix) ?? parseUnsigned(lacText, 16);
  const cid = parseUnsigned(cidText, radix) ?? parseUnsigned(cidText, 16);
  if (mnc === undefined || lac === undefined || cid === undefined) return undefined;
  return { mcc, mnc, lac, cid };
}

function isMcc(value: number): boolean {
  return value >= 200 && value <= 799;
}
