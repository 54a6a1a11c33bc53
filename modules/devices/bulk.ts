import type { ErrorName } from "../../lib/errors.ts";
import type { BulkOutcome, Device } from "./model.ts";

/** A device a bulk action left alone, and why. */
export interface Refused {
  imei: string;
  error: ErrorName;
}

/** The answer of a bulk action: one line per IMEI asked for, in the order asked. */
export function bulkOutcome(imeis: string[], changed: Device[], refused: Refused[]): BulkOutcome {
  const done = new Map(changed.map((d) => [d.imei, d]));
  const why = new Map(refused.map((r) => [r.imei, r.error]));
  return {
    done: done.size,
    results: [...new Set(imeis)].map((imei) => ({
      imei,
      deviceName: done.get(imei)?.deviceName ?? "",
      ok: done.has(imei),
      error: done.has(imei) ? null : why.get(imei) ?? "deviceNoPermission",
    })),
  };
}
