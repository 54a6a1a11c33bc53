/** Jimi JC-series dash cameras: item 0xE8 is a typed extension (WORD type, then data). */
import type { ByteReader } from "../bytes.ts";
import type { AlarmType } from "../../types.ts";
import type { Readings } from "../readings.ts";
import type { ExtraHandler } from "./types.ts";

/** Event codes that are plain alarms. */
const JC_ALARMS: ReadonlyMap<number, AlarmType> = new Map<number, AlarmType>([
  [0x0400, "harshAcceleration"],
  [0x0412, "harshAcceleration"],
  [0x0401, "harshBraking"],
  [0x0413, "harshBraking"],
  [0x0402, "harshCornering"],
  [0x0414, "harshCornering"],
  [0x0403, "overspeed"],
  [0x0405, "accident"],
  [0x0416, "accident"],
  [0x0417, "accident"],
  [0x0406, "vibration"],
  [0x0407, "movement"], // towing
  [0x0408, "geofenceEnter"],
  [0x0409, "geofenceExit"],
  [0x040c, "door"],
  [0x0c01, "sos"],
  [0x0c02, "lowPower"],
  [0x0c05, "general"],
  [0x0c0e, "powerCut"],
  [0x0c0f, "lowBattery"],
  [0x0c10, "powerOff"],
  [0x0c12, "tamper"],
]);

const IGNITION_ON = 0x0c03;
const IGNITION_OFF = 0x0c04;

export const jimiExtension: ExtraHandler = (v, out) => {
  const type = v.u16();
  if (type === 0x2002) {
    v.skip(1); // packet length
    out.set("uploadMode", v.u8());
    out.set("buffered", v.u8() === 1);
  } else if (type === 0x2003) {
    decodeJimiPower(v, out);
  } else if (type === 0x2005) {
    v.skip(1); // packet length
    decodeJimiStatusItems(v, out);
  } else if (type === IGNITION_ON || type === IGNITION_OFF) {
    out.acc = type === IGNITION_ON;
  } else {
    out.alarm(JC_ALARMS.get(type));
  }
};

/** Charging flag, battery grade 1-6, battery V, signal, supply V. */
function decodeJimiPower(v: ByteReader, out: Readings): void {
  v.skip(1); // packet length
  out.set("charge", v.u8() === 1);
  const grade = v.u8();
  if (grade >= 1 && grade <= 6) out.batteryPercent(Math.floor((grade * 100) / 6));
  out.set("batteryVoltage", v.u16() / 100);
  out.rssi(v.u8());
  out.set("power", v.u16() / 100);
}

/** (WORD id, BYTE len, value) status items. */
function decodeJimiStatusItems(v: ByteReader, out: Readings): void {
  while (v.remaining >= 3) {
    const id = v.u16();
    const item = v.sub(v.u8());
    if (id === 0x0001) out.set("batteryVoltage", item.u16() / 100);
    else if (id === 0x0002) out.set("dataUsage", item.u32());
    else if (id === 0x0003) out.batteryPercent(item.u8());
    else if (id === 0x0004) out.set("charge", item.u8() === 0);
    else if (id === 0x0005) out.set("iccid", item.hex(10).slice(0, 19));
    else if (id === 0x0007) out.set("hdop", item.u16() / 10);
    else if (id === 0x2001) out.set("power", item.u16() / 10);
  }
}
