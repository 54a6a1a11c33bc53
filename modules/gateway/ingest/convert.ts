import type { StoredPosition } from "../../devices/model.ts";
import type { Position } from "../protocols/types.ts";

export const KNOT_IN_KMH = 1.852;

/** Protocol position (knots) → stored position (km/h, epoch ms), rounded to sensible precision. */
export function toStored(p: Position): StoredPosition {
  return {
    time: p.time.getTime(),
    lat: p.latitude,
    lng: p.longitude,
    speed: Math.round(p.speed * KNOT_IN_KMH * 10) / 10,
    course: Math.round(((p.course % 360) + 360) % 360),
    altitude: Math.round(p.altitude * 10) / 10,
    satellites: p.satellites ?? 0,
    posType: p.posType,
    valid: p.valid,
    acc: p.acc ?? null,
    mileage: p.mileage ?? null,
    battery: p.battery ?? null,
    signal: p.signal ?? null,
    // The decoded message is dropped after this, so its attributes object is taken over.
    attributes: p.alarm ? { ...p.attributes, alarm: p.alarm } : p.attributes,
  };
}

/** A point is plottable when the device had a location fix (not 0,0 cell-only reports). */
export function hasLocation(p: StoredPosition): boolean {
  return Number.isFinite(p.lat) && Number.isFinite(p.lng) && !(p.lat === 0 && p.lng === 0) &&
    Math.abs(p.lat) <= 90 && Math.abs(p.lng) <= 180;
}
