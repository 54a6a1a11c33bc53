/**
 * A report's time range in the user's time zone: the quick choices (today, yesterday, this
 * week, last 7 days, this month) and the checks the form makes before asking (spec §5: start
 * not after end, nothing after now, the look-back, each report's longest range).
 */
import dayjs from "dayjs";
import { safeZone, toLocalInput } from "../../modules/monitor/time.ts";
import {
  REPORT_LOOKBACK_DAYS,
  REPORT_RANGE_DAYS,
  type ReportName,
} from "../../modules/reports/model.ts";

export const QUICK_RANGES = ["today", "yesterday", "thisWeek", "last7Days", "thisMonth"] as const;
export type QuickRange = typeof QUICK_RANGES[number];

const DAY_MS = 86_400_000;

export interface Range {
  /** Epoch ms. */
  from: number;
  to: number;
}

/**
 * The quick choice's range in `tz`, ending now at the latest (a week starts on Monday; "last 7
 * days" is today and the six days before it, from midnight).
 */
export function quickRange(kind: QuickRange, now: number, tz: string): Range {
  const local = dayjs(now).tz(safeZone(tz));
  const today = local.startOf("day");
  switch (kind) {
    case "today":
      return { from: today.valueOf(), to: now };
    case "yesterday":
      return { from: today.subtract(1, "day").valueOf(), to: today.valueOf() - 1000 };
    case "thisWeek":
      return { from: today.subtract((local.day() + 6) % 7, "day").valueOf(), to: now };
    case "last7Days":
      return { from: today.subtract(6, "day").valueOf(), to: now };
    case "thisMonth":
      return { from: local.startOf("month").valueOf(), to: now };
  }
}

/** Which quick choice a range is, if any (the chip shown as chosen). */
export function quickOf(range: Range, now: number, tz: string): QuickRange | null {
  const minute = (ms: number) => Math.floor(ms / 60_000);
  return QUICK_RANGES.find((k) => {
    const q = quickRange(k, now, tz);
    return minute(q.from) === minute(range.from) && minute(q.to) === minute(range.to);
  }) ?? null;
}

/** What is wrong with a range, as a catalogue message key and its values, or null. */
export type RangeProblem =
  | { key: "errors.startAfterEnd" }
  | { key: "errors.reportStartInFuture" }
  | { key: "errors.reportBeyondLookback"; days: number }
  | { key: "errors.playbackRangeTooLong"; days: number }
  | { key: "reports.form.noRange" };

/**
 * The form's checks, the same as the API's (an end after now is clamped to now by the form,
 * as the date pickers cannot go past it).
 */
export function rangeProblem(report: ReportName, r: Range, now: number): RangeProblem | null {
  if (!Number.isFinite(r.from) || !Number.isFinite(r.to)) return { key: "reports.form.noRange" };
  if (r.from > now) return { key: "errors.reportStartInFuture" };
  if (r.from > r.to) return { key: "errors.startAfterEnd" };
  if (r.from < now - REPORT_LOOKBACK_DAYS * DAY_MS) {
    return { key: "errors.reportBeyondLookback", days: REPORT_LOOKBACK_DAYS };
  }
  const days = REPORT_RANGE_DAYS[report];
  if (r.to - r.from > days * DAY_MS) return { key: "errors.playbackRangeTooLong", days };
  return null;
}

/** The earliest start a report may ask for, as a datetime-local value (the input's min). */
export function earliestInput(now: number, tz: string): string {
  return toLocalInput(now - REPORT_LOOKBACK_DAYS * DAY_MS + 60_000, tz);
}
