import { fieldMsg } from "./format.ts";
import type { TFunction } from "i18next";

/** A working-mode cycle as the editor holds it (numbers as text while typing). */
export interface CycleForm {
  mode: "normal" | "timing" | "week";
  syncInterval: string;
  wakeUpTime: string;
  syncTime: string;
  repeatDays: number[];
  limitType: "unlimited" | "day" | "hour" | "week" | "times";
  limitValue: string;
}

export const MODES = ["normal", "timing", "week"] as const;
export const LIMITS = ["unlimited", "day", "hour", "week", "times"] as const;
export const DAYS = [1, 2, 3, 4, 5, 6, 7] as const;
export const MAX_CYCLES = 10;

export const newCycle = (): CycleForm => ({
  mode: "normal",
  syncInterval: "10",
  wakeUpTime: "08:00",
  syncTime: "08:00",
  repeatDays: [],
  limitType: "unlimited",
  limitValue: "",
});

/** Editor values → API cycle (only the fields the mode uses). */
export function cycleBody(c: CycleForm) {
  return {
    mode: c.mode,
    ...(c.mode !== "week" ? { syncInterval: Number(c.syncInterval) } : {}),
    ...(c.mode === "timing" ? { wakeUpTime: c.wakeUpTime } : {}),
    ...(c.mode === "week" ? { syncTime: c.syncTime } : {}),
    repeatDays: c.mode === "normal" ? [] : [...c.repeatDays].sort(),
    limitType: c.limitType,
    ...(c.limitType !== "unlimited" ? { limitValue: Number(c.limitValue) } : {}),
  };
}

/** Same rules as the server (modules/workmodes/schemas.ts), keyed "index.field". */
export function checkCycles(t: TFunction, cycles: CycleForm[]): Record<string, string> {
  const errors: Record<string, string> = {};
  const int = (v: string, min: number, max: number) => {
    const n = Number(v);
    if (v.trim() === "" || !Number.isInteger(n)) return fieldMsg(t, "validation.required");
    if (n < min) return fieldMsg(t, "validation.tooSmall", { min });
    if (n > max) return fieldMsg(t, "validation.tooBig", { max });
    return null;
  };
  cycles.forEach((c, i) => {
    const put = (k: string, m: string | null) => m && (errors[`${i}.${k}`] = m);
    if (c.mode !== "week") put("syncInterval", int(c.syncInterval, 1, 1440));
    if (c.mode === "timing" && !/^([01]\d|2[0-3]):[0-5]\d$/.test(c.wakeUpTime)) {
      put("wakeUpTime", fieldMsg(t, "validation.timeForm"));
    }
    if (c.mode === "week" && !/^([01]\d|2[0-3]):[0-5]\d$/.test(c.syncTime)) {
      put("syncTime", fieldMsg(t, "validation.timeForm"));
    }
    if (c.mode !== "normal" && !c.repeatDays.length) {
      put("repeatDays", fieldMsg(t, "validation.required"));
    }
    if (c.limitType !== "unlimited") put("limitValue", int(c.limitValue, 1, 999));
    if (c.limitType === "unlimited" && i < cycles.length - 1) {
      put("limitType", fieldMsg(t, "validation.onlyLastUnlimited"));
    }
  });
  return errors;
}

/** One line per cycle for tables. */
export function cycleSummary(t: TFunction, c: ReturnType<typeof cycleBody>): string {
  const days = c.repeatDays.map((d) => t(`commands.days.${d}`)).join(" ");
  const what = c.mode === "normal"
    ? t("commands.ui.cycle.normal", { n: c.syncInterval })
    : c.mode === "timing"
    ? t("commands.ui.cycle.timing", { time: c.wakeUpTime, n: c.syncInterval, days })
    : t("commands.ui.cycle.week", { time: c.syncTime, days });
  const limit = c.limitType === "unlimited"
    ? t("commands.limits.unlimited")
    : t(`commands.ui.limitFor.${c.limitType}`, { n: c.limitValue });
  return `${what} · ${limit}`;
}
