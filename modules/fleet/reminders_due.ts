/**
 * When a reminder is due: time intervals by the calendar (months keep the day of month,
 * clamped to the month's end), mileage and engine hours from the motion engine's daily
 * summaries since the period's start.
 */
import type { DaySummary } from "../motion/types.ts";
import type { Reminder, ReminderStatus, TimeUnit } from "./reminders_model.ts";

const DAY_MS = 86_400_000;

/** YYYY-MM-DD plus n units. */
export function addInterval(date: string, unit: TimeUnit, n: number): string {
  const [y, m, d] = date.split("-").map(Number);
  if (unit === "week") {
    return new Date(Date.UTC(y, m - 1, d) + n * 7 * DAY_MS).toISOString().slice(0, 10);
  }
  const months = unit === "year" ? n * 12 : n;
  const target = new Date(Date.UTC(y, m - 1 + months, 1));
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0))
    .getUTCDate();
  target.setUTCDate(Math.min(d, last));
  return target.toISOString().slice(0, 10);
}

export function addDays(date: string, n: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
}

export function periodStart(r: Pick<Reminder, "lastDone" | "startDate">): string {
  return r.lastDone && r.lastDone > r.startDate ? r.lastDone : r.startDate;
}

/** Distance (km) or engine hours the days add up to, for the reminder's kind. */
export function usage(r: Pick<Reminder, "intervalKind">, days: DaySummary[]): number {
  let sum = 0;
  for (const d of days) {
    sum += r.intervalKind === "mileage" ? d.distance : (d.drivingSeconds + d.idlingSeconds) / 3600;
  }
  return Math.round(sum * 10) / 10;
}

/**
 * Where the reminder stands on `today` (YYYY-MM-DD); `used` is the distance or engine hours
 * since the period's start (ignored for time reminders).
 */
export function reminderStatus(r: Reminder, today: string, used: number | null): ReminderStatus {
  const start = periodStart(r);
  if (r.intervalKind === "time") {
    const due = addInterval(start, r.unit, r.every);
    const state = today >= due ? "overdue" : today >= addDays(due, -r.advance) ? "dueSoon" : "ok";
    return { state, periodStart: start, dueDate: due, used: null, remaining: null };
  }
  const u = used ?? 0;
  const remaining = Math.round((r.every - u) * 10) / 10;
  const state = today < start
    ? "ok"
    : remaining <= 0
    ? "overdue"
    : remaining <= r.advance
    ? "dueSoon"
    : "ok";
  return { state, periodStart: start, dueDate: null, used: u, remaining };
}
