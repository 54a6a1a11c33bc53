/**
 * Location packets: an 18-byte GPS block first, then (usually) the serving cell and a
 * short tail. No reply is sent: the GT06 documents say location packets are not acknowledged.
 */

import { ByteReader } from "../reader.ts";
import { parseCellBlock, readCell, readCellList, setCells } from "./cell.ts";
import type { Handler } from "./context.ts";
import { GPS_BLOCK, readGps } from "./gps.ts";
import {
  readIgnitionTail,
  readSeeworldTail,
  readShortModules,
  readUintBE,
  setOdometerMeters,
} from "./tails.ts";
import { isXt40Layout, xt40Location } from "./vendor.ts";

/** 0x10 GPS only; 0x1A GPS + phone number (the number is not needed). */
export const gpsOnly: Handler = (ctx) => {
  ctx.position(readGps(ctx.reader(GPS_BLOCK)));
};

/** 0x11 GPS + cell with two-byte MNC and four-byte cell id. */
export const gpsWideCell: Handler = (ctx) => {
  const r = ctx.reader(GPS_BLOCK);
  const p = readGps(r);
  ctx.optional(() => setCells(p.attributes, [readCell(r, "wide")]));
  ctx.position(p);
};

/** 0x1E (JI09): GPS followed by a full neighbour-cell list. */
export const gpsCellList: Handler = (ctx) => {
  const r = ctx.reader(GPS_BLOCK);
  const p = readGps(r);
  ctx.optional(() => setCells(p.attributes, readCellList(r, { count: 7, format: "classic" })));
  ctx.position(p);
};

/** 0x2D / 0x37: GPS, 2G cell, ACC/upload tail, then id-length-value modules. */
export const gpsCellModules: Handler = (ctx) => {
  const r = ctx.reader(GPS_BLOCK);
  const p = readGps(r);
  ctx.optional(() => {
    setCells(p.attributes, [readCell(r, "classic")]);
    readIgnitionTail(r, p);
    readShortModules(r, p);
  });
  ctx.position(p);
};

/** 0x38: like 0x37 but with a 4G cell, preceded by three undocumented bytes. */
export const gps4gCellModules: Handler = (ctx) => {
  const r = ctx.reader(GPS_BLOCK);
  const p = readGps(r);
  ctx.optional(() => {
    r.skip(3);
    setCells(p.attributes, [readCell(r, "4g")]);
    readIgnitionTail(r, p);
    readShortModules(r, p);
  });
  ctx.position(p);
};

/** 0xA0 (4G GPS packet): GPS, 4G cell, ACC/upload tail. */
export const gps4gCell: Handler = (ctx) => {
  const r = ctx.reader(GPS_BLOCK);
  const p = readGps(r);
  ctx.optional(() => {
    setCells(p.attributes, [readCell(r, "4g")]);
    readIgnitionTail(r, p);
  });
  ctx.position(p);
};

/**
 * 0x22: GPS, cell, ACC/upload tail. Seeworld units append odometer, trip time, temperature
 * and humidity (24 bytes after GPS instead of 11-12); XT40/NT20 units use their own layout.
 */
export const gpsCellIgnition: Handler = (ctx) => {
  const content = ctx.frame.content;
  if (isXt40Layout(content)) return xt40Location(ctx, { networkByte: false, driverBlock: false });
  const r = ctx.reader(GPS_BLOCK);
  const p = readGps(r);
  ctx.optional(() => {
    const seeworld = content.length - r.pos >= 24;
    const tailAt = content.length - (seeworld ? 15 : 3);
    setCells(p.attributes, [parseCellBlock(content.subarray(r.pos, tailAt))]);
    const tail = new ByteReader(content, tailAt);
    readIgnitionTail(tail, p);
    if (seeworld) readSeeworldTail(tail, p);
  });
  ctx.position(p);
};

/** 0x31: GPS, cell, ACC tail; SL4X units add odometer and altitude (19 bytes after GPS). */
export const gpsCellAltitude: Handler = (ctx) => {
  const content = ctx.frame.content;
  const r = ctx.reader(GPS_BLOCK);
  const p = readGps(r);
  ctx.optional(() => {
    const extra = content.length - r.pos >= 19 ? 6 : 0;
    const tailAt = content.length - 3 - extra;
    setCells(p.attributes, [parseCellBlock(content.subarray(r.pos, tailAt))]);
    const tail = new ByteReader(content, tailAt);
    readIgnitionTail(tail, p);
    if (extra) {
      setOdometerMeters(p, readUintBE(tail.bytesOf(4)));
      p.altitude = tail.i16();
    }
  });
  ctx.position(p);
};
