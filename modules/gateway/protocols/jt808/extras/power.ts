/**
 * Vendor items about battery and supply power. Volts go to `power` (external supply) and
 * `batteryVoltage`; the contract's `battery` is always a percentage.
 */
import type { ByteReader } from "../bytes.ts";
import type { Readings } from "../readings.ts";
import type { ExtraContext, ExtraTable } from "./types.ts";

/** One-byte battery level where 0xFF means "charging". */
function levelOrCharging(v: ByteReader, out: Readings): void {
  const level = v.u8();
  if (level === 0xff) out.set("charge", true);
  else out.batteryPercent(level);
}

/** D4/E9: a level byte, or (4 bytes) a driver card number on other firmwares. */
function levelOrDriverCard(v: ByteReader, out: Readings, ctx: ExtraContext): void {
  if (ctx.length === 1) levelOrCharging(v, out);
  else out.set("driverUniqueId", String(v.u32()));
}

export const POWER_EXTRAS: ExtraTable = {
  // Battery level in tenths (0-10), then a reserved byte.
  0x56: (v, out) => out.batteryPercent(v.u8() * 10),
  0x69: (v, out) => out.set("batteryVoltage", v.u16() / 100),
  0x82: (v, out) => out.set("power", v.u16() / 10),
  0xd3: (v, out) => out.set("power", v.u16() / 10),
  0xd4: levelOrDriverCard,
  0xe9: levelOrDriverCard,
  // E1 means different things by length: level, supply volts, cell list, driver card.
  0xe1: (v, out, ctx) => {
    if (ctx.length === 1) levelOrCharging(v, out);
    else if (ctx.length === 2) out.set("power", v.u16() / 10);
    else if (ctx.length >= 12 && (ctx.length - 4) % 8 === 0) return; // cell towers: not stored
    else out.set("driverUniqueId", String(v.u32()));
  },
  // Reserved byte, level, volts (1/100).
  0xe3: (v, out) => {
    v.skip(1);
    out.batteryPercent(v.u8());
    out.set("batteryVoltage", v.u16() / 100);
  },
  // Charging state (0 = charging), level.
  0xe4: (v, out) => {
    if (v.u8() === 0) out.set("charge", true);
    out.batteryPercent(v.u8());
  },
  // Signal, supply mV, battery mV, satellites.
  0xee: (v, out, ctx) => {
    if (ctx.length !== 6) return;
    out.rssi(v.u8());
    out.set("power", v.u16() / 1000);
    out.set("batteryVoltage", v.u16() / 1000);
    out.satellites = v.u8();
  },
  0xf1: (v, out) => out.set("power", v.u32() / 1000),
  // 2 bytes: humidity; otherwise battery mV, charge state (2/3 = charging), level.
  0xf7: (v, out, ctx) => {
    if (ctx.length === 2) {
      out.set("humidity", v.u16() / 10);
      return;
    }
    out.set("batteryVoltage", v.u32() / 1000);
    if (ctx.length >= 5) {
      const state = v.u8();
      if (state === 2 || state === 3) out.set("charge", true);
    }
    if (ctx.length >= 6) out.batteryPercent(v.u8());
  },
  // Overloaded by length: level, supply volts, odometer (m), or a 0x7C driving-alarm block.
  0xfe: (v, out, ctx) => {
    if (ctx.length === 1) out.batteryPercent(v.u8());
    else if (ctx.length === 2) out.set("power", v.u16() / 10);
    else if (ctx.length === 4) out.mileage = v.u32() / 1000;
    else decodeDrivingAlarmBlock(v, out);
  },
};

/** 0x7C, then sub-items (BYTE id, BYTE len); id 1 is a driving-behaviour alarm word; last byte: level. */
function decodeDrivingAlarmBlock(v: ByteReader, out: Readings): void {
  if (v.u8() === 0x7c) {
    while (v.remaining > 2) {
      const id = v.u8();
      const item = v.sub(v.u8());
      if (id !== 0x01) continue;
      const bits = item.u32();
      if (bits & 0x01) out.alarm("harshAcceleration");
      if (bits & 0x02) out.alarm("harshBraking");
      if (bits & 0x04) out.alarm("harshCornering");
      if (bits & 0x08) out.alarm("accident");
      if (bits & 0x10) out.alarm("tamper");
    }
  }
  if (v.remaining > 0) out.batteryPercent(v.u8());
}
