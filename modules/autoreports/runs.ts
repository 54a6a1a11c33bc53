/**
 * Running auto reports: the cron's tick finds the slots due at each owner's local time and
 * claims each once in the store (check-and-set on the slot key) before it runs; "run now"
 * runs the latest period on demand. A run is a task of the task centre (the owner downloads
 * its file): the report runs through the export as the owner — its visibility, units, time
 * zone and language — and the xlsx is mailed to the recipients.
 */
import { BizError } from "../../lib/errors.ts";
import type { Session } from "../../lib/http/env.ts";
import { type Lang, normalizeLang } from "../../lib/i18n/i18n.ts";
import { log } from "../../lib/log.ts";
import type { AccessGuard } from "../accounts/access.ts";
import type { Account, AccountLookup } from "../accounts/model.ts";
import type { DeviceDirectory } from "../devices/directory.ts";
import type { DeviceService } from "../devices/service.ts";
import type { Mailer } from "../notifications/mailer.ts";
import type { ReportExport } from "../reports/export/service.ts";
import { newTaskId, type ProgressFn, type TaskOutput } from "../tasks/model.ts";
import type { TaskService } from "../tasks/service.ts";
import { autoReportMail } from "./mail.ts";
import {
  AUTO_REPORT_CATCH_UP_MS,
  AUTO_REPORT_HISTORY_KEEP,
  AUTO_REPORT_MAX_DEVICES,
} from "./model.ts";
import { reportParams } from "./params.ts";
import { dueSlot, latestSlot, type Slot } from "./schedule.ts";
import { modelDevices } from "./selection.ts";
import type { AutoReportStore } from "./store.ts";
import type { AutoReportRecord, RunRecord } from "./types.ts";

const runLog = log.area("autoreports");

export interface AutoReportRunDeps {
  store: AutoReportStore;
  access: Pick<AccessGuard, "assertNeed">;
  devices: Pick<DeviceService, "visibleOrRefused">;
  directory: Pick<DeviceDirectory, "ownedBy">;
  accounts: Pick<AccountLookup, "get" | "subtree">;
  reportExport: Pick<ReportExport, "file">;
  tasks: Pick<TaskService, "start" | "finished">;
  mailer: Pick<Mailer, "send">;
}

/** What one run works with once it is claimed. */
interface Run {
  record: AutoReportRecord;
  owner: Account;
  slot: Slot;
  run: RunRecord;
}

export class AutoReportRuns {
  /** Runs started by this process, by auto report id (tests and "run now" wait on them). */
  private readonly active = new Map<string, Promise<void>>();

  constructor(private readonly d: AutoReportRunDeps) {}

  /**
   * The cron's work (every minute): claims and starts every slot due at `now`. Answers the
   * ids of the runs it started (a slot claimed before is skipped).
   */
  async tick(now = Date.now()): Promise<string[]> {
    const started: string[] = [];
    const owners = new Map<string, Account | null>();
    for await (const record of this.d.store.all()) {
      if (!owners.has(record.ownerId)) {
        owners.set(record.ownerId, await this.d.accounts.get(record.ownerId));
      }
      const owner = owners.get(record.ownerId);
      if (!owner) continue;
      const slot = dueSlot(record, owner.timeZones || "UTC", now, AUTO_REPORT_CATCH_UP_MS);
      if (!slot) continue;
      const run = newRun(record, slot, "schedule", now);
      if (!await this.d.store.claim(record.id, slot.key, run)) continue;
      started.push(await this.start({ record, owner, slot, run }));
    }
    return started;
  }

  /** "Run now": the latest period, at once, for the caller's own auto report. */
  async runNow(session: Session, record: AutoReportRecord): Promise<{ taskId: string }> {
    if (this.active.has(record.id)) throw new BizError("autoReportRunning");
    // Held from here, so a second click while this one starts is refused too.
    this.active.set(record.id, Promise.resolve());
    try {
      const owner = await this.d.accounts.get(session.accountId);
      if (!owner) throw new BizError("tokenInvalid", {}, null, 401);
      const now = Date.now();
      const slot = latestSlot(
        record.frequency,
        record.executionTime,
        owner.timeZones || "UTC",
        now,
      );
      const run = newRun(record, slot, "manual", now);
      await this.d.store.claim(record.id, null, run);
      return { taskId: await this.start({ record, owner, slot, run }) };
    } catch (e) {
      this.active.delete(record.id);
      throw e;
    }
  }

