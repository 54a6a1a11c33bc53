/**
 * What browser code may know of the sensor area: tank shapes, the calibration table's limits and
 * the fuel-event defaults (the device details' sensors tab, the sensor reports' pages).
 */

/** Oil tank shapes (device details → sensors → oil tanks). */
export const TANK_SHAPES = ["cube", "horizontal", "irregular"] as const;
export type TankShape = typeof TANK_SHAPES[number];

/**
 * One row of an irregular tank's calibration table: the sensor's reading (volts for an ADC
 * sensor, cm for a rod that reports its height) and the litres in the tank at that reading.
 */
export interface CalibrationPoint {
  value: number;
  litres: number;
}

/** A calibration table has at least 2 and at most this many rows. */
export const CALIBRATION_MAX_POINTS = 64;

/** Litres a level must rise (or fall) to count as a refuel (or a drain) when none is set. */
export const DEFAULT_FUEL_THRESHOLD_L = 10;

/** Above this speed (km/h) the fuel level sloshes: such samples never start or end an event. */
export const FUEL_MOVING_KMH = 5;

/**
 * Whether a calibration table can be interpolated: ≥ 2 rows, readings strictly increasing and
 * litres never decreasing (a tank does not hold less when the level is higher). Returns the
 * validation key of the problem, null when the table is usable.
 */
export function calibrationProblem(table: readonly CalibrationPoint[]): string | null {
  if (table.length < 2) return "validation.calibrationTooShort";
  if (table.length > CALIBRATION_MAX_POINTS) return "validation.calibrationTooLong";
  for (let i = 1; i < table.length; i++) {
    if (!(table[i].value > table[i - 1].value)) return "validation.calibrationNotMonotonic";
    if (table[i].litres < table[i - 1].litres) return "validation.calibrationNotMonotonic";
  }
  return null;
}

/** "value,litres" per line (the sensors tab's text form of a table) → rows; null when unreadable. */
export function parseCalibration(text: string): CalibrationPoint[] | null {
  const rows: CalibrationPoint[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (!line.trim()) continue;
    const [a, b, ...rest] = line.split(/[,;\t ]+/).filter(Boolean);
    const value = Number(a), litres = Number(b);
    if (rest.length || !Number.isFinite(value) || !Number.isFinite(litres)) return null;
    rows.push({ value, litres });
  }
  return rows;
}

/** Rows → the text form (one "value,litres" per line). */
export function formatCalibration(rows: readonly CalibrationPoint[]): string {
  return rows.map((r) => `${r.value},${r.litres}`).join("\n");
}
