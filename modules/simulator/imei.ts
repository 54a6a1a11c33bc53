/** Simulated device identities: 15-digit IMEIs built from a prefix and an index. */

/** Luhn check digit of a digit string (the IMEI's 15th digit). */
export function luhnDigit(digits: string): string {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return String((10 - (sum % 10)) % 10);
}

/**
 * IMEI number `index` (0-based) under `prefix`: the prefix, the index zero-padded to 14
 * digits, then the Luhn digit. Deterministic, so a simulation can be re-run against the
 * devices it imported before.
 */
export function imeiFor(prefix: string, index: number): string {
  if (!/^\d{1,13}$/.test(prefix)) throw new RangeError("IMEI prefix must be 1-13 digits");
  const width = 14 - prefix.length;
  const body = String(index);
  if (!Number.isInteger(index) || index < 0 || body.length > width) {
    throw new RangeError(`index ${index} does not fit ${width} digits after prefix ${prefix}`);
  }
  const digits = prefix + body.padStart(width, "0");
  return digits + luhnDigit(digits);
}

export function imeisFor(prefix: string, count: number, start = 0): string[] {
  return Array.from({ length: count }, (_, i) => imeiFor(prefix, start + i));
}

/** JT/T 808 terminal phone number of a simulated device: the IMEI's last 12 digits. */
export function jt808TerminalNumber(imei: string): string {
  return imei.slice(-12);
}
