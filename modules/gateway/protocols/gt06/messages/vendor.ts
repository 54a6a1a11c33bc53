/**
 * Vendor-specific GPS layouts. GT06 clones reuse protocol numbers with extra fields, so the
 * layout is chosen from the content size (and, where sizes collide, a recognisable prefix).
 */

import type { Position } from "../../types.ts";
import { ByteReader, toHex } from "../reader.ts";
import { parseCellBlock, readCell, setCells } from "./cell.ts";
import type { DecodeContext, Handler } from "./context.ts";
import { GPS_BLOCK, looksLikeDate, looksLikeImei, readGps } from "./gps.ts";
import {
  readIgnitionTail,
  setDriverId,
  setEngineHours,
  setOdometerMeters,
  signMagnitude8,
} from "./tails.ts";
import { applyAlarmCode, applyGsmSignal, applyTerminalInfo } from "./terminal.ts";

/** 0x12: GPS + 2G cell, then a tail whose size identifies the firmware. */
export const gpsCellVendorTail: Handler = (ctx) => {
  const content = ctx.frame.content;
  const r = ctx.reader(GPS_BLOCK);
  // QH302R-style units put the IMEI in front of the GPS block.
  if (content.length === 34 && looksLikeImei(content, 0) && looksLikeDate(content, 8)) r.skip(8);
  const p = readGps(r);
  ctx.optional(() => {
    setCells(p.attributes, [readCell(r, "classic")]);
    readTailBySize(r, p, ctx.model);
  });
  ctx.position(p);
};

function readTailBySize(r: ByteReader, p: Position, model: string): void {
  switch (r.remaining) {
    case 0:
      return;
    case 2:
      return readBenwayIo(r, p);
    case 3:
      return readIgnitionTail(r, p);
    case 4:
      return setOdometerMeters(p, r.u32());
    case 5:
      return readVxt01Status(r, p);
    case 12:
      return readS5Status(r, p, model);
    default:
      return readCardTail(r, p);
  }
}

/**
 * Benway I/O word: bit 15 ACC, bit 14 input 2; bit 12 selects a temperature (bits 0-8,
 * bit 9 sign) instead of an ADC reading (bits 0-9, bit 13 set = raw, else tenths).
 */
function readBenwayIo(r: ByteReader, p: Position): void {
  const io = r.u16();
  p.acc = (io & 0x8000) !== 0;
  p.attributes.input2 = (io & 0x4000) !== 0;
  if (io & 0x1000) {
    const magnitude = io & 0x01ff;
    p.attributes.temp1 = io & 0x0200 ? -magnitude : magnitude;
  } else {
    const value = io & 0x03ff;
    p.attributes.adc1 = io & 0x2000 ? value : value / 10;
  }
}

/** VXT01: terminal info, external power, GSM, and a byte that is not the alarm code. */
function readVxt01Status(r: ByteReader, p: Position): void {
  applyTerminalInfo(p, r.u8());
  p.attributes.power = r.u16() / 100;
  applyGsmSignal(p, r.u8());
  r.skip(1);
}

/** S5: terminal info, power, GSM, alarm code, oil, temperature, odometer (tens of metres). */
function readS5Status(r: ByteReader, p: Position, model: string): void {
  applyTerminalInfo(p, r.u8());
  p.attributes.power = r.u16() / 100;
  applyGsmSignal(p, r.u8());
  applyAlarmCode(p, r.u8(), model);
  p.attributes.oil = r.u16();
  p.attributes.temp1 = signMagnitude8(r.u8());
  setOdometerMeters(p, r.u32() * 10);
}

/** GT06E-card / WeTrust: odometer, length-prefixed card number, then swipe details. */
function readCardTail(r: ByteReader, p: Position): void {
  const cardLength = r.bytes[r.pos + 4];
  if (cardLength === undefined || 5 + cardLength > r.remaining) return; // not a card layout
  setOdometerMeters(p, r.u32());
  const card = r.ascii(r.u8()).trim();
  if (card) p.attributes.card = card;
  if (r.remaining >= 4) {
    if (r.u8() > 0) p.alarm = "general";
    p.attributes.cardStatus = r.u8();
    p.attributes.drivingTime = r.u16();
  }
}

/** XT40/NT20: source, IMEI and report time precede the GPS block. */
export function isXt40Layout(content: Uint8Array): boolean {
  return content.length >= 55 && looksLikeImei(content, 1) && looksLikeDate(content, 9);
}

interface Xt40Options {
  /** A network-type byte sits between the cell block and the status. */
  networkByte: boolean;
  /** A length-prefixed driver (RFID) block ends the packet. */
  driverBlock: boolean;
}

