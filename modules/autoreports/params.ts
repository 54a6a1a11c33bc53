/**
 * The report request an auto report runs: its filters, the devices and the period, plus the
 * battery threshold and time field where the report's schema takes them.
 */
import { zodRefusal } from "../../lib/http/validation.ts";
import { REPORT_BODIES } from "../reports/schemas.ts";
import type { AutoReportRecord } from "./types.ts";

type Settings = Pick<
  AutoReportRecord,
  "reportType" | "params" | "batteryThreshold" | "timeField"
>;

/** The fields the report's schema names (none when it is not a plain object schema). */
function shapeOf(r: Settings): Record<string, unknown> {
  const schema = REPORT_BODIES[r.reportType] as unknown as { shape?: Record<string, unknown> };
  return schema.shape ?? {};
}

/** `to` is exclusive here; the report's end time is inclusive, so it ends a millisecond before. */
export function reportParams(
  r: Settings,
  imeis: string[],
  from: number,
  to: number,
): Record<string, unknown> {
  const shape = shapeOf(r);
  const extra: Record<string, unknown> = {};
  if (r.batteryThreshold !== null && "batteryThreshold" in shape) {
    extra.batteryThreshold = r.batteryThreshold;
  }
  if (r.timeField !== null && "timeField" in shape) extra.timeField = r.timeField;
  return {
    ...r.params,
    ...extra,
    imeis,
    startTime: new Date(from).toISOString(),
    endTime: new Date(to - 1).toISOString(),
  };
}

/** Refuses filters the report's schema does not accept (checked with a sample request). */
export function checkParams(r: Settings, sample: { from: number; to: number }): void {
  const parsed = REPORT_BODIES[r.reportType].safeParse(
    reportParams(r, ["000000000000000"], sample.from, sample.to),
  );
  if (!parsed.success) throw zodRefusal(parsed.error);
}
