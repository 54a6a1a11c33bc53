/** Walks the (id, length, value) items after a location's fixed 28 bytes. */
import type { ByteReader } from "../bytes.ts";
import type { Profile } from "../models.ts";
import type { Readings } from "../readings.ts";
import { DRIVING_EXTRAS } from "./driving.ts";
import { EB_EXTRAS } from "./eb.ts";
import { LOCK_EXTRAS } from "./locks.ts";
import { MISC_EXTRAS } from "./misc.ts";
import { OBD_EXTRAS } from "./obd.ts";
import { POWER_EXTRAS } from "./power.ts";
import { SENSOR_EXTRAS } from "./sensors.ts";
import { STANDARD_EXTRAS } from "./standard.ts";
import type { ExtraTable } from "./types.ts";

/** Every id belongs to exactly one family; a duplicate would be a silent override. */
export const DEFAULT_EXTRAS: ExtraTable = mergeDisjoint([
  STANDARD_EXTRAS,
  POWER_EXTRAS,
  SENSOR_EXTRAS,
  OBD_EXTRAS,
  LOCK_EXTRAS,
  DRIVING_EXTRAS,
  EB_EXTRAS,
  MISC_EXTRAS,
]);

export function mergeDisjoint(tables: ExtraTable[]): ExtraTable {
  const merged: Record<number, ExtraTable[number]> = {};
  for (const table of tables) {
    for (const [key, handler] of Object.entries(table)) {
      const id = Number(key);
      if (id in merged) throw new Error(`extra item 0x${id.toString(16)} defined twice`);
      merged[id] = handler;
    }
  }
  return merged;
}

/**
 * Decodes items until the body ends. An item whose length runs past the body ends the walk
 * (what follows cannot be trusted) but keeps what was decoded; an item whose content does not
 * match its handler is skipped alone. Unknown ids are skipped.
 */
export function readExtras(r: ByteReader, out: Readings, profile: Profile): void {
  while (r.remaining >= 2) {
    const id = r.u8();
    const length = r.u8();
    if (length > r.remaining) break;
    const value = r.sub(length);
    const handler = profile.extras[id] ?? DEFAULT_EXTRAS[id];
    if (!handler) continue;
    try {
      handler(value, out, { id, length });
    } catch {
      // malformed item: drop it, keep the rest of the report
    }
  }
}