export function xt40Location(ctx: DecodeContext, options: Xt40Options): void {
  const content = ctx.frame.content;
  const r = new ByteReader(content, 1 + 8 + 6); // source, IMEI, report time
  const p = readGps(r);
  let end = content.length;
  if (options.driverBlock) {
    const start = findTrailingBlock(content, r.pos);
    if (start >= 0) {
      p.attributes.driverUniqueId = toHex(content.subarray(start + 2, end));
      end = start;
    }
  }
  const statusAt = end - XT40_STATUS;
  const cellEnd = statusAt - (options.networkByte ? 1 : 0);
  if (cellEnd >= r.pos) {
    setCells(p.attributes, [parseCellBlock(content.subarray(r.pos, cellEnd))]);
    readXt40Status(new ByteReader(content, statusAt), p, ctx.model);
  }
  ctx.position(p);
}

/** 0x25 (XT40 with driver card). */
export const xt40DriverLocation: Handler = (ctx) => {
  if (!isXt40Layout(ctx.frame.content)) return;
  xt40Location(ctx, { networkByte: true, driverBlock: true });
};

const XT40_STATUS = 13;

/** Info, power, battery (0.1 V), GSM, alarm, language, odometer (m), engine time (min). */
function readXt40Status(r: ByteReader, p: Position, model: string): void {
  applyTerminalInfo(p, r.u8());
  p.attributes.power = r.u16() / 100;
  p.attributes.batteryVoltage = r.u8() / 10;
  applyGsmSignal(p, r.u8());
  applyAlarmCode(p, r.u8(), model);
  r.skip(1); // language
  setOdometerMeters(p, r.u32());
  setEngineHours(p, r.u16() / 60);
}

/** Start of a trailing [length][type][data…] block whose length byte covers type+data. */
function findTrailingBlock(content: Uint8Array, from: number): number {
  for (let at = content.length - 5; at >= from; at--) {
    if (content[at] === content.length - at - 1) return at;
  }
  return -1;
}

/** 0x34 (X1): flags, GPS, odometer, cell, driver id, voltages, I/O and ADC inputs. */
export const x1Location: Handler = (ctx) => {
  const r = ctx.reader(4 + GPS_BLOCK);
  r.skip(4); // data/alarm flags
  const p = readGps(r);
  ctx.optional(() => {
    r.skip(2); // terminal info
    setOdometerMeters(p, r.u32());
    setCells(p.attributes, [{ mcc: r.u16(), mnc: r.u8(), lac: r.u16(), cid: r.u32() }]);
    const driver = r.u32();
    if (driver > 0) p.attributes.driverUniqueId = String(driver);
    // Documented as battery then power, but captures show ~12 V first and ~4 V second.
    p.attributes.power = r.u16() / 100;
    p.attributes.batteryVoltage = r.u16() / 100;
    const ports = r.u32();
    p.attributes.input = r.u8();
    p.attributes.output = r.u8();
    const adcCount = (ports >>> 20) & 0x0f;
    for (let i = 1; i <= adcCount; i++) p.attributes[`adc${i}`] = r.u16() / 100;
  });
  ctx.position(p);
};

/** 0x24 (SR411 mini): GPS, cell, ACC, external power, battery voltage. */
export function sr411Location(ctx: DecodeContext): void {
  const r = ctx.reader(GPS_BLOCK);
  const p = readGps(r);
  ctx.optional(() => {
    setCells(p.attributes, [readCell(r, "classic")]);
    p.acc = r.u8() > 0;
    p.attributes.power = r.u16() / 100;
    p.attributes.batteryVoltage = r.u16() / 100;
  });
  ctx.position(p);
}

/** 0x17 (RFID units): GPS, cell, 8-byte card id, validity. */
export function rfidLocation(ctx: DecodeContext): void {
  const r = ctx.reader(GPS_BLOCK);
  const p = readGps(r);
  ctx.optional(() => {
    setCells(p.attributes, [readCell(r, "classic")]);
    setDriverId(p, r.bytesOf(8));
  });
  ctx.position(p);
}

/** 0x61: IMEI, GPS, cell data, and a numeric driver id in the last four bytes. */
export const imeiDriverLocation: Handler = (ctx) => {
  const content = ctx.frame.content;
  const r = ctx.reader(8 + GPS_BLOCK);
  r.skip(8);
  const p = readGps(r);
  if (content.length - r.pos >= 4) {
    const driver = new ByteReader(content, content.length - 4).u32();
    if (driver > 0) p.attributes.driverUniqueId = String(driver);
  }
  ctx.position(p);
};
