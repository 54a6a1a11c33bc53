/** Items defined by JT/T 808-2013/2019 (table "additional location information") and JT/T 1078. */
import type { ExtraTable } from "./types.ts";

export const STANDARD_EXTRAS: ExtraTable = {
  // Odometer, 1/10 km.
  0x01: (v, out) => {
    out.mileage = v.u32() / 10;
  },
  // Fuel, 1/10 L. Some vendors flag a percentage with bit 15 instead.
  0x02: (v, out) => {
    const raw = v.u16();
    if (raw & 0x8000) out.set("fuelLevel", raw & 0x7fff);
    else out.set("fuel", raw / 10);
  },
  // Speed from the tachograph, 1/10 km/h.
  0x03: (v, out) => out.set("obdSpeed", v.u16() / 10),
  // 2019: id of an alarm event that needs manual confirmation.
  0x04: (v, out) => out.set("alarmEventId", v.u16()),
  // 2019: cargo temperature (WORD). One-byte variants are vendor battery percentages.
  0x06: (v, out, ctx) => {
    if (ctx.length === 1) out.batteryPercent(v.u8());
    else out.set("cargoTemp", v.i16());
  },
  // Area/route entry or exit: type, area id, direction (0 in, 1 out).
  0x12: (v, out) => {
    v.skip(5);
    out.alarm(v.u8() === 0 ? "geofenceEnter" : "geofenceExit");
  },
  // JT/T 1078 video alarm flags.
  0x14: (v, out) => out.set("videoAlarm", v.u32()),
  // Extended vehicle signal status.
  0x25: (v, out) => out.set("input", v.u32()),
  // IO status.
  0x2a: (v, out) => out.set("io", v.u16()),
  // Analog inputs: AD0 in bits 0-15, AD1 in bits 16-31, in 1/100 V (the vendors' usual unit);
  // kept like other protocols' inputs: `adc1` is the first input, in volts.
  0x2b: (v, out) => {
    const ad1 = v.u16();
    const ad0 = v.u16();
    out.set("adc1", ad0 / 100);
    out.set("adc2", ad1 / 100);
  },
  // Wireless signal strength (CSQ).
  0x30: (v, out) => out.rssi(v.u8()),
  // GNSS satellites in use.
  0x31: (v, out) => {
    out.satellites = v.u8();
  },
};
