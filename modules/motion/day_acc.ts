/**
 * A UTC day's running figures inside the analyzer (plain data: part of its checkpoint) and the
 * DaySummary made from them. Times in ms, distance in metres until the summary.
 */

import type { DaySummary } from "./types.ts";

const DAY_MS = 86_400_000;

export interface DayAcc {
  /** Days since the epoch (UTC). */
  day: number;
  distanceM: number;
  driveMs: number;
  idleMs: number;
  maxSpeed: number;
  firstOdo: number | null;
  lastOdo: number | null;
  /** Litres from the fuel counter's increases this day; null when the counter was never seen. */
  fuelCounter: number | null;
  /** Litres of the trips measured by the fuel level (devices without a counter). */
  fuelTrips: number | null;
  trips: number;
}

/** Days since the epoch of an epoch-ms time (UTC). */
export function dayNumber(time: number): number {
  return Math.floor(time / DAY_MS);
}

/** First millisecond of a day number. */
export function dayNumberStart(day: number): number {
  return day * DAY_MS;
}

export function newDayAcc(day: number): DayAcc {
  return {
    day,
    distanceM: 0,
    driveMs: 0,
    idleMs: 0,
    maxSpeed: 0,
    firstOdo: null,
    lastOdo: null,
    fuelCounter: null,
    fuelTrips: null,
    trips: 0,
  };
}

const round = (v: number, digits: number) => {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
};

export function daySummary(imei: string, d: DayAcc): DaySummary {
  const distance = round(d.distanceM / 1000, 3);
  const hours = d.driveMs / 3_600_000;
  const fuel = d.fuelCounter ?? d.fuelTrips;
  return {
    imei,
    date: new Date(d.day * DAY_MS).toISOString().slice(0, 10),
    distance,
    drivingSeconds: Math.round(d.driveMs / 1000),
    idlingSeconds: Math.round(d.idleMs / 1000),
    maxSpeed: round(d.maxSpeed, 1),
    avgSpeed: hours > 0 ? round(d.distanceM / 1000 / hours, 1) : 0,
    firstOdometer: d.firstOdo,
    lastOdometer: d.lastOdo,
    fuelUsed: fuel === null ? null : round(fuel, 2),
    trips: d.trips,
  };
}
