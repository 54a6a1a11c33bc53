import { BizError } from "../../lib/errors.ts";
import type { BatchSender } from "../commands/batch.ts";
import type { CommandService, Sender } from "../commands/service.ts";
import type { CommandRecord } from "../commands/types.ts";
import type { DeviceDirectory } from "../devices/directory.ts";
import type { Device } from "../devices/model.ts";
import { encodeCycle } from "./encode.ts";
import {
  aboutToEndWindow,
  cycleDurationMs,
  type WorkModeTask,
  type WorkModeTemplate,
} from "./model.ts";
import { type Cycle, SAME_NAME_LIMIT } from "./schemas.ts";
import type { WorkModeStore } from "./store.ts";

/** Next moment at or after `from` when a timed cycle first wakes (UTC clock). */
export function firstWake(c: Cycle, from: number): number | null {
  const at = c.mode === "timing" ? c.wakeUpTime : c.mode === "week" ? c.syncTime : null;
  if (!at) return null;
  const [h, m] = at.split(":").map(Number);
  for (let d = 0; d <= 7; d++) {
    const day = new Date(from + d * 86_400_000);
    const t = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), h, m);
    const weekday = ((day.getUTCDay() + 6) % 7) + 1; // 1 Monday … 7 Sunday
    if (t >= from && c.repeatDays.includes(weekday)) return t;
  }
  return null;
}

/**
 * Working-mode templates and the tasks that apply them. A task moves waiting → executing
 * when the device acknowledges the cycle's command, → about to end near the end of its
 * last limited cycle, → ended when that runs out (or the command fails, times out, is
 * cancelled or replaced). Between limited cycles the next cycle's command is sent.
 */
export class WorkModeService {
  constructor(
    private readonly store: WorkModeStore,
    private readonly commands: CommandService,
    private readonly batches: BatchSender,
    private readonly directory: DeviceDirectory,
  ) {}

  async saveTemplate(
    ownerId: string,
    input: { id?: string; name: string; cycles: Cycle[] },
  ): Promise<WorkModeTemplate> {
    const all = await this.store.templates(ownerId);
    const existing = input.id ? all.find((t) => t.id === input.id) : null;
    if (input.id && !existing) throw new BizError("templateNotFound");
    const sameName = all.filter((t) => t.name === input.name && t.id !== input.id).length;
    if (sameName >= SAME_NAME_LIMIT) {
      throw new BizError("workModeTemplateLimit", { max: SAME_NAME_LIMIT, name: input.name });
    }
    const t: WorkModeTemplate = {
      id: existing?.id ?? crypto.randomUUID(),
      ownerId,
      name: input.name,
      cycles: input.cycles,
      createdAt: existing?.createdAt ?? Date.now(),
    };
    await this.store.saveTemplate(t);
    return t;
  }

  /** Sends a template's first cycle to every device and opens a task per device. */
  async apply(
    template: WorkModeTemplate,
    devices: Device[],
    opts: { sendType: "online" | "offline"; replace: boolean },
    sender: Required<Sender>,
  ) {
    const first = template.cycles[0];
    const items = devices.map((device) => ({
      device,
      build: () => encodeCycle(device.mcType, first),
    }));
    const { batch, records } = await this.batches.send({
      category: "workMode",
      name: template.name,
      content: items.length ? describeCycle(first) : "",
      items,
      sendType: opts.sendType,
      replace: opts.replace,
    }, sender);
    const now = Date.now();
    for (const r of records) {
      const previous = await this.store.taskForDevice(r.imei);
      if (previous && previous.state !== "ended") {
        await this.store.saveTask({
          ...previous,
          state: "ended",
          endReason: "replaced",
          updatedAt: now,
        });
      }
      const task: WorkModeTask = {
        id: r.id,
        ownerId: sender.ownerId,
        batchNo: batch.batchNo,
        imei: r.imei,
        senderId: sender.id,
        senderAccount: sender.account,
        templateId: template.id,
        templateName: template.name,
        cycles: template.cycles,
        cycle: 0,
        state: "waiting",
        commandId: r.id,
        cycleStartedAt: null,
        cycleEndsAt: null,
        endReason: null,
        createdAt: now,
        updatedAt: now,
      };
      await this.store.saveTask(task);
      // A reply may have come before the task existed; replay the command's state.
      const latest = await this.commands.record(r.id);
      if (latest && latest.status !== "sending" && latest.status !== "toBeSent") {
        await this.onCommand(latest);
      }
    }
    return { batch, records };
  }

