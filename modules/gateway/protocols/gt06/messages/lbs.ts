/**
 * Cell-only packets: a serving cell with status (0x19, 0xA5), an address query (0xA7), and
 * the timestamped neighbour lists (0x18, 0x24, 0x28, 0x2C, 0x2E, 0x33, 0xA1, 0xA2).
 * They become positions without a fix (posType 2 LBS, 3 when WIFI access points are present).
 */

import { ByteReader } from "../reader.ts";
import {
  type CellFormat,
  parseCellBlock,
  readCell,
  readMccMnc,
  readNeighbours,
  readWifiList,
  setCells,
  setWifi,
} from "./cell.ts";
import type { DecodeContext, Handler } from "./context.ts";
import { networkPosition, readDateTime } from "./gps.ts";
import { readStatusBlock, STATUS_BLOCK } from "./terminal.ts";
import { sr411Location } from "./vendor.ts";
import { lw4gLocation } from "./alarm_location.ts";

/** 0x19 / 0xA5: serving cell then the status block; acknowledged (these carry alarms). */
export const cellStatus: Handler = (ctx) => {
  const content = ctx.frame.content;
  const statusAt = content.length - STATUS_BLOCK;
  // Multi-cell firmwares (e.g. Space10X) reuse 0x19 with another layout; skip those.
  const cell = statusAt > 0 ? parseCellBlock(content.subarray(0, statusAt)) : undefined;
  if (!cell) return;
  const p = networkPosition(ctx.now(), 2);
  setCells(p.attributes, [cell]);
  readStatusBlock(new ByteReader(content, statusAt), p, ctx.model);
  ctx.positionIfLocatable(p);
  ctx.ack();
};

/** 0xA7: 4G cell + phone number asking for an address; only the cell is kept. */
export const cellAddressQuery: Handler = (ctx) => {
  const p = networkPosition(ctx.now(), 2);
  setCells(p.attributes, [readCell(ctx.reader(), "4g")]);
  ctx.positionIfLocatable(p);
};

interface CellListLayout {
  format: CellFormat;
  count: number;
  /** A WIFI list follows the timing advance. */
  wifi: boolean;
  /** Wanway S20: timing advance first and an explicit cell count. */
  countPrefixed?: boolean;
}

function decodeCellList(ctx: DecodeContext, layout: CellListLayout): void {
  const r = ctx.reader(9);
  const time = readDateTime(r);
  if (layout.countPrefixed) r.skip(1); // timing advance
  const { mcc, mnc } = readMccMnc(r);
  const count = layout.countPrefixed ? r.u8() : layout.count;
  const cells = readNeighbours(r, mcc, mnc, { count, format: layout.format });
  const p = networkPosition(time, 2);
  setCells(p.attributes, cells);
  if (layout.wifi) {
    ctx.optional(() => {
      r.skip(1); // timing advance
      const points = readWifiList(r, r.u8());
      setWifi(p.attributes, points);
      if (points.length > 0) p.posType = 3;
    });
  }
  ctx.positionIfLocatable(p);
}

const list = (layout: CellListLayout): Handler => (ctx) => decodeCellList(ctx, layout);

/** 0x28, 0x2E: seven 2G cells. */
export const cellList = list({ format: "classic", count: 7, wifi: false });
/** 0x18, 0x2C: seven 2G cells and WIFI access points. */
export const cellWifiList = list({ format: "classic", count: 7, wifi: true });
/** 0xA1: seven 4G cells. */
export const cell4gList = list({ format: "4g", count: 7, wifi: false });
/** 0x33 (short frame): six cells with 4-byte ids and WIFI access points. */
export const cellWideWifiList = list({ format: "wide", count: 6, wifi: true });

const cell4gWifiList = list({ format: "4g", count: 7, wifi: true });
const wanwayCellList = list({ format: "classic", count: 0, wifi: false, countPrefixed: true });

/** 0xA2: 4G cells + WIFI; LW4G units use the number for a short GPS status packet. */
export const cell4gWifiOrLw4g: Handler = (ctx) =>
  ctx.frame.content.length < 100 ? lw4gLocation(ctx) : cell4gWifiList(ctx);

/** 0x24: seven 2G cells; Wanway S20 prefixes a count; SR411 mini sends GPS instead. */
export const cellListOr24Variants: Handler = (ctx) => {
  const size = ctx.frame.content.length;
  if (size === 41) return sr411Location(ctx);
  if (size === 44) return wanwayCellList(ctx);
  cellList(ctx);
};
