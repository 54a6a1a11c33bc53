/**
 * The task centre: starts background work for a user (report exports), records its progress
 * and result file, lists a user's own tasks, serves their files, and removes them after
 * EXPORT_KEEP_DAYS. A task sees only its owner: another account (a sibling, a parent) asking
 * for its id gets the same answer as for an id that never existed.
 */
import { BizError, type ErrorName } from "../../lib/errors.ts";
import { log } from "../../lib/log.ts";
import { EXPORT_KEEP_DAYS, type TaskRow } from "../reports/model.ts";
import {
  idFloor,
  newTaskId,
  type ProgressFn,
  TASK_ID_PATTERN,
  type TaskOutput,
  type TaskRecord,
} from "./model.ts";
import type { TaskStore } from "./store.ts";

const taskLog = log.area("tasks");

/** Progress is written at most this often (the last value always is). */
const PROGRESS_WRITE_MS = 250;

export interface TaskListQuery {
  type?: string;
  pageNum: number;
  pageSize: number;
}

export interface TaskFile {
  fileName: string;
  contentType: string;
  bytes: number;
  body: ReadableStream<Uint8Array>;
}

export class TaskService {
  /** Work still running in this process, by task id (tests and shutdown wait for it). */
  private readonly running = new Map<string, { ownerId: string; done: Promise<void> }>();

  constructor(
    private readonly store: TaskStore,
    private readonly opts: { keepDays?: number; now?: () => number } = {},
  ) {}

  private now(): number {
    return this.opts.now?.() ?? Date.now();
  }

  /**
   * Records a running task and starts `work` in the background; answers the task id at once.
   * The work's file is stored when it resolves; a throw marks the task failed (a catalogue
   * error keeps its name, anything else is logged and shown as systemBusy).
   */
  async start(
    ownerId: string,
    meta: { name: string; type: string; fileName: string },
    work: (progress: ProgressFn) => Promise<TaskOutput>,
  ): Promise<string> {
    const createdAt = this.now();
    const task: TaskRecord = {
      id: newTaskId(createdAt),
      ownerId,
      name: meta.name,
      type: meta.type,
      status: "running",
      progress: 0,
      fileName: meta.fileName,
      contentType: null,
      bytes: 0,
      chunks: 0,
      error: null,
      createdAt,
      finishedAt: null,
    };
    await this.store.save(task);
    const done = this.run(task, work).finally(() => this.running.delete(task.id));
    this.running.set(task.id, { ownerId, done });
    return task.id;
  }

  private async run(
    task: TaskRecord,
    work: (progress: ProgressFn) => Promise<TaskOutput>,
  ): Promise<void> {
    const progress = new ProgressWriter(task, this.store);
    try {
      const out = await work((p) => progress.set(p));
      await progress.settled();
      const chunks = await this.store.writeFile(task.id, out.bytes);
      Object.assign(task, {
        status: "done",
        progress: 100,
        fileName: out.fileName,
        contentType: out.contentType,
        bytes: out.bytes.length,
        chunks,
        finishedAt: this.now(),
      });
    } catch (e) {
      await progress.settled();
      if (!(e instanceof BizError)) taskLog.error(`task ${task.id} (${task.type}) failed`, e);
      Object.assign(task, {
        status: "failed",
        error: e instanceof BizError ? e.key : "systemBusy",
        finishedAt: this.now(),
      });
    }
    await this.store.save(task);
  }

  /** The owner's tasks, newest first, optionally of one type. */
  async list(ownerId: string, q: TaskListQuery): Promise<{ total: number; list: TaskRow[] }> {
    let ids = await this.store.idsOf(ownerId);
    let records: TaskRecord[];
    if (q.type) {
      records = (await this.store.many(ids)).filter((t) => t.type === q.type);
      ids = records.map((t) => t.id);
    }
    const from = (q.pageNum - 1) * q.pageSize;
    const pageIds = ids.slice(from, from + q.pageSize);
    records = q.type ? records!.slice(from, from + q.pageSize) : await this.store.many(pageIds);
    return { total: ids.length, list: records.map(toRow) };
  }

  /** A done task's file; refused as unknown unless the caller owns the task. */
  async file(ownerId: string, id: string): Promise<TaskFile> {
    const task = TASK_ID_PATTERN.test(id) ? await this.store.get(id) : null;
    if (!task || task.ownerId !== ownerId) throw new BizError("dataNotExists");
    if (task.status !== "done" || !task.contentType) throw new BizError("taskNotReady");
    return {
      fileName: task.fileName ?? task.id,
      contentType: task.contentType,
      bytes: task.bytes,
      body: this.store.readFile(task.id),
    };
  }

  /** Removes tasks (and files) created more than keepDays ago; answers how many. */
  async prune(): Promise<number> {
    const keepMs = (this.opts.keepDays ?? EXPORT_KEEP_DAYS) * 86_400_000;
    let removed = 0;
    for await (const t of this.store.olderThan(idFloor(this.now() - keepMs))) {
      if (this.running.has(t.id)) continue;
      await this.store.delete(t);
      removed++;
    }
    return removed;
  }

  /**
   * At start-up: a task still "running" was interrupted by a restart (its work lived in the
   * old process), so it is marked failed. Answers how many.
   */
  async recover(): Promise<number> {
    let failed = 0;
    for await (const t of this.store.all()) {
      if (t.status !== "running") continue;
      await this.store.save({
        ...t,
        status: "failed",
        error: "systemBusy",
        finishedAt: this.now(),
      });
      failed++;
    }
    if (failed) taskLog.warn(`${failed} task(s) interrupted by a restart marked failed`);
    return failed;
  }

  /**
   * Waits for a task this process started (or reads a settled one): null when it is done,
   * else its catalogue error name (a missing task counts as systemBusy).
   */
  async finished(id: string): Promise<ErrorName | null> {
    await this.running.get(id)?.done;
    const task = await this.store.get(id);
    if (task?.status === "done") return null;
    return (task?.error as ErrorName | null) ?? "systemBusy";
  }

  /** Resolves when every task started by this process has finished. */
  async idle(): Promise<void> {
    while (this.running.size) {
      await Promise.allSettled([...this.running.values()].map((r) => r.done));
    }
  }

  /** How many of the owner's tasks are running in this process. */
  runningOf(ownerId: string): number {
    let n = 0;
    for (const r of this.running.values()) if (r.ownerId === ownerId) n++;
    return n;
  }
}

/** Writes a task's progress at most every PROGRESS_WRITE_MS, in order, never going back. */
class ProgressWriter {
  private shown: number;
  private lastWrite = -Infinity;
  private chain: Promise<void> = Promise.resolve();

  constructor(private readonly task: TaskRecord, private readonly store: TaskStore) {
    this.shown = task.progress;
  }

  set(percent: number): void {
    const p = Math.max(0, Math.min(99, Math.floor(percent)));
    if (p <= this.shown) return;
    this.shown = p;
    const now = performance.now();
    if (now - this.lastWrite < PROGRESS_WRITE_MS) return;
    this.lastWrite = now;
    this.chain = this.chain.then(() => this.store.save({ ...this.task, progress: p }))
      .catch((e) => taskLog.warn(`task ${this.task.id}: progress not saved`, e));
  }

  async settled(): Promise<void> {
    await this.chain;
    this.task.progress = this.shown;
  }
}

function toRow(t: TaskRecord): TaskRow {
  return {
    id: t.id,
    name: t.name,
    type: t.type,
    status: t.status,
    progress: t.progress,
    fileName: t.status === "done" ? t.fileName : null,
    createdAt: new Date(t.createdAt).toISOString(),
  };
}
