/**
 * Fleet reminders (spec business §3 Fleet "Reminder", §5 "remind-in-advance not larger than
 * the interval"): shapes and limits shared by the service, the daily job and the page.
 */
import type { FleetOwned } from "./model.ts";

export const REMINDER_TYPES = [
  "maintenance",
  "insurance",
  "licence",
  "inspection",
  "custom",
] as const;
export type ReminderType = typeof REMINDER_TYPES[number];

/** What the interval counts: calendar time, distance driven or engine hours. */
export const INTERVAL_KINDS = ["time", "mileage", "engineHours"] as const;
export type IntervalKind = typeof INTERVAL_KINDS[number];

export const TIME_UNITS = ["week", "month", "year"] as const;
export type TimeUnit = typeof TIME_UNITS[number];

export interface Reminder extends FleetOwned {
  name: string;
  type: ReminderType;
  /** The vehicle's device the reminder is about ("" for none: a time reminder only). */
  imei: string;
  intervalKind: IntervalKind;
  /** time: every `every` weeks, months or years; mileage: every `every` km; engineHours: h. */
  every: number;
  unit: TimeUnit;
  /** Remind this much before due: days (time), km (mileage) or hours (engine hours). */
  advance: number;
  /** First period's start, YYYY-MM-DD. */
  startDate: string;
  /** Where the due notice is mailed ("" for the message centre only). */
  email: string;
  /** Last maintenance (YYYY-MM-DD, "" for none): the current period starts there. */
  lastDone: string;
  /** Maintenances recorded with `done`, newest first (at most DONE_KEPT). */
  history: { date: string; note: string; at: string }[];
  /** The period (its start date) whose notice was sent: one notice per period. */
  notifiedPeriod: string;
}

/** Where a reminder stands today (computed, not stored). */
export type ReminderState = "ok" | "dueSoon" | "overdue";

export interface ReminderStatus {
  state: ReminderState;
  /** The period's start (lastDone or startDate). */
  periodStart: string;
  /** time: the due date; others: null. */
  dueDate: string | null;
  /** mileage / engine hours: driven since the period start, and what is left. */
  used: number | null;
  remaining: number | null;
}

export const REMINDER_LIMITS = {
  nameMax: 50,
  noteMax: 200,
  maxPerAccount: 1000,
  /** Largest interval per kind (10 years, 1,000,000 km, 100,000 h). */
  maxEvery: { week: 520, month: 120, year: 10, mileage: 1_000_000, engineHours: 100_000 },
  doneKept: 20,
} as const;

/** Days in one interval unit, for "remind in advance ≤ the interval" (month: 28, the least). */
export const UNIT_MIN_DAYS: Record<TimeUnit, number> = { week: 7, month: 28, year: 365 };