  /**
   * Acknowledgements (and failures) of work-mode commands drive the task states (app/events.ts
   * subscribes this to commandSettled).
   */
  async onCommand(c: CommandRecord): Promise<void> {
    if (c.name !== "workMode") return;
    const task = await this.store.taskForCommand(c.id);
    if (!task || task.commandId !== c.id || task.state === "ended") return;
    const now = Date.now();
    if (c.status === "succeeded") {
      const cycle = task.cycles[task.cycle];
      const duration = cycleDurationMs(cycle);
      // Timed modes take effect at their first wake-up; normal mode at once. The command is
      // marked before the task moves, so an executing task always has its command marked.
      await this.commands.mark(
        c.id,
        firstWake(cycle, now) === null ? "executed" : "waitingExecution",
      );
      await this.store.saveTask({
        ...task,
        state: "executing",
        cycleStartedAt: now,
        cycleEndsAt: duration === null ? null : now + duration,
        updatedAt: now,
      });
      return;
    }
    if (c.status === "failed" || c.status === "timeout" || c.status === "cancelled") {
      await this.store.saveTask({ ...task, state: "ended", endReason: c.status, updatedAt: now });
    }
  }

  /** The clock: starts next cycles, marks about-to-end and ended tasks. Idempotent. */
  async tick(now = Date.now()): Promise<void> {
    for await (const task of this.store.activeTasks()) {
      if (task.state === "waiting" || task.cycleStartedAt === null) continue;
      const cycle = task.cycles[task.cycle];
      const wake = firstWake(cycle, task.cycleStartedAt);
      if (wake !== null && wake <= now) await this.commands.mark(task.commandId, "executed");
      if (task.cycleEndsAt === null) continue;
      const last = task.cycle === task.cycles.length - 1;
      if (now >= task.cycleEndsAt) {
        if (last) {
          await this.store.saveTask({
            ...task,
            state: "ended",
            endReason: "completed",
            updatedAt: now,
          });
        } else {
          await this.nextCycle(task, now);
        }
      } else if (
        last && task.state === "executing" &&
        task.cycleEndsAt - now <= aboutToEndWindow(task.cycleEndsAt - task.cycleStartedAt)
      ) {
        await this.store.saveTask({ ...task, state: "aboutToEnd", updatedAt: now });
      }
    }
  }

  private async nextCycle(task: WorkModeTask, now: number) {
    const device = this.directory.get(task.imei);
    const next = task.cycles[task.cycle + 1];
    if (!device) {
      await this.store.saveTask({ ...task, state: "ended", endReason: "failed", updatedAt: now });
      return;
    }
    const record = await this.commands.sendOrRecord({
      device,
      ...encodeCycle(device.mcType, next),
      sendType: "offline",
      replace: true,
      batchNo: task.batchNo,
    }, { id: task.senderId, account: task.senderAccount, ownerId: task.ownerId });
    const moved: WorkModeTask = {
      ...task,
      cycle: task.cycle + 1,
      state: "waiting",
      commandId: record.id,
      cycleStartedAt: null,
      cycleEndsAt: null,
      updatedAt: now,
    };
    await this.store.saveTask(moved);
    if (record.status === "failed") await this.onCommand(record);
  }
}

/** Short readable summary of a cycle for batch records. */
export function describeCycle(c: Cycle): string {
  const limit = c.limitType === "unlimited" ? "∞" : `${c.limitValue} ${c.limitType}`;
  const when = c.mode === "normal"
    ? `${c.syncInterval} min`
    : c.mode === "timing"
    ? `${c.wakeUpTime} +${c.syncInterval} min [${c.repeatDays.join("")}]`
    : `${c.syncTime} [${c.repeatDays.join("")}]`;
  return `${c.mode} ${when} (${limit})`;
}
