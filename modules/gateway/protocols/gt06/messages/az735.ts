/**
 * AZ735 long-frame (0x7979) location 0x32 and alarm 0x33 packets. Each block is
 * length-prefixed: time, GPS (length 0 = no fix), serving cell (length counts itself) with
 * signal, extra cells, WIFI, status byte, reserved. Acknowledged with a long frame.
 */

import type { AlarmType } from "../../types.ts";
import { ByteReader } from "../reader.ts";
import { parseCellBlock, readNeighbours, readWifiList, setCells, setWifi } from "./cell.ts";
import type { Handler } from "./context.ts";
import { gpsPosition, networkPosition, readDateTime } from "./gps.ts";

const ALARM_STATUS: Record<number, AlarmType> = {
  0xa2: "lowBattery",
  0xa3: "lowBattery",
  0xa4: "general",
  0xa5: "door",
};

export const az735: Handler = (ctx) => {
  const r = ctx.reader();
  const time = readDateTime(r);
  const gps = new ByteReader(r.bytesOf(r.u8()));
  const p = gps.remaining >= 12
    ? gpsPosition({
      time,
      satellites: gps.u8() & 0x0f,
      latitude: gps.u32() / 1_800_000,
      longitude: gps.u32() / 1_800_000,
      speedKmh: gps.u8(),
      courseStatus: gps.u16(),
    })
    : networkPosition(time, 2);

  const cellLength = r.u8();
  const cell = cellLength > 1 ? parseCellBlock(r.bytesOf(cellLength - 1)) : undefined;
  if (cellLength > 0) p.attributes.rssi = r.u8();
  const neighbours = new ByteReader(r.bytesOf(r.u8()));
  const cells = cell
    ? [
      cell,
      ...readNeighbours(neighbours, cell.mcc, cell.mnc, {
        count: Math.floor(neighbours.remaining / 6),
        format: "classic",
      }),
    ]
    : [];
  setCells(p.attributes, cells);
  const wifi = new ByteReader(r.bytesOf(r.u8()));
  const points = readWifiList(wifi, Math.floor(wifi.remaining / 7));
  setWifi(p.attributes, points);
  if (p.posType === 2 && points.length > 0) p.posType = 3;

  const status = r.u8();
  p.attributes.status = status;
  if (ctx.frame.type === 0x33) {
    if (status === 0xa0 || status === 0xa1) p.attributes.armed = status === 0xa0;
    if (ALARM_STATUS[status]) p.alarm = ALARM_STATUS[status];
  }
  ctx.positionIfLocatable(p);
  ctx.ack(true);
};
