/** Simulated device identities: 15-digit IMEIs built from a prefix and an index. */
import { luhnDigit } from "../../lib/luhn.ts";

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
