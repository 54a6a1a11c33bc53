/**
 * Field parsers shared by the H02 text and binary forms.
 *
 * Every parser returns `undefined` for malformed input instead of throwing: device
 * frames are hostile input and one bad field must only drop that frame.
 */

const SIX_DIGITS = /^\d{6}$/;
const DECIMAL = /^[+-]?\d+(\.\d+)?$/;
const STATUS_HEX = /^[0-9A-Fa-f]{8}$/;

/** True for a `hhmmss` / `ddmmyy` token (six digits). */
export function isSixDigits(token: string | undefined): boolean {
  return token !== undefined && SIX_DIGITS.test(token);
}

/** `hhmmss` + `ddmmyy`, both UTC (H02 devices send UTC), into a Date; undefined when out of range. */
export function parseDateTime(hhmmss: string, ddmmyy: string): Date | undefined {
  if (!isSixDigits(hhmmss) || !isSixDigits(ddmmyy)) return undefined;
  const [hour, minute, second] = pairs(hhmmss);
  const [day, month, year] = pairs(ddmmyy);
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const time = new Date(Date.UTC(2000 + year, month - 1, day, hour, minute, second));
  // Date.UTC rolls 31 Feb into March; a round trip rejects such dates (and day/month 0).
  if (time.getUTCDate() !== day || time.getUTCMonth() !== month - 1) return undefined;
  return time;
}

function pairs(sixDigits: string): [number, number, number] {
  return [
    Number(sixDigits.slice(0, 2)),
    Number(sixDigits.slice(2, 4)),
    Number(sixDigits.slice(4, 6)),
  ];
}

/** A decimal number token (devices pad with spaces: `  3.34`); undefined otherwise. */
export function parseDecimal(token: string | undefined): number | undefined {
  const trimmed = token?.trim();
  if (!trimmed || !DECIMAL.test(trimmed)) return undefined;
  return Number(trimmed);
}

/** A non-negative integer in the given radix; undefined when the token has other characters. */
export function parseUnsigned(token: string | undefined, radix: 10 | 16): number | undefined {
  const trimmed = token?.trim();
  if (!trimmed) return undefined;
  const pattern = radix === 10 ? /^\d{1,12}$/ : /^[0-9A-Fa-f]{1,12}$/;
  return pattern.test(trimmed) ? parseInt(trimmed, radix) : undefined;
}

/** The 8-hex-digit vehicle status word as an unsigned 32-bit number. */
export function parseStatusWord(token: string | undefined): number | undefined {
  return token !== undefined && STATUS_HEX.test(token) ? parseInt(token, 16) : undefined;
}

/**
 * An NMEA-style coordinate with its hemisphere letter, in signed degrees.
 *
 * Devices send `ddmm.mmmm` / `dddmm.mmmm` (leading zeros optional), the same digits without
 * the dot (`37573392` = 3757.3392), or a signed degree/minute pair (`-23-29.0095`).
 * The sign always comes from the hemisphere letter, which must be N/S or E/W.
 */
export function parseCoordinate(
  raw: string | undefined,
  hemisphere: string | undefined,
  isLongitude: boolean,
): number | undefined {
  const positive = isLongitude ? "E" : "N";
  const negative = isLongitude ? "W" : "S";
  if (hemisphere !== positive && hemisphere !== negative) return undefined;
  const degrees = parseDegreesMinutes(raw?.trim() ?? "");
  if (degrees === undefined || degrees > (isLongitude ? 180 : 90)) return undefined;
  return hemisphere === negative ? -degrees : degrees;
}

function parseDegreesMinutes(raw: string): number | undefined {
  const signedPair = /^-(\d{1,3})-(\d{1,2}(?:\.\d+)?)$/.exec(raw);
  if (signedPair) return combine(Number(signedPair[1]), Number(signedPair[2]));
  if (/^\d{7,9}$/.test(raw)) {
    // No decimal point: the last six digits are minutes with four implied decimals.
    const split = raw.length - 6;
    return combine(Number(raw.slice(0, split)), Number(raw.slice(split)) / 10000);
  }
  if (/^\d{1,5}\.\d+$/.test(raw)) {
    const value = Number(raw);
    const degrees = Math.floor(value / 100);
    return combine(degrees, value - degrees * 100);
  }
  return undefined;
}

function combine(degrees: number, minutes: number): number | undefined {
  return minutes < 60 ? degrees + minutes / 60 : undefined;
}

/** Course into [0, 360). */
export function normalizeCourse(course: number): number {
  const wrapped = course % 360;
  return wrapped < 0 ? wrapped + 360 : wrapped;
}

/** Frames are ISO-8859-1 text; every byte maps to one character. */
export function latin1(bytes: Uint8Array): string {
  let text = "";
  for (const byte of bytes) text += String.fromCharCode(byte);
  return text;
}

/** Replies are plain ASCII. */
export function ascii(text: string): Uint8Array {
  return Uint8Array.from(text, (char) => char.charCodeAt(0) & 0xff);
}

/** UTC `hhmmss`, the time field commands and acknowledgements carry. */
export function formatHhmmss(time: Date): string {
  return [time.getUTCHours(), time.getUTCMinutes(), time.getUTCSeconds()]
    .map((part) => String(part).padStart(2, "0"))
    .join("");
}
