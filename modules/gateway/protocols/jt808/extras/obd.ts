/** OBD / CAN items: the 0x80-0x8E family, DTC lists, VIN, "$OBD-RT" sentences. */
import type { ByteReader } from "../bytes.ts";
import { trimControl } from "../bytes.ts";
import type { Readings } from "../readings.ts";
import type { ExtraTable } from "./types.ts";

/**
 * "$OBD-RT,power,rpm,speed,throttle,load,coolant,instantFuel,avgFuel,trip,odometer,
 * tripFuelUsed,fuelUsed,…": empty fields are absent values.
 */
const OBD_RT_FIELDS: ReadonlyArray<[string, "int" | "float"] | null> = [
  ["power", "float"],
  ["rpm", "float"],
  ["obdSpeed", "float"],
  ["throttle", "float"],
  ["engineLoad", "float"],
  ["coolantTemp", "int"],
  ["fuelConsumption", "float"], // instant
  ["fuelConsumption", "float"], // average (wins, as it comes last)
  ["odometerTrip", "float"],
  ["obdOdometer", "float"],
  ["tripFuelUsed", "float"],
  ["fuelUsed", "float"],
];

export function decodeObdRt(sentence: string, out: Readings): void {
  const values = sentence.trim().split(",").slice(1); // drop "$OBD-RT"
  OBD_RT_FIELDS.forEach((field, i) => {
    const text = values[i];
    if (!field || text === undefined || text.trim() === "") return;
    const value = field[1] === "int" ? parseInt(text, 10) : parseFloat(text);
    if (Number.isFinite(value)) out.set(field[0], value);
  });
}

function ascii(v: ByteReader): string {
  return trimControl(v.latin1(v.remaining));
}

export const OBD_EXTRAS: ExtraTable = {
  // 0x80 announces that OBD items follow; its byte carries nothing we use.
  0x80: () => {},
  0x81: (v, out) => out.set("rpm", v.u16()),
  0x83: (v, out) => out.set("engineLoad", v.u8()),
  0x84: (v, out) => out.set("coolantTemp", v.u8() - 40),
  0x85: (v, out) => out.set("fuelConsumption", v.u16()),
  0x86: (v, out) => out.set("intakeTemp", v.u8() - 40),
  0x87: (v, out) => out.set("intakeFlow", v.u16()),
  0x88: (v, out) => out.set("intakePressure", v.u8()),
  0x89: (v, out) => out.set("throttle", v.u8()),
  0x8b: (v, out) => out.set("vin", ascii(v)),
  // OBD odometer, 1/10 km.
  0x8c: (v, out) => out.set("obdOdometer", v.u32() / 10),
  // Trip distance, km.
  0x8d: (v, out) => out.set("odometerTrip", v.u16()),
  0x8e: (v, out) => out.set("fuelLevel", v.u8()),
  // Fixed OBD block: battery, rpm, speed, throttle, load, coolant, …, fuel rate, …, fuel used.
  0x91: (v, out) => {
    out.set("batteryVoltage", v.u16() / 10);
    out.set("rpm", v.u16());
    out.set("obdSpeed", v.u8());
    out.set("throttle", Math.floor((v.u8() * 100) / 255));
    out.set("engineLoad", Math.floor((v.u8() * 100) / 255));
    out.set("coolantTemp", v.u8() - 40);
    v.skip(2);
    out.set("fuelConsumption", v.u16() / 100);
    v.skip(8);
    out.set("fuelUsed", v.u16() / 100);
  },
  0x94: (v, out, ctx) => {
    if (ctx.length > 0) out.set("vin", ascii(v));
  },
  // Comma-separated trouble codes.
  0xa0: (v, out, ctx) => {
    if (ctx.length > 0) out.set("dtcs", ascii(v).replaceAll(",", " "));
  },
  // Odometer in metres.
  0xac: (v, out) => {
    out.mileage = v.u32() / 1000;
  },
  0xcc: (v, out) => out.set("iccid", ascii(v)),
  // (WORD id, BYTE len, value) OBD parameters.
  0xf3: (v, out) => {
    while (v.remaining >= 3) {
      const id = v.u16();
      const item = v.sub(v.u8());
      OBD_PARAMETERS[id]?.(item, out);
    }
  },
};

const OBD_PARAMETERS: Readonly<Record<number, (v: ByteReader, out: Readings) => void>> = {
  0x0002: (v, out) => out.set("obdSpeed", v.u16() / 10),
  0x0003: (v, out) => out.set("rpm", v.u16()),
  0x0004: (v, out) => out.set("power", v.u16() / 1000),
  0x0005: (v, out) => out.set("obdOdometer", v.u32() / 10),
  0x0007: (v, out) => out.set("fuelConsumption", v.u16() / 10),
  0x0008: (v, out) => out.set("engineLoad", v.u16() / 10),
  0x0009: (v, out) => out.set("coolantTemp", v.u16() - 40),
  0x000b: (v, out) => out.set("intakePressure", v.u16()),
  0x000c: (v, out) => out.set("intakeTemp", v.u16() - 40),
  0x000d: (v, out) => out.set("intakeFlow", v.u16()),
  0x000e: (v, out) => out.set("throttle", Math.floor((v.u16() * 100) / 255)),
  0x0050: (v, out) => out.set("vin", ascii(v)),
  0x0100: (v, out) => out.set("odometerTrip", v.u16() / 10),
  0x0102: (v, out) => out.set("tripFuel", v.u16() / 10),
  0x0112: (v, out) => out.set("hardAccelerationCount", v.u16()),
  0x0113: (v, out) => out.set("hardDecelerationCount", v.u16()),
  0x0114: (v, out) => out.set("hardCorneringCount", v.u16()),
};
