/**
 * When an auto report runs and what it covers, in its owner's time zone: daily at the
 * execution time for the day before; weekly on Mondays for the week before (Monday-Sunday);
 * monthly on the 1st for the month before. A slot is named by the local date it runs on, so
 * moving the execution time on a day that already ran never runs that day again.
 */
import dayjs from "dayjs";
import utc from "dayjs/plugin/utc.js";
import timezone from "dayjs/plugin/timezone.js";
import { safeZone } from "../monitor/time.ts";
import type { AutoReportFrequency } from "./model.ts";

dayjs.extend(utc);
dayjs.extend(timezone);

export interface Slot {
  /** "day:2026-11-26", "week:2026-11-23", "month:2026-11-01": the local run date. */
  key: string;
  /** Epoch ms the slot is due. */
  runAt: number;
  /** The period reported: epoch ms, `from` inclusive, `to` exclusive. */
  from: number;
  to: number;
}

const UNIT = { day: "day", week: "week", month: "month" } as const;

/** The local midnight that starts the period containing `local` (weeks start on Monday). */
function periodStart(local: dayjs.Dayjs, frequency: AutoReportFrequency): dayjs.Dayjs {
  const day = local.startOf("day");
  if (frequency === "day") return day;
  if (frequency === "month") return day.date(1);
  return day.subtract((day.day() + 6) % 7, "day");
}

/** The slot of the period that starts at local midnight `start`. */
function slotAt(
  start: dayjs.Dayjs,
  frequency: AutoReportFrequency,
  time: string,
  zone: string,
): Slot {
  const date = start.format("YYYY-MM-DD");
  const runAt = dayjs.tz(`${date} ${time}`, "YYYY-MM-DD HH:mm", zone).valueOf();
  const previous = dayjs.tz(
    start.subtract(1, UNIT[frequency]).format("YYYY-MM-DD"),
    "YYYY-MM-DD",
    zone,
  );
  const from = previous.valueOf();
  const to = dayjs.tz(date, "YYYY-MM-DD", zone).valueOf();
  return { key: `${frequency}:${date}`, runAt, from, to };
}

/** The latest slot due at or before `now` (the one "run now" reports on, too). */
export function latestSlot(
  frequency: AutoReportFrequency,
  executionTime: string,
  timeZone: string,
  now: number,
): Slot {
  const zone = safeZone(timeZone);
  const start = periodStart(dayjs(now).tz(zone), frequency);
  const slot = slotAt(start, frequency, executionTime, zone);
  if (slot.runAt <= now) return slot;
  return slotAt(start.subtract(1, UNIT[frequency]), frequency, executionTime, zone);
}

/**
 * The slot to run at `now`, or null: the latest due slot, when it came after the auto report
 * was created and not longer ago than `catchUpMs` (a restart shortly after the time still
 * sends it; the claim in the store makes sure it is sent once).
 */
export function dueSlot(
  r: { frequency: AutoReportFrequency; executionTime: string; createdAt: number },
  timeZone: string,
  now: number,
  catchUpMs: number,
): Slot | null {
  const slot = latestSlot(r.frequency, r.executionTime, timeZone, now);
  if (slot.runAt < r.createdAt || now - slot.runAt > catchUpMs) return null;
  return slot;
}

/** Longest period of a frequency in days (a month: 31), to check against a report's range. */
export const PERIOD_DAYS: Record<AutoReportFrequency, number> = { day: 1, week: 7, month: 31 };
