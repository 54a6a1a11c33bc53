/**
 * GPS + cell + status packets (0x16, 0x26, 0x27, 0x32, 0xA2, 0xA3, 0xA4, VL103 0x36). They
 * carry alarms, so they are acknowledged. The cell block between the GPS block and the
 * status block has vendor-dependent width, so it is cut out by position and parsed by size.
 */

import type { Position } from "../../types.ts";
import { ByteReader } from "../reader.ts";
import { parseCellBlock, readCell, setCells } from "./cell.ts";
import type { DecodeContext, Handler } from "./context.ts";
import { GPS_BLOCK, readGps } from "./gps.ts";
import { readIgnitionTail, setDriverId, setEngineHours, setOdometerMeters } from "./tails.ts";
import {
  applyAlarmCode,
  applyGsmSignal,
  applyTerminalInfo,
  applyVoltageLevel,
  readStatusBlock,
  STATUS_BLOCK,
} from "./terminal.ts";

type TailReader = (r: ByteReader, p: Position) => void;

function decodeGpsCellStatus(ctx: DecodeContext, tailSize: number, readTail?: TailReader) {
  const content = ctx.frame.content;
  const r = ctx.reader(GPS_BLOCK);
  const p = readGps(r);
  const statusAt = content.length - tailSize - STATUS_BLOCK;
  if (statusAt >= r.pos) {
    setCells(p.attributes, [parseCellBlock(content.subarray(r.pos, statusAt))]);
    const tail = new ByteReader(content, statusAt);
    readStatusBlock(tail, p, ctx.model);
    readTail?.(tail, p);
  }
  ctx.position(p);
  ctx.ack();
}

const readDriver: TailReader = (r, p) => setDriverId(p, r.bytesOf(8));
const readGeofence: TailReader = (r, p) => {
  p.attributes.geofence = r.u8();
};
const readAltitude: TailReader = (r, p) => {
  p.altitude = r.i16();
};

/** 0x26, 0xA3 (single geofence, 39-byte layout). */
export const gpsCellStatus: Handler = (ctx) => decodeGpsCellStatus(ctx, 0);

/** 0x16: standard; VL103 units append an 8-byte driver card id. */
export const gpsCellStatusCard: Handler = (ctx) =>
  ctx.frame.content.length === 40
    ? decodeGpsCellStatus(ctx, 8, readDriver)
    : decodeGpsCellStatus(ctx, 0);

/** 0x27, 0xA4: the geofence id follows the status. */
export const gpsCellStatusGeofence: Handler = (ctx) => decodeGpsCellStatus(ctx, 1, readGeofence);

/** 0x32 (short frame, SL4X): altitude follows the status in the 36-byte layout. */
export const gpsCellStatusAltitude: Handler = (ctx) =>
  ctx.frame.content.length === 36
    ? decodeGpsCellStatus(ctx, 2, readAltitude)
    : decodeGpsCellStatus(ctx, 0);

/** 0xA3: only the GK310 single-geofence layout is documented; other sizes are ignored. */
export const fenceSingle: Handler = (ctx) => {
  if (ctx.frame.content.length >= GPS_BLOCK + 8 + STATUS_BLOCK) gpsCellStatus(ctx);
};

/**
 * 0xA2 from LW4G units (short packet; the long one is a WIFI/LBS list): GPS, 4G cell,
 * network type, status with external power, odometer, engine seconds, terminal id, inputs.
 */
export function lw4gLocation(ctx: DecodeContext): void {
  const r = ctx.reader(GPS_BLOCK);
  const p = readGps(r);
  ctx.optional(() => {
    setCells(p.attributes, [readCell(r, "4g")]);
    r.skip(1); // network type
    applyTerminalInfo(p, r.u8());
    p.attributes.power = r.u16() / 100;
    applyVoltageLevel(p, r.u8());
    applyGsmSignal(p, r.u8());
    applyAlarmCode(p, r.u8(), ctx.model);
    r.skip(1); // language
    setOdometerMeters(p, r.u32());
    setEngineHours(p, r.u32() / 3600);
    r.skip(8); // terminal id
    p.attributes.input = r.u16();
  });
  ctx.position(p);
  ctx.ack();
}

/** Tail of the VL103 GPS status packet (0x36): ACC/upload, counters, battery, driver card. */
const VL103_TAIL = 21;

export function vl103Location(ctx: DecodeContext): void {
  const content = ctx.frame.content;
  const r = ctx.reader(GPS_BLOCK);
  const p = readGps(r);
  const tailAt = content.length - VL103_TAIL;
  if (tailAt >= r.pos) {
    setCells(p.attributes, [parseCellBlock(content.subarray(r.pos, tailAt))]);
    const tail = new ByteReader(content, tailAt);
    readIgnitionTail(tail, p);
    tail.skip(6); // undocumented counters
    p.attributes.batteryVoltage = tail.u8() / 10;
    tail.skip(3);
    setDriverId(p, tail.bytesOf(8));
  }
  ctx.position(p);
  ctx.ack();
}
