/** 0x01 login: IMEI (8 BCD bytes), optional type id and time-zone/language word. */

import { toHex } from "../reader.ts";
import type { Handler } from "./context.ts";

export const login: Handler = (ctx) => {
  const r = ctx.reader(8);
  const digits = toHex(r.bytesOf(8));
  if (!/^\d{16}$/.test(digits)) return;
  const imei = digits.slice(1); // 15 digits behind a leading 0 nibble

  const { session } = ctx;
  session.deviceId = imei;
  session.extra.imei = imei;
  if (r.remaining >= 2) session.extra.typeId = r.u16();
  const timezoneOffsetMinutes = r.remaining >= 2 ? timezoneFromWord(r.u16()) : undefined;
  if (timezoneOffsetMinutes !== undefined) session.timezoneOffsetMinutes = timezoneOffsetMinutes;

  ctx.messages.push(
    timezoneOffsetMinutes === undefined
      ? { type: "identify", id: imei }
      : { type: "identify", id: imei, timezoneOffsetMinutes },
  );
  ctx.ack();
};

/**
 * Time-zone/language word: bits 15-4 hold the zone as hhmm (e.g. 800 = UTC+8:00), bit 3 is
 * set for western (negative) zones, bits 1-0 are the language. Informational only: GT06
 * date/time fields are UTC.
 */
export function timezoneFromWord(word: number): number {
  const hhmm = word >> 4;
  const minutes = Math.floor(hhmm / 100) * 60 + (hhmm % 100);
  return word & 0x08 ? -minutes : minutes;
}
