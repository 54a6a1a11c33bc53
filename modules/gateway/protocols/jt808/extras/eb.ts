/**
 * 0xEB is overloaded by vendors; the content tells which variant it is:
 * - cell list: WORD MCC (> 200), BYTE MNC, then 5-byte cells  → not stored (no network model);
 * - printable text: the device time zone, e.g. "UTC+08:00";
 * - otherwise nested items: WORD length (type + value), WORD type, value.
 */
import { ByteReader } from "../bytes.ts";
import type { Readings } from "../readings.ts";
import type { ExtraTable } from "./types.ts";

const MIN_MCC = 200;

function isPrintable(bytes: Uint8Array): boolean {
  return bytes.length > 0 && bytes.every((b) => b >= 0x20 && b < 0x7f);
}

type NestedHandler = (v: ByteReader, out: Readings, length: number) => void;

const NESTED: Readonly<Record<number, NestedHandler>> = {
  0x0001: (v, out) => out.set("fuel1", v.u16() / 10),
  0x0023: (v, out) => {
    const value = parseFloat(v.latin1(6));
    if (Number.isFinite(value)) out.set("fuel2", value);
  },
  // Supply mV (DWORD) or battery mV (WORD), told apart by the item length.
  0x002d: (v, out, length) => {
    if (length === 6) out.set("power", v.u32() / 1000);
    else out.set("batteryVoltage", v.u16() / 1000);
  },
  // Status word where a cleared bit is the alarm: bit 0 external power, bit 12 removal.
  0x0089: (v, out) => {
    const bits = v.u32();
    if (!(bits & 0x0001)) out.alarm("powerOff");
    if (!(bits & 0x1000)) out.alarm("removing");
  },
  // ICCID as BCD, padded with F.
  0x00b2: (v, out) => out.set("iccid", v.hex(10).replace(/f+$/, "")),
  // Cleared bit 6 = vibration; bits 23-24: 0 moving, 1 still.
  0x00c5: (v, out) => {
    const bits = v.u32();
    if (!(bits & 0x40)) out.alarm("vibration");
    const motion = (bits >>> 23) & 0x03;
    if (motion === 0) out.set("motion", true);
    else if (motion === 1) out.set("motion", false);
  },
  0x00c6: (v, out) => {
    const state = v.u8();
    out.set("batteryAlarm", state);
    if (state === 0x03 || state === 0x04) out.alarm("lowBattery");
  },
  0x00ce: (v, out) => out.set("power", v.u16() / 100),
  0x00a8: (v, out) => out.batteryPercent(v.u8()),
  0x00e1: (v, out) => out.batteryPercent(v.u8()),
};

export const EB_EXTRAS: ExtraTable = {
  0xeb: (v, out, ctx) => {
    const bytes = v.rest();
    const firstWord = bytes.length >= 2 ? (bytes[0] << 8) | bytes[1] : 0;
    if (firstWord > MIN_MCC && (ctx.length - 3) % 5 === 0) return; // cell towers
    if (isPrintable(bytes)) {
      out.set("timezone", String.fromCharCode(...bytes));
      return;
    }
    // Re-read the value as nested items.
    let at = 0;
    while (at + 4 <= bytes.length) {
      const length = (bytes[at] << 8) | bytes[at + 1];
      const end = at + 2 + length;
      if (length < 2 || end > bytes.length) break;
      const type = (bytes[at + 2] << 8) | bytes[at + 3];
      const handler = NESTED[type];
      if (handler) {
        try {
          handler(new ByteReader(bytes, at + 4, end), out, length);
        } catch {
          // a short nested item only loses itself
        }
      }
      at = end;
    }
  },
};
