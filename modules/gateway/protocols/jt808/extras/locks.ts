/** Electronic seal / padlock items (JT701-style locks, container seals). */
import type { ByteReader } from "../bytes.ts";
import type { Readings } from "../readings.ts";
import type { ExtraContext, ExtraTable } from "./types.ts";
import { decodeBlindSpot } from "./driving.ts";

/**
 * 0x0B lock operation: command byte, then a card number (4 bytes) or a 6-char password, and
 * (even lengths) the unlock result. Shared with the 0x5501 lock reports.
 */
export function decodeLockOperation(v: ByteReader, out: Readings, ctx: ExtraContext): void {
  out.set("lockCommand", v.u8());
  if (ctx.length >= 5 && ctx.length <= 6) out.set("lockCard", v.u32());
  else if (ctx.length >= 7) out.set("lockPassword", v.latin1(6));
  if (ctx.length % 2 === 0) out.set("unlockResult", v.u8());
}

/** Events 0x61-0x66 are lock events that carry the lock id and the card that operated it. */
const LOCK_CARD_EVENTS = { min: 0x61, max: 0x66 };

export const LOCK_EXTRAS: ExtraTable = {
  0x0b: decodeLockOperation,
  // Working mode (1 byte) or a "*M00,…" lock status sentence whose digits 2-4 are centivolts.
  0x33: (v, out, ctx) => {
    if (ctx.length === 1) {
      out.set("mode", v.u8());
      return;
    }
    const text = v.latin1(ctx.length);
    if (text.startsWith("*M00") && text.length >= 15) {
      const centivolts = parseInt(text.slice(10, 13), 10);
      if (Number.isFinite(centivolts)) out.set("batteryVoltage", centivolts / 100);
    }
  },
  0x60: (v, out) => {
    const event = v.u16();
    out.set("event", event);
    if (event >= LOCK_CARD_EVENTS.min && event <= LOCK_CARD_EVENTS.max) {
      v.skip(6); // lock id
      out.set("driverUniqueId", v.latin1(8));
    }
  },
  // Sub-locks, 11 bytes each: id, battery mV, seal ('1' = sealed), physical state, rssi.
  0x63: (v, out) => {
    for (let i = 1; v.remaining >= 11; i++) {
      out.set(`lock${i}Id`, v.hex(6));
      out.set(`lock${i}Battery`, v.u16() / 1000);
      out.set(`lock${i}Seal`, v.u8() === 0x31);
      v.skip(2);
    }
  },
  0x67: (v, out, ctx) => {
    if (!decodeBlindSpot(v, out, ctx.length)) out.set("password", v.latin1(8));
  },
  // 2 bytes: battery volts (1/100); otherwise a counted list of locks.
  0xd5: (v, out, ctx) => {
    if (ctx.length === 2) {
      out.set("batteryVoltage", v.u16() / 100);
      return;
    }
    const count = v.u8();
    for (let i = 1; i <= count; i++) {
      out.set(`lock${i}Id`, v.hex(5));
      out.set(`lock${i}Card`, v.hex(5));
      out.set(`lock${i}Battery`, v.u8());
      out.set(`lock${i}Locked`, (v.u16() & 0x20) === 0);
    }
  },
  // Generic firmwares: 3-byte lock state (Jimi JC models reuse E8, see models.ts).
  0xe8: (v, out) => out.set("lockStatus", v.u24()),
};
