/** Packed BCD helpers (two decimal digits per byte, high nibble first). */

/** Digits of a BCD field; null when a nibble is not 0-9. */
export function bcdDigits(bytes: Uint8Array): string | null {
  let s = "";
  for (const b of bytes) {
    const hi = b >> 4;
    const lo = b & 0x0f;
    if (hi > 9 || lo > 9) return null;
    s += String(hi) + String(lo);
  }
  return s;
}

/** Encodes a digit string as BCD of `size` bytes, left-padded with zeros (extra leading digits dropped). */
export function encodeBcd(digits: string, size: number): Uint8Array {
  const clean = digits.replace(/\D/g, "").padStart(size * 2, "0").slice(-size * 2);
  const out = new Uint8Array(size);
  for (let i = 0; i < size; i++) {
    out[i] = (Number(clean[i * 2]) << 4) | Number(clean[i * 2 + 1]);
  }
  return out;
}

/** JT/T 808 default: terminals report local Beijing time (GMT+8). */
export const DEFAULT_TZ_MINUTES = 8 * 60;

/**
 * Parses a 6-byte BCD YYMMDDhhmmss local time into a UTC Date, or null when the bytes are not
 * BCD or not a calendar time (month 13, minute 61…).
 */
export function parseBcdTime(bytes: Uint8Array, tzMinutes: number): Date | null {
  const digits = bcdDigits(bytes);
  if (digits === null || digits.length !== 12) return null;
  const [yy, mo, dd, hh, mi, ss] = [0, 2, 4, 6, 8, 10].map((i) => Number(digits.slice(i, i + 2)));
  if (mo < 1 || mo > 12 || dd < 1 || dd > 31 || hh > 23 || mi > 59 || ss > 59) return null;
  return new Date(Date.UTC(2000 + yy, mo - 1, dd, hh, mi, ss) - tzMinutes * 60_000);
}
