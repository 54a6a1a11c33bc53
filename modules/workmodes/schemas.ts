import { z } from "zod";
import { pageFields } from "../accounts/schemas.ts";

const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "validation.timeForm");
/** 1 Monday … 7 Sunday. */
const days = z.array(z.number().int().min(1).max(7)).max(7);

export const LIMIT_TYPES = ["unlimited", "day", "hour", "week", "times"] as const;

/**
 * One cycle of a working mode. Normal mode reports every syncInterval minutes; timing mode
 * wakes at wakeUpTime and then every syncInterval minutes on the repeat days; week mode
 * syncs once at syncTime on the repeat days. The limitation says how long the cycle runs
 * before the next one starts.
 */
export const cycleSchema = z.object({
  mode: z.enum(["normal", "timing", "week"]),
  syncInterval: z.number().int().min(1).max(1440).optional(),
  wakeUpTime: hhmm.optional(),
  syncTime: hhmm.optional(),
  repeatDays: days.default([]),
  limitType: z.enum(LIMIT_TYPES),
  /** Days, hours, weeks or times; absent for unlimited. */
  limitValue: z.number().int().min(1).max(999).optional(),
}).strict().superRefine((c, ctx) => {
  const need = (key: keyof typeof c, ok: boolean) => {
    if (!ok) ctx.addIssue({ code: "custom", path: [key], message: "validation.required" });
  };
  if (c.mode !== "week") need("syncInterval", c.syncInterval !== undefined);
  if (c.mode === "timing") need("wakeUpTime", !!c.wakeUpTime);
  if (c.mode === "week") need("syncTime", !!c.syncTime);
  // Spec §5: a repeat day is required (normal mode runs every day).
  if (c.mode !== "normal") need("repeatDays", c.repeatDays.length > 0);
  if (c.limitType !== "unlimited") need("limitValue", c.limitValue !== undefined);
});
export type Cycle = z.infer<typeof cycleSchema>;

/** At most 10 cycles; only the last may be unlimited (spec §5). */
export const MAX_CYCLES = 10;
export const SAME_NAME_LIMIT = 10;

export const templateBody = z.object({
  id: z.string().max(40).optional(),
  name: z.string().trim().min(1).max(20),
  cycles: z.array(cycleSchema).min(1).max(MAX_CYCLES),
}).strict().superRefine((t, ctx) => {
  t.cycles.forEach((c, i) => {
    if (c.limitType === "unlimited" && i < t.cycles.length - 1) {
      ctx.addIssue({
        code: "custom",
        path: ["cycles", i, "limitType"],
        message: "validation.onlyLastUnlimited",
      });
    }
  });
});

export const applyBody = z.object({
  templateId: z.string().min(1).max(40),
  imeis: z.array(z.string().trim().regex(/^\d{15}$/, "validation.imeiForm")).min(1).max(1000),
  sendType: z.enum(["online", "offline"]).default("offline"),
  replace: z.boolean().default(false),
}).strict();

export const TASK_STATES = ["waiting", "executing", "aboutToEnd", "ended"] as const;
export const taskListBody = z.object({
  ...pageFields,
  state: z.enum(TASK_STATES).optional(),
  imei: z.string().trim().regex(/^\d{1,15}$/, "validation.imeiForm").optional(),
  batchNo: z.string().trim().max(40).optional(),
}).strict();
