/**
 * Tank conversion: what a fuel sensor reads (an ADC voltage, a rod's height, a percent of the
 * height) → litres in the tank, by the tank's shape. Dimensions are in cm (devices' detail
 * form), so cm³ / 1000 = litres. Pure.
 */
import type { CalibrationPoint, TankShape } from "./model.ts";

/** The parts of a configured oil tank (modules/devices/detail.ts OilTank) the conversion uses. */
export interface TankGeometry {
  shape: TankShape;
  /** cm; null when the shape does not need it. */
  width: number | null;
  length: number | null;
  height: number | null;
  diameter: number | null;
  /** Sensor volts at an empty and at a full tank. */
  minVoltage: number;
  maxVoltage: number;
  /** Litres when full. */
  capacity: number | null;
  /** Irregular tanks: reading → litres (readings in the sensor's unit: volts or cm). */
  calibration?: CalibrationPoint[];
}

/** What the sensor reported. */
export type TankReading =
  | { kind: "voltage"; volts: number }
  | { kind: "height"; cm: number }
  | { kind: "percent"; percent: number };

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/** Litres in a box of w × l cm filled to h cm. */
export function cubeLitres(widthCm: number, lengthCm: number, fillCm: number): number {
  return (widthCm * lengthCm * Math.max(0, fillCm)) / 1000;
}

/**
 * Litres in a lying cylinder of diameter d and length l filled to h: the circular segment's
 * area r²·acos((r−h)/r) − (r−h)·√(2rh − h²) times the length.
 */
export function horizontalCylinderLitres(diameterCm: number, lengthCm: number, fillCm: number) {
  const r = diameterCm / 2;
  const h = clamp(fillCm, 0, diameterCm);
  const area = r * r * Math.acos((r - h) / r) - (r - h) * Math.sqrt(Math.max(0, 2 * r * h - h * h));
  return (area * lengthCm) / 1000;
}

/** Linear interpolation in a calibration table (readings ascending); clamped to its ends. */
export function calibrationLitres(table: readonly CalibrationPoint[], reading: number): number {
  if (table.length === 0) return NaN;
  if (reading <= table[0].value) return table[0].litres;
  const last = table[table.length - 1];
  if (reading >= last.value) return last.litres;
  let lo = 0, hi = table.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (table[mid].value <= reading) lo = mid;
    else hi = mid;
  }
  const a = table[lo], b = table[hi];
  return a.litres + ((reading - a.value) / (b.value - a.value)) * (b.litres - a.litres);
}

/** The tank's inner height in cm: how high the level can go (a lying cylinder: its diameter). */
export function tankHeightCm(t: TankGeometry): number | null {
  return t.shape === "horizontal" ? t.diameter : t.height;
}

/** Litres at a fill height for the regular shapes; irregular tanks go by their table. */
export function litresAtHeight(t: TankGeometry, fillCm: number): number | null {
  if (t.shape === "cube" && t.width && t.length && t.height) {
    return cubeLitres(t.width, t.length, clamp(fillCm, 0, t.height));
  }
  if (t.shape === "horizontal" && t.diameter && t.length) {
    return horizontalCylinderLitres(t.diameter, t.length, fillCm);
  }
  // An irregular tank without a table: litres in proportion to the height.
  if (t.shape === "irregular" && t.height && t.capacity) {
    return (clamp(fillCm, 0, t.height) / t.height) * t.capacity;
  }
  return null;
}

/** The fraction of the sensor's range a voltage stands for (0 empty … 1 full). */
export function voltageFraction(t: TankGeometry, volts: number): number {
  const span = t.maxVoltage - t.minVoltage;
  return span > 0 ? clamp((volts - t.minVoltage) / span, 0, 1) : 0;
}

/**
 * Litres for a reading, or null when the tank lacks what its shape needs. An irregular tank with
 * a table reads voltages and heights through it; otherwise a voltage is a fraction of the height
 * between the empty and full voltages, and a percent a fraction of the height.
 */
export function tankLitres(t: TankGeometry, reading: TankReading): number | null {
  const table = t.shape === "irregular" && t.calibration && t.calibration.length >= 2
    ? t.calibration
    : null;
  if (table && reading.kind === "voltage") return calibrationLitres(table, reading.volts);
  if (table && reading.kind === "height") return calibrationLitres(table, reading.cm);
  if (table) {
    return (clamp((reading as { percent: number }).percent, 0, 100) / 100) *
      table[table.length - 1].litres;
  }
  const height = tankHeightCm(t);
  if (reading.kind === "height") return litresAtHeight(t, reading.cm);
  if (height === null) {
    // No height to scale: a percent of the capacity is all that can be said.
    if (reading.kind === "percent" && t.capacity) {
      return (clamp(reading.percent, 0, 100) / 100) * t.capacity;
    }
    if (reading.kind === "voltage" && t.capacity) {
      return voltageFraction(t, reading.volts) * t.capacity;
    }
    return null;
  }
  const fraction = reading.kind === "voltage"
    ? voltageFraction(t, reading.volts)
    : clamp(reading.percent, 0, 100) / 100;
  return litresAtHeight(t, fraction * height);
}

/** Rounds litres for storing (0.1 L: what a fuel sensor resolves at best). */
export const roundLitres = (v: number) => Math.round(v * 10) / 10;
