/** Service packets: time request, serial passthrough, OBD data, peripheral data. */

import { buildFrame } from "../frame.ts";
import { isPrintable, latin1, toHex } from "../reader.ts";
import type { Handler, Telemetry } from "./context.ts";
import { readDateTime } from "./gps.ts";
import { setOdometerMeters } from "./tails.ts";

/** 0x8A: the device asks for the time; answer with the current UTC time and its serial. */
export const timeRequest: Handler = (ctx) => {
  const now = ctx.now();
  const time = new Uint8Array([
    now.getUTCFullYear() - 2000,
    now.getUTCMonth() + 1,
    now.getUTCDate(),
    now.getUTCHours(),
    now.getUTCMinutes(),
    now.getUTCSeconds(),
  ]);
  ctx.reply(buildFrame(0x8a, ctx.frame.serial, time, ctx.frame.extended));
};

/** 0x9B: data from an external serial device (type byte + data), kept as text or hex. */
export const serialData: Handler = (ctx) => {
  const r = ctx.reader();
  const deviceType = r.u8();
  const data = r.rest();
  const serialData = isPrintable(data) ? latin1(data).trim() : toHex(data);
  ctx.status(ctx.now(), { attributes: { serialType: deviceType, serialData } });
};

/** OBD parameter ids ("PPP=hex value", first two hex digits identify it) we keep. */
const OBD_PARAMETERS: Record<number, [string, (hex: string) => number | string]> = {
  0x2b: ["fuelLevel", (v) => parseInt(v, 16) / 100],
  0x2d: ["coolantTemp", (v) => parseInt(v, 16) / 100],
  0x35: ["obdSpeed", (v) => parseInt(v, 16) / 100],
  0x36: ["rpm", (v) => parseInt(v, 16) / 100],
  0x47: ["fuelUsed", (v) => parseInt(v, 16) / 100],
  0x49: ["hours", (v) => parseInt(v, 16) / 100],
  0x4a: ["vin", (v) => v],
};

/** 0x8C (FM08ABC OBD): time, ACC, "PPP=value,…" text, then 12 bytes not decoded here. */
export const obdData: Handler = (ctx) => {
  const r = ctx.reader(7);
  const time = readDateTime(r);
  const acc = r.u8() > 0;
  const text = latin1(r.bytesOf(Math.max(0, r.remaining - 12)));
  const telemetry: Telemetry = { acc, attributes: {} };
  for (const pair of text.split(",")) {
    const [key, value] = pair.split("=");
    if (!key || value === undefined || value === "") continue;
    const id = parseInt(key.slice(0, 2), 16);
    if (id === 0x28) setOdometerMeters(telemetry, parseInt(value, 16) * 10);
    const parameter = OBD_PARAMETERS[id];
    if (parameter) telemetry.attributes[parameter[0]] = parameter[1](value);
  }
  ctx.status(time, telemetry);
};

/** 0xF2 (peripheral data): unix time, peripheral type, then a payload kept as hex. */
export const peripheralData: Handler = (ctx) => {
  const r = ctx.reader(6);
  const time = new Date(r.u32() * 1000);
  const peripheralType = r.u16();
  const payload = r.rest();
  const attributes: Record<string, string | number> = { peripheralType };
  if (payload.length > 0) attributes.peripheralData = toHex(payload);
  ctx.status(time, { attributes });
};
