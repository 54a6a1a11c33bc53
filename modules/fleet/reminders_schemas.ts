import { z } from "zod";
import { INTERVAL_KINDS, REMINDER_LIMITS, REMINDER_TYPES, TIME_UNITS } from "./reminders_model.ts";

const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "YYYY-MM-DD").refine(
  (d) =>
    !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) &&
    new Date(`${d}T00:00:00Z`).toISOString().slice(0, 10) === d,
  "not a calendar date",
);

const fields = {
  name: z.string().trim().min(1).max(REMINDER_LIMITS.nameMax),
  type: z.enum(REMINDER_TYPES),
  imei: z.string().trim().regex(/^\d{6,20}$/).or(z.literal("")).default(""),
  intervalKind: z.enum(INTERVAL_KINDS).default("time"),
  every: z.number().positive().max(1_000_000),
  unit: z.enum(TIME_UNITS).default("month"),
  advance: z.number().min(0).max(1_000_000).default(0),
  startDate: date,
  email: z.email().max(100).or(z.literal("")).default(""),
  lastDone: date.or(z.literal("")).default(""),
  /** Create for a visible sub-account (default: the caller's own account). */
  userId: z.string().max(64).optional(),
};

export const addBody = z.object(fields).strict();
export const updateBody = z.object({ id: z.string().min(1).max(64), ...fields }).strict();
export const deleteBody = z.object({ ids: z.array(z.string().min(1).max(64)).min(1).max(100) })
  .strict();
export const doneBody = z.object({
  id: z.string().min(1).max(64),
  /** The maintenance day (default: today, UTC). */
  date: date.optional(),
  note: z.string().trim().max(REMINDER_LIMITS.noteMax).default(""),
}).strict();
export const listBody = z.object({
  pageNum: z.number().int().min(1).default(1),
  pageSize: z.number().int().min(1).max(100).default(20),
  keyword: z.string().trim().max(50).optional(),
  imei: z.string().trim().regex(/^\d{6,20}$/).optional(),
  state: z.enum(["ok", "dueSoon", "overdue"]).optional(),
}).strict();

export type ReminderInput = z.infer<typeof addBody>;
