/**
 * What the decoders put on a report (modules/gateway/protocols/*: attribute names shared by
 * GT06, JT/T 808, H02 and OsmAnd) → the sensor series and events. One table, so a new decoder
 * attribute is one line here. Pure.
 */
import type { SensorEventKind, SensorSeries } from "./types.ts";

type Attrs = Readonly<Record<string, string | number | boolean>>;

/** One report as the pipeline hands it over (a stored fix or a status message). */
export interface SensorReport {
  time: number;
  lat?: number;
  lng?: number;
  /** km/h; absent for status messages. */
  speed?: number;
  /** The contract's battery percent. */
  battery: number | null;
  attributes: Attrs;
}

export interface ExtractedValue {
  series: SensorSeries;
  index: number;
  value: number;
}

export interface ExtractedEvent {
  kind: SensorEventKind;
  data: Record<string, string | number | boolean | null>;
}

const num = (v: unknown): number | null => typeof v === "number" && Number.isFinite(v) ? v : null;

/** Attribute → series (index 0): plain numbers in the series' unit. */
const PLAIN: ReadonlyArray<[string, SensorSeries, ((v: number) => number)?]> = [
  ["batteryVoltage", "batteryVoltage"],
  ["power", "externalVoltage"],
  ["fuel", "fuelLitres"],
  ["fuelLevel", "fuelPercent"],
  ["obdSpeed", "obdSpeed"],
  ["rpm", "obdRpm"],
  ["coolantTemp", "obdCoolant"],
  ["fuelConsumption", "obdFuelRate"],
  ["obdOdometer", "obdOdometer"],
  ["throttle", "obdThrottle"],
  ["engineLoad", "obdEngineLoad"],
];

/** Probe temperatures beyond temp1…temp8: which probe they are. */
const OTHER_TEMPS: ReadonlyArray<[string, number]> = [["cargoTemp", 9], ["externalTemp", 10]];

/** Lux at or above which a light sensor counts as "light" (the series is 0/1). */
const LIGHT_LUX = 10;

const BEHAVIOUR: Readonly<Record<string, SensorEventKind>> = {
  harshAcceleration: "harshAcceleration",
  harshBraking: "harshBraking",
  harshCornering: "harshCornering",
};

/** The series values a report carries. */
export function extractValues(r: SensorReport): ExtractedValue[] {
  const a = r.attributes;
  const out: ExtractedValue[] = [];
  const add = (series: SensorSeries, index: number, v: number | null) => {
    if (v !== null) out.push({ series, index, value: v });
  };
  if (r.battery !== null) add("batteryPercent", 0, r.battery);
  for (const [key, series, scale] of PLAIN) {
    const v = num(a[key]);
    if (v !== null) add(series, 0, scale ? scale(v) : v);
  }
  for (let i = 1; i <= 8; i++) {
    add("temperature", i, num(a[`temp${i}`]));
    add("humidity", i, num(a[`humidity${i}`]));
  }
  for (const [key, index] of OTHER_TEMPS) add("temperature", index, num(a[key]));
  // A lone humidity belongs to the first probe (GT06 0x94 0x1E, JT/T 808 sensor events).
  if (a.humidity1 === undefined) add("humidity", 1, num(a.humidity) ?? num(a.externalHumidity));
  if (typeof a.door === "boolean") add("door", 1, a.door ? 1 : 0);
  const lux = num(a.lightSensor) ?? num(a.illuminance) ?? num(a.externalIlluminance);
  if (lux !== null) add("light", 1, lux >= LIGHT_LUX ? 1 : 0);
  // Analog inputs in volts, 1-based (GT06 vendor tails, JT/T 808 0x2B).
  for (let i = 1; i <= 4; i++) add("adc", i, num(a[`adc${i}`]));
  // Several fuel sensors (JT/T 808 0xEB items): the first is the tank's level in litres.
  if (a.fuel === undefined) add("fuelLitres", 0, num(a.fuel1));
  return out;
}

/** The once-only things a report says: harsh driving (from its alarms). */
export function extractEvents(r: SensorReport): ExtractedEvent[] {
  const a = r.attributes;
  const out: ExtractedEvent[] = [];
  const alarms = new Set<string>();
  if (typeof a.alarm === "string") alarms.add(a.alarm);
  if (typeof a.alarms === "string") { for (const x of a.alarms.split(",")) alarms.add(x); }
  for (const alarm of alarms) {
    const kind = BEHAVIOUR[alarm];
    if (kind) out.push({ kind, data: { speed: r.speed ?? null } });
  }
  return out;
}

/**
 * The Bluetooth tags a report saw (JT/T 808 0x0900/0x53 BLE reports: `tag1Mac`, `tag2Mac`…),
 * upper-case; empty when it names none.
 */
export function bleTags(r: SensorReport): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(r.attributes)) {
    if (typeof v === "string" && /^tag\d+Mac$/.test(k) && v) out.push(v.toUpperCase());
  }
  return out;
}

/** Fault codes a report lists ("P0301 P0420"), sorted; null when it lists none. */
export function faultCodes(r: SensorReport): string | null {
  const v = r.attributes.dtcs;
  if (typeof v !== "string") return null;
  const codes = v.split(/[\s,;]+/).filter(Boolean).map((c) => c.toUpperCase()).sort();
  return codes.length ? codes.join(" ") : null;
}
