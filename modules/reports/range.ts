/**
 * The range rules of every report query (spec business §5): start not after end, not in the
 * future, at most REPORT_LOOKBACK_DAYS back, at most the report's own number of days long.
 */
import { BizError } from "../../lib/errors.ts";
import { REPORT_LOOKBACK_DAYS } from "./model.ts";

const DAY_MS = 86_400_000;
/** Clock differences between browser and server up to this much are not "the future". */
const CLOCK_SLACK_MS = 60_000;

export interface TimeRange {
  /** Epoch ms, inclusive. */
  from: number;
  /** Epoch ms, inclusive; never after now (a page asking for "until end of today"). */
  to: number;
}

/**
 * Checks a query's range and answers it in epoch ms. The end may lie after now (a page's
 * "today" ends at midnight): it is read as now, and the length is measured as asked.
 */
export function checkRange(
  startTime: string,
  endTime: string,
  maxDays: number,
  now = Date.now(),
): TimeRange {
  const from = Date.parse(startTime), to = Date.parse(endTime);
  if (from > to) throw new BizError("startAfterEnd");
  if (from > now + CLOCK_SLACK_MS) throw new BizError("reportStartInFuture");
  if (from < now - REPORT_LOOKBACK_DAYS * DAY_MS) {
    throw new BizError("reportBeyondLookback", { days: REPORT_LOOKBACK_DAYS });
  }
  if (to - from > maxDays * DAY_MS) {
    throw new BizError("playbackRangeTooLong", { days: maxDays });
  }
  return { from, to: Math.min(to, now) };
}
