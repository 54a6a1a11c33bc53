/**
 * The task centre's records: a background job of one user (today: report exports) with its
 * progress and, when done, one result file. Browser code uses TaskRow (modules/reports/model.ts).
 */
import type { TaskStatus } from "../reports/model.ts";

export interface TaskRecord {
  /** Time-ordered: base-36 creation time and counter, then random (newest first by key). */
  id: string;
  /** The account that asked (a virtual user's own id): only it sees and downloads the task. */
  ownerId: string;
  name: string;
  type: string;
  status: TaskStatus;
  /** 0-100. */
  progress: number;
  fileName: string | null;
  contentType: string | null;
  /** Size of the file and the number of KV chunks holding it (0 until done). */
  bytes: number;
  chunks: number;
  /** The catalogue error name of a failed task. */
  error: string | null;
  /** Epoch ms. */
  createdAt: number;
  finishedAt: number | null;
}

/** The file of a finished task. */
export interface TaskOutput {
  fileName: string;
  contentType: string;
  bytes: Uint8Array;
}

/** What a task's work reports while it runs (0-100; never lowers the shown progress). */
export type ProgressFn = (percent: number) => void;

let lastMs = -1;
let sameMs = 0;

/**
 * Task ids: 9 base-36 digits of the creation time (sortable until 5188), 3 of a counter of
 * ids made in the same millisecond (so newer always sorts after older), then 12 random hex.
 */
export function newTaskId(now: number): string {
  sameMs = now === lastMs ? sameMs + 1 : 0;
  lastMs = now;
  const rand = crypto.getRandomValues(new Uint8Array(6));
  return now.toString(36).padStart(9, "0") + sameMs.toString(36).padStart(3, "0") +
    Array.from(rand, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The smallest id created at `ms` (ids below it are older). */
export function idFloor(ms: number): string {
  return ms.toString(36).padStart(9, "0");
}

export const TASK_ID_PATTERN = /^[0-9a-z]{12}[0-9a-f]{12}$/;
