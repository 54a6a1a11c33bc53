import type { Position } from "../types.ts";

/**
 * What one OsmAnd HTTP request decodes to. `positions` may be empty: a request carrying
 * only the device id is a keep-alive.
 */
export type OsmAndResult = { deviceId: string; positions: Position[] } | { error: string };

export function failure(error: string): { error: string } {
  return { error };
}

/** Battery percent from a 0-100 value; negative means "unknown" in these clients. */
export function batteryPercent(value: number): number | undefined {
  return value < 0 ? undefined : Math.min(100, Math.round(value));
}

const MAX_DEVICE_ID_LENGTH = 128;

/** Ids are opaque (IMEI, phone-chosen number, name) but must be printable and bounded. */
export function isValidDeviceId(id: string): boolean {
  // deno-lint-ignore no-control-regex
  return id.length > 0 && id.length <= MAX_DEVICE_ID_LENGTH && !/[\u0000-\u001f\u007f]/.test(id);
}
