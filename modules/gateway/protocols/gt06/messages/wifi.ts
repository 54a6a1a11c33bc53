/**
 * WIFI packets. The legacy 0x17/0x69 form has no serial or CRC: its length byte carries the
 * access-point count, the time is BCD, and the device wants its time echoed back
 * (78 78 00 <type> <time> 0D 0A). 0xF3 lists access points with a binary time.
 */

import type { Gt06Frame } from "../frame.ts";
import { ByteReader } from "../reader.ts";
import { macAddress, readMccMnc, readNeighbours, readWifiList, setCells, setWifi } from "./cell.ts";
import type { Handler } from "./context.ts";
import { networkPosition, readBcdDateTime, readDateTime } from "./gps.ts";
import { rfidLocation } from "./vendor.ts";

const TIME = 6;
const WIFI_ENTRY = 7;
const CELL_ENTRY = 5;

/** The legacy layout is recognised by its sizes adding up (with or without a trailer). */
export function isLegacyWifi(frame: Gt06Frame): boolean {
  const { payload, lengthField } = frame;
  const cellCountAt = TIME + WIFI_ENTRY * lengthField;
  if (payload.length <= cellCountAt) return false;
  const expected = cellCountAt + 1 + 3 + CELL_ENTRY * payload[cellCountAt];
  return payload.length === expected || payload.length === expected + 4;
}

export const legacyWifi: Handler = (ctx) => {
  const { frame } = ctx;
  const r = new ByteReader(frame.payload);
  const time = readBcdDateTime(r);
  const points = readWifiList(r, frame.lengthField);
  const cellCount = r.u8();
  const { mcc, mnc } = readMccMnc(r);
  const cells = readNeighbours(r, mcc, mnc, { count: cellCount, format: "legacy" });

  const p = networkPosition(time, points.length > 0 ? 3 : 2);
  setWifi(p.attributes, points);
  setCells(p.attributes, cells);
  ctx.positionIfLocatable(p);

  const reply = new Uint8Array(2 + 1 + 1 + TIME + 2);
  reply.set([0x78, 0x78, 0x00, frame.type]);
  reply.set(frame.payload.subarray(0, TIME), 4);
  reply.set([0x0d, 0x0a], 4 + TIME);
  ctx.reply(reply);
};

/** 0x69: legacy WIFI only; other layouts under this number are not known. */
export const legacyWifiOnly: Handler = (ctx) => {
  if (isLegacyWifi(ctx.frame)) legacyWifi(ctx);
};

/** 0x17 is either the legacy WIFI packet or, on RFID units, a GPS packet with a card id. */
export const wifiOrRfid: Handler = (ctx) => {
  if (isLegacyWifi(ctx.frame)) return legacyWifi(ctx);
  if (ctx.frame.content.length >= 35) rfidLocation(ctx);
};

/** 0xF3: time, count, then per access point two reserved bytes and the MAC. */
export const wifiList: Handler = (ctx) => {
  const r = ctx.reader(TIME + 1);
  const time = readDateTime(r);
  const count = r.u8();
  const points = [];
  for (let i = 0; i < count; i++) {
    r.skip(2);
    points.push({ mac: macAddress(r.bytesOf(6)) });
  }
  const p = networkPosition(time, 3);
  setWifi(p.attributes, points);
  ctx.positionIfLocatable(p);
};
