/**
 * 0x94 information transmission. Short frames carry the external power voltage; long
 * (0x7979) frames start with a sub-protocol number. Not acknowledged (the documents say
 * the server does not answer information packets).
 */

import type { AttributeValue } from "../../types.ts";
import { ByteReader, latin1, toHex } from "../reader.ts";
import type { Handler } from "./context.ts";

type Attributes = Record<string, AttributeValue>;

export const information: Handler = (ctx) => {
  const r = ctx.reader();
  const attributes: Attributes = {};
  if (!ctx.frame.extended) attributes.power = r.i16() / 100;
  else {
    const decode = SUB_PROTOCOLS[r.u8()];
    if (!decode) return;
    decode(r, attributes);
  }
  if (Object.keys(attributes).length > 0) ctx.status(ctx.now(), { attributes });
};

const SUB_PROTOCOLS: Record<number, (r: ByteReader, a: Attributes) => void> = {
  0x00: (r, a) => {
    a.power = r.u16() / 100;
  },
  0x04: readStatusSync,
  0x05: readDoor,
  0x0a: (r, a) => {
    r.skip(16); // IMEI, IMSI
    a.iccid = iccidFromBcd(r.bytesOf(10));
  },
  // One byte: network technology; two bytes: external power voltage.
  0x0b: (r, a) => {
    if (r.remaining >= 2) a.power = r.u16() / 100;
    else a.networkTechnology = r.u8() > 0 ? "4G" : "2G";
  },
  0x0d: readFuelSensor,
  0x1b: readRfid,
  // Temperature/humidity sensor: two 4-byte values in tenths (°C, %RH).
  0x1e: (r, a) => {
    a.temp1 = (r.u32() | 0) / 10;
    a.humidity = r.u32() / 10;
  },
};

/**
 * ICCID as BCD padded with F. Every ICCID starts with 89; firmwares that store it
 * nibble-swapped (SIM file order) therefore start with 98 and are swapped back.
 */
export function iccidFromBcd(bytes: Uint8Array): string {
  const swapped = bytes[0] === 0x98;
  const digits = Array.from(bytes, (b) => swapped ? ((b & 0x0f) << 4) | (b >> 4) : b);
  return toHex(Uint8Array.from(digits)).replace(/f/g, "");
}

/** "ALM1=C5;ALM2=CC;STA1=C0;DYD=01;…": alarm/status registers as hex, plus the ICCID. */
function readStatusSync(r: ByteReader, a: Attributes): void {
  for (const pair of latin1(r.rest()).split(";")) {
    const [key, value = ""] = pair.split("=");
    const hex = parseInt(value, 16);
    if (/^ALM\d$/.test(key) && !isNaN(hex)) a[`alarm${key[3]}Status`] = hex;
    else if (key === "STA1" && !isNaN(hex)) a.otherStatus = hex;
    else if (key === "DYD" && !isNaN(hex)) a.engineStatus = hex;
    else if (key === "ICCID" && value) a.iccid = value.replace(/F$/i, "");
  }
}

/** Optional time, then flags: bit 0 door open. */
function readDoor(r: ByteReader, a: Attributes): void {
  if (r.remaining >= 7) r.skip(6);
  a.door = (r.u8() & 0x01) !== 0;
}

const FUEL = /!AIOIL,\d+,[\d.]+,([\d.]+),[^,]+,\d{4},([\d.]+),[01],\d+,[0-9A-Fa-f]{2}/;

/** Fuel sensor sentence (optionally behind a 6-byte time): temperature and fuel level. */
function readFuelSensor(r: ByteReader, a: Attributes): void {
  const m = FUEL.exec(latin1(r.rest()));
  if (!m) return;
  a.temp1 = parseFloat(m[1]);
  a.fuelLevel = parseFloat(m[2]);
}

/** RFID reader: either printable text ("RFID:…") or header, type, 4-byte id, checksum, footer. */
function readRfid(r: ByteReader, a: Attributes): void {
  const data = r.rest();
  if (data.length > 0 && /[A-Za-z]/.test(String.fromCharCode(data[0]))) {
    a.serial = latin1(data).trim();
  } else {
    a.driverUniqueId = toHex(new ByteReader(data, 2).bytesOf(4));
  }
}
