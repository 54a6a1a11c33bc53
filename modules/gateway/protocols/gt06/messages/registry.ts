/** Protocol number → handler. Numbers not listed are ignored (no message, no reply). */

import {
  fenceSingle,
  gpsCellStatus,
  gpsCellStatusAltitude,
  gpsCellStatusCard,
  gpsCellStatusGeofence,
} from "./alarm_location.ts";
import { az735 } from "./az735.ts";
import type { Handler } from "./context.ts";
import { event } from "./event.ts";
import { information } from "./info.ts";
import {
  cell4gList,
  cell4gWifiOrLw4g,
  cellAddressQuery,
  cellList,
  cellListOr24Variants,
  cellStatus,
  cellWideWifiList,
  cellWifiList,
} from "./lbs.ts";
import {
  gps4gCell,
  gps4gCellModules,
  gpsCellAltitude,
  gpsCellIgnition,
  gpsCellList,
  gpsCellModules,
  gpsOnly,
  gpsWideCell,
} from "./location.ts";
import { login } from "./login.ts";
import { obdData, peripheralData, serialData, timeRequest } from "./misc.ts";
import { modular } from "./modular.ts";
import { gk310Heartbeat, heartbeatStatus, status36 } from "./status.ts";
import { stringInfo, stringReply } from "./text.ts";
import { gpsCellVendorTail, imeiDriverLocation, x1Location, xt40DriverLocation } from "./vendor.ts";
import { legacyWifiOnly, wifiList, wifiOrRfid } from "./wifi.ts";

/** 0x32/0x33 mean different packets in short (0x7878) and long (0x7979) frames. */
const byFraming = (short: Handler, long: Handler): Handler => (ctx) =>
  ctx.frame.extended ? long(ctx) : short(ctx);

export const HANDLERS: Record<number, Handler> = {
  0x01: login,
  0x10: gpsOnly,
  0x11: gpsWideCell,
  0x12: gpsCellVendorTail,
  0x13: heartbeatStatus,
  0x15: stringReply,
  0x16: gpsCellStatusCard,
  0x17: wifiOrRfid,
  0x18: cellWifiList,
  0x19: cellStatus,
  0x1a: gpsOnly,
  0x1e: gpsCellList,
  0x21: stringInfo,
  0x22: gpsCellIgnition,
  0x23: gk310Heartbeat,
  0x24: cellListOr24Variants,
  0x25: xt40DriverLocation,
  0x26: gpsCellStatus,
  0x27: gpsCellStatusGeofence,
  0x28: cellList,
  0x2c: cellWifiList,
  0x2d: gpsCellModules,
  0x2e: cellList,
  0x31: gpsCellAltitude,
  0x32: byFraming(gpsCellStatusAltitude, az735),
  0x33: byFraming(cellWideWifiList, az735),
  0x34: x1Location,
  0x36: status36,
  0x37: gpsCellModules,
  0x38: gps4gCellModules,
  0x61: imeiDriverLocation,
  0x69: legacyWifiOnly,
  0x70: modular,
  0x8a: timeRequest,
  0x8c: obdData,
  0x94: information,
  0x95: event,
  0x9b: serialData,
  0xa0: gps4gCell,
  0xa1: cell4gList,
  0xa2: cell4gWifiOrLw4g,
  0xa3: fenceSingle,
  0xa4: gpsCellStatusGeofence,
  0xa5: cellStatus,
  0xa7: cellAddressQuery,
  0xf2: peripheralData,
  0xf3: wifiList,
};
