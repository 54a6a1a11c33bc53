/** Distance and speed in the user's units (spec §9: km, mi or nmi; km/h, mph or knot). */

export type DistanceUnit = "km" | "mi" | "nmi";
export type SpeedUnit = "km/h" | "mph" | "knot";

const KM_PER: Record<DistanceUnit, number> = { km: 1, mi: 1.609344, nmi: 1.852 };
const KMH_PER: Record<SpeedUnit, number> = { "km/h": 1, mph: 1.609344, knot: 1.852 };

export function distanceUnit(value: string | undefined): DistanceUnit {
  return value === "mi" || value === "nmi" ? value : "km";
}

export function speedUnit(value: string | undefined): SpeedUnit {
  return value === "mph" || value === "knot" ? value : "km/h";
}

/** Kilometres → the user's distance unit. */
export function convertDistance(km: number, unit: DistanceUnit): number {
  return km / KM_PER[unit];
}

/** km/h (the API unit) → the user's speed unit. */
export function convertSpeed(kmh: number, unit: SpeedUnit): number {
  return kmh / KMH_PER[unit];
}

/** "42 km/h", "26.1 mph": whole numbers from 100 up, one decimal below. */
export function formatSpeed(kmh: number, unit: SpeedUnit): string {
  const v = convertSpeed(kmh, unit);
  return `${v >= 100 ? Math.round(v) : Math.round(v * 10) / 10} ${unit}`;
}

export function formatDistance(km: number, unit: DistanceUnit): string {
  const v = convertDistance(km, unit);
  return `${v >= 100 ? Math.round(v) : Math.round(v * 100) / 100} ${unit}`;
}
