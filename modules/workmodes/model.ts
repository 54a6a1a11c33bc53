import type { Cycle } from "./schemas.ts";

export interface WorkModeTemplate {
  id: string;
  ownerId: string;
  name: string;
  cycles: Cycle[];
  createdAt: number;
}

/** Spec §4 work-mode task states. */
export type TaskState = "waiting" | "executing" | "aboutToEnd" | "ended";

/** One device's run through a template. */
export interface WorkModeTask {
  id: string;
  ownerId: string;
  batchNo: string;
  imei: string;
  senderId: string;
  senderAccount: string;
  templateId: string;
  templateName: string;
  cycles: Cycle[];
  /** Index of the cycle being applied. */
  cycle: number;
  state: TaskState;
  /** The command carrying the current cycle. */
  commandId: string;
  /** When the device acknowledged the current cycle; null while waiting. */
  cycleStartedAt: number | null;
  /** When the current cycle's limitation runs out; null when unlimited or not started. */
  cycleEndsAt: number | null;
  /** Why it ended: completed, failed, timeout, cancelled or replaced. */
  endReason: string | null;
  createdAt: number;
  updatedAt: number;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Minutes between reports of a cycle (used to turn a "times" limit into a duration). */
export function periodMinutes(c: Cycle): number {
  if (c.mode === "week") return (7 * 24 * 60) / Math.max(1, c.repeatDays.length);
  return c.syncInterval ?? 60;
}

/** How long a cycle runs once started; null when unlimited. */
export function cycleDurationMs(c: Cycle): number | null {
  const v = c.limitValue ?? 0;
  switch (c.limitType) {
    case "unlimited":
      return null;
    case "hour":
      return v * HOUR;
    case "day":
      return v * DAY;
    case "week":
      return v * 7 * DAY;
    case "times":
      return v * periodMinutes(c) * 60_000;
  }
}

/** A task is "about to end" in the last hour (or last tenth, if shorter) of its final cycle. */
export function aboutToEndWindow(durationMs: number): number {
  return Math.min(HOUR, durationMs / 10);
}
