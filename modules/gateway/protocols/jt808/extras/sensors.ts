/** Vendor sensor items: temperatures, humidity, tyres, motion, light, air pressure. */
import { ByteReader, toHex } from "../bytes.ts";
import type { Readings } from "../readings.ts";
import { decodeObdRt } from "./obd.ts";
import type { ExtraTable } from "./types.ts";

/** Sign bit + magnitude in tenths (0xFFFF = no sensor). */
function signMagnitudeTenths(raw: number): number {
  return raw & 0x8000 ? -(raw & 0x7fff) / 10 : raw / 10;
}

/** Whole part as a signed byte, fraction in 1/255 (BLE tag format). */
function byteFraction(v: ByteReader): number {
  const whole = v.i8();
  const fraction = v.u8() / 255;
  return whole < 0 ? whole - fraction : whole + fraction;
}

/** Event byte, then a mask selecting which sensor values follow. */
export function decodeSensorEvent(v: ByteReader, out: Readings): void {
  const event = v.u8();
  out.set("event", event);
  if (event === 2) out.set("motion", true);
  const mask = v.u8();
  if (mask & 0x01) out.set("lightSensor", v.u16());
  if (mask & 0x02) out.set("temp1", v.i16() / 10);
  if (mask & 0x04) out.set("humidity", v.i16() / 10);
  if (mask & 0x08) out.set("gSensor", `[${v.i16()},${v.i16()},${v.i16()}]`);
  if (mask & 0x10) v.skip(10); // alarm thresholds
  if (mask & 0x20) out.set("airPressure", v.u16());
}

export const SENSOR_EXTRAS: ExtraTable = {
  // One (2 bytes) or eight (16 bytes) temperature probes.
  0x51: (v, out, ctx) => {
    if (ctx.length !== 2 && ctx.length !== 16) return;
    for (let i = 1; v.remaining >= 2; i++) {
      const raw = v.u16();
      if (raw !== 0xffff) out.set(`temp${i}`, signMagnitudeTenths(raw));
    }
  },
  // Tyre sensors, 7 bytes each: index, sensor id, pressure (10 bits, 1/40 bar), temp+50, status.
  0x77: (v, out) => {
    while (v.remaining >= 7) {
      const tyre = `tire${v.u8()}`;
      out.set(`${tyre}SensorId`, v.hex(3));
      out.set(`${tyre}Pressure`, (v.u16() & 0x03ff) / 40);
      out.set(`${tyre}Temp`, v.u8() - 50);
      out.set(`${tyre}Status`, v.u8());
    }
  },
  // Cable-seal devices: cut counter, then state bits.
  0xda: (v, out) => {
    v.skip(2);
    const state = v.u8();
    out.set("string", (state & 0x01) !== 0);
    out.set("motion", (state & 0x04) !== 0);
    out.set("cover", (state & 0x08) !== 0);
  },
  0xe5: (v, out, ctx) => {
    if (ctx.length === 1) out.set("motion", v.u8() === 1);
  },
  // "$OBD-RT,…" text, or BLE temperature/humidity tags of 11 bytes each.
  0xe6: (v, out, ctx) => {
    const bytes = v.rest();
    const text = String.fromCharCode(...bytes.subarray(0, 7));
    if (text === "$OBD-RT") {
      decodeObdRt(new TextDecoder().decode(bytes), out);
      return;
    }
    if (ctx.length < 11 || ctx.length % 11 !== 0) return;
    for (let at = 0; at < bytes.length; at += 11) {
      const tag = new ByteReader(bytes, at, at + 11);
      const index = tag.u8();
      tag.skip(6); // MAC
      out.set(`temp${index}`, byteFraction(tag));
      out.set(`humidity${index}`, byteFraction(tag));
    }
  },
  // Alarm word: bit 0 vibration, bits 1-3 SOS buttons.
  0xe7: (v, out, ctx) => {
    if (ctx.length !== 8) return;
    const bits = v.u16();
    if (bits & 0x01) out.alarm("vibration");
    if (bits & 0x0e) out.alarm("sos");
  },
  // External sensor block: type byte, then (BYTE id, BYTE len) items.
  0xea: (v, out, ctx) => {
    if (ctx.length <= 2) return;
    v.skip(1);
    while (v.remaining >= 2) {
      const id = v.u8();
      const item = v.sub(v.u8());
      if (id === 0x13) out.set("externalIlluminance", item.u16());
      else if (id === 0x14) out.set("externalAirPressure", item.u16());
      else if (id === 0x15) out.set("externalHumidity", item.u16() / 10);
      else if (id === 0x16) out.set("externalTemp", item.u16() / 10 - 50);
    }
  },
  0xf5: (v, out, ctx) => {
    if (ctx.length === 2) out.set("illuminance", v.u16());
  },
  // Air pressure (2), IMEI as BCD with a leading pad nibble (8), or a sensor event block.
  0xf6: (v, out, ctx) => {
    if (ctx.length === 2) out.set("airPressure", v.u16());
    else if (ctx.length === 8) out.set("imei", toHex(v.bytes(8)).slice(1));
    else decodeSensorEvent(v, out);
  },
  // Second temperature probe: 1/10 °C offset by 50.
  0xf8: (v, out) => out.set("temp2", v.u16() / 10 - 50),
  // Mask, then optional fields in bit order.
  0xf9: (v, out) => {
    const mask = v.u16();
    if (mask & 0x01) v.skip(4); // GNSS age
    if (mask & 0x02) v.skip(4); // ACC-on time
    if (mask & 0x04) out.set("hdop", v.u16() / 10);
    if (mask & 0x08) v.skip(6); // GNSS time
    if (mask & 0x20) v.skip(8); // sampling and report intervals
    if (mask & 0x40) {
      out.set("temp3", v.i16() / 10);
      v.skip(4); // thresholds
    }
  },
};
