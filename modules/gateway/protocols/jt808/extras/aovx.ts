/** AOVX trackers (AL300, GL100): their own meaning for items 0xF3, 0xF6 and 0xF8. */
import { trimControl } from "../bytes.ts";
import { decodeSensorEvent } from "./sensors.ts";
import type { ExtraTable } from "./types.ts";

export const AOVX_EXTRAS: ExtraTable = {
  // BLE tags: a field mask, then per tag MAC, RSSI and the fields the mask selects.
  0xf3: (v, out) => {
    const mask = v.u8();
    for (let i = 1; v.remaining > 0; i++) {
      const tag = `tag${i}`;
      out.set(`${tag}Mac`, v.hex(6));
      out.set(`${tag}Rssi`, v.i8());
      if (mask & 0x01) out.set(`${tag}Name`, trimControl(v.latin1(10)));
      if (mask & 0x02) v.skip(2); // firmware version
      if (mask & 0x04) out.set(`${tag}Battery`, v.u16() / 1000);
      if (mask & 0x08) out.set(`${tag}Temp`, v.i16() / 10);
      if (mask & 0x10) out.set(`${tag}Humidity`, v.i16() / 10);
      if (mask & 0x20) v.skip(6); // accelerometer
      if (mask & 0x40) v.skip(2);
      if (mask & 0x80) v.skip(2);
    }
  },
  0xf6: (v, out) => decodeSensorEvent(v, out),
  // Working mode, IMEI (8 bytes), ICCID (10 bytes BCD).
  0xf8: (v, out) => {
    v.skip(1 + 8);
    out.set("iccid", v.hex(10));
  },
};
