/**
 * 0x70 modular packet: a list of modules (id u16, length u16, value). Module 0x33 holds the
 * GPS fix; without it the packet is a status report. Acknowledged with a short 0x70 frame.
 */

import type { AlarmType, Position } from "../../types.ts";
import { ByteReader, toHex } from "../reader.ts";
import { setCells } from "./cell.ts";
import type { Handler, Telemetry } from "./context.ts";
import { gpsPosition } from "./gps.ts";
import { setOdometerMeters } from "./tails.ts";

interface ModularState extends Telemetry {
  fix?: Position;
  deviceTime?: Date;
}

const EVENT_ALARMS: Record<number, AlarmType> = {
  0x11: "lowBattery",
  0x12: "lowPower",
  0x13: "powerCut",
  0x14: "removing",
};

const MODULES: Record<number, (v: ByteReader, s: ModularState) => void> = {
  0x0003: (v, s) => {
    s.attributes.iccid = toHex(v.bytesOf(10));
  },
  0x0009: (v, s) => {
    s.attributes.satellites = v.u8();
  },
  0x000a: (v, s) => {
    s.attributes.satellitesVisible = v.u8();
  },
  0x0011: (v, s) => {
    const cell = { mcc: v.u16(), mnc: v.u16(), lac: v.u16(), cid: v.u24(), signal: v.u8() };
    if (cell.cid > 0) setCells(s.attributes, [cell]);
  },
  0x0018: (v, s) => {
    s.attributes.batteryVoltage = v.u16() / 100;
  },
  0x0028: (v, s) => {
    s.attributes.hdop = v.u8() / 10;
  },
  0x0029: (v, s) => {
    s.attributes.index = v.u32();
  },
  0x002a: (v, s) => {
    const input = v.u8();
    s.attributes.door = (input & 0x0f) > 0;
    s.attributes.tamper = input >> 4 > 0;
  },
  0x002b: (v, s) => {
    const code = v.u8();
    s.attributes.event = code;
    if (EVENT_ALARMS[code]) s.alarm = EVENT_ALARMS[code];
  },
  0x002c: (v, s) => {
    s.deviceTime = new Date(v.u32() * 1000);
  },
  // Big-endian: consecutive captures of one unit give 61 633 m then 62 045 m this way.
  0x002e: (v, s) => setOdometerMeters(s, v.u32()),
  0x0033: (v, s) => {
    const time = new Date(v.u32() * 1000);
    const satellites = v.u8();
    const altitude = v.i16();
    const latitude = v.u32() / 1_800_000;
    const longitude = v.u32() / 1_800_000;
    const speedKmh = v.u8();
    const courseStatus = v.u16();
    // An all-zero block means "no fix yet".
    if (time.getTime() > 0) {
      s.fix = gpsPosition({
        time,
        satellites,
        altitude,
        latitude,
        longitude,
        speedKmh,
        courseStatus,
      });
    }
  },
};

export const modular: Handler = (ctx) => {
  const r = ctx.reader();
  const state: ModularState = { attributes: {} };
  while (r.remaining >= 4) {
    const id = r.u16();
    const value = new ByteReader(r.bytesOf(r.u16()));
    ctx.optional(() => MODULES[id]?.(value, state));
  }
  if (state.fix) {
    const p = state.fix;
    Object.assign(p.attributes, state.attributes);
    if (state.alarm) p.alarm = state.alarm;
    if (state.mileage !== undefined) p.mileage = state.mileage;
    ctx.position(p);
  } else {
    ctx.status(state.deviceTime ?? ctx.now(), state);
  }
  ctx.ack(false);
};