  /** Resolves when every run this process started has finished (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.active.size) await Promise.allSettled([...this.active.values()]);
  }

  /**
   * At start-up: a run still "running" was cut by a restart (its task is marked failed by
   * the task centre's own recovery); it is not run again, only marked failed.
   */
  async recover(): Promise<number> {
    let n = 0;
    for await (const { autoReportId, run } of this.d.store.runningRuns()) {
      await this.d.store.saveRun(autoReportId, { ...run, status: "failed", error: "systemBusy" });
      n++;
    }
    if (n) runLog.warn(`${n} auto report run(s) interrupted by a restart marked failed`);
    return n;
  }

  /** Starts the run's task; the history entry follows the task and the mail. */
  private async start(r: Run): Promise<string> {
    const lang = normalizeLang(r.owner.language);
    let made: { output: TaskOutput; rows: number } | null = null;
    const taskId = await this.d.tasks.start(
      r.owner.id,
      { name: r.record.name, type: "autoReport", fileName: "" },
      async (progress) => (made = await this.produce(r, lang, progress)).output,
    );
    r.run.taskId = taskId;
    await this.d.store.saveRun(r.record.id, r.run);
    const done = this.finish(r, lang, taskId, () => made).finally(() =>
      this.active.delete(r.record.id)
    );
    this.active.set(r.record.id, done);
    return taskId;
  }

  /** The report's file, as the owner (refusals fail the task with their catalogue name). */
  private async produce(r: Run, lang: Lang, progress: ProgressFn) {
    const session = sessionOf(r.owner);
    await this.d.access.assertNeed(session, "viewReports");
    const imeis = await this.devicesOf(r.record, session);
    r.run.devices = imeis.length;
    if (!imeis.length) throw new BizError("autoReportNoDevices");
    return await this.d.reportExport.file(session, lang, {
      report: r.record.reportType,
      params: reportParams(r.record, imeis, r.slot.from, r.slot.to) as { imeis: string[] },
      format: "xlsx",
      exportType: 1,
    }, progress);
  }

  /** Waits for the task, mails its file, and records how the run ended. */
  private async finish(
    r: Run,
    lang: Lang,
    taskId: string,
    made: () => { output: TaskOutput; rows: number } | null,
  ): Promise<void> {
    const failure = await this.d.tasks.finished(taskId);
    const file = made();
    try {
      if (failure || !file) throw new BizError(failure ?? "systemBusy");
      Object.assign(r.run, { fileName: file.output.fileName, rows: file.rows });
      await this.d.mailer.send(autoReportMail(r.record, r.owner, lang, r.slot, file));
      Object.assign(r.run, { status: "done", mailed: r.record.emails.length });
    } catch (e) {
      if (!(e instanceof BizError)) runLog.error(`auto report ${r.record.id} failed`, e);
      Object.assign(r.run, {
        status: "failed",
        error: e instanceof BizError ? e.key : "systemBusy",
      });
    }
    // Deleted while it ran: its history went with it.
    if (!await this.d.store.get(r.record.id)) return;
    await this.d.store.saveRun(r.record.id, r.run);
    await this.d.store.trimRuns(r.record.id, AUTO_REPORT_HISTORY_KEEP);
  }

  /** The devices to report on now: those still visible to the owner, at most 200. */
  private async devicesOf(record: AutoReportRecord, session: Session): Promise<string[]> {
    const wanted = record.mcType === null
      ? record.imeis
      : (await modelDevices(this.d, record.userId, record.mcType, record.includeSubAccounts))
        .map((d) => d.imei);
    const { devices } = await this.d.devices.visibleOrRefused(session, wanted);
    return devices.slice(0, AUTO_REPORT_MAX_DEVICES).map((d) => d.imei);
  }
}

/** The owner acting as itself (a virtual user inside its master's subtree). */
function sessionOf(owner: Account): Session {
  const master = owner.virtual?.masterId;
  return {
    accountId: owner.id,
    cAccountId: master ?? owner.id,
    isVirtual: !!master,
    jti: "autoReport",
    via: "bearer",
  };
}

function newRun(
  record: AutoReportRecord,
  slot: Slot,
  trigger: RunRecord["trigger"],
  now: number,
): RunRecord {
  return {
    id: newTaskId(now),
    runAt: new Date(now).toISOString(),
    status: "running",
    fileName: null,
    taskId: null,
    trigger,
    from: new Date(slot.from).toISOString(),
    to: new Date(slot.to).toISOString(),
    devices: record.imeis.length,
    rows: null,
    mailed: 0,
    error: null,
  };
}
