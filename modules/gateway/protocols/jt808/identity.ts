/** Turns the header's terminal phone field into the id the gateway matches devices with. */
import { luhnDigit } from "../../../../lib/luhn.ts";
import { bcdDigits, encodeBcd } from "./bcd.ts";
import { fromHex, toHex } from "./bytes.ts";

/**
 * The full BCD digit string (leading zeros kept: the gateway matches the IMEI suffix).
 * Some trackers (e.g. Jimi JC models) put the IMEI there as a 48-bit binary number of its first
 * 14 digits instead of BCD; those are recognised by non-decimal nibbles and expanded to the
 * 15-digit IMEI with its Luhn check digit.
 */
export function terminalId(terminal: Uint8Array): string {
  const digits = bcdDigits(terminal);
  if (digits !== null) return digits;
  if (terminal.length === 6) {
    let n = 0;
    for (const b of terminal) n = n * 256 + b;
    const body = String(n).padStart(14, "0");
    if (body.length === 14) return body + luhnDigit(body);
  }
  return toHex(terminal);
}

/** Inverse of {@link terminalId} for commands sent before any frame was received. */
export function terminalBytes(id: string, size: 6 | 10): Uint8Array {
  if (/^[0-9a-f]+$/i.test(id) && /[a-f]/i.test(id) && id.length === size * 2) return fromHex(id);
  if (size === 6 && /^\d{15}$/.test(id)) {
    // A 15-digit IMEI cannot fit 6 BCD bytes; devices that use one pack it as binary.
    let n = Number(id.slice(0, 14));
    const out = new Uint8Array(6);
    for (let i = 5; i >= 0; i--) {
      out[i] = n % 256;
      n = Math.floor(n / 256);
    }
    return out;
  }
  return encodeBcd(id, size);
}
