import { deriveStatus } from "../devices/model.ts";
import { log } from "../../lib/log.ts";
import type { Config } from "../../lib/config.ts";
import type { Publisher } from "../../lib/events/bus.ts";
import type { AccountLookup } from "../accounts/model.ts";
import type { AlertDelivery } from "../alerts/delivery.ts";
import type { AlertEngine } from "../alerts/engine.ts";
import type { CommandService } from "../commands/service.ts";
import type { DeviceDirectory } from "../devices/directory.ts";
import type { DeviceRenewal } from "../devices/renewal.ts";
import type { Ingestor } from "../gateway/ingest/ingest.ts";
import type { MessageStore } from "../notifications/messages.ts";
import type { PlatformNotices } from "../notifications/notices.ts";
import type { PositionCompaction } from "../positions/types.ts";
import type { WorkModeService } from "../workmodes/service.ts";
import type { TaskService } from "../tasks/service.ts";
import type { VideoDownloads } from "../video/downloads.ts";
import type { BusinessLog } from "../businesslog/service.ts";
import type { DeviceStatusChanged } from "../gateway/events.ts";
import type { ReminderService } from "../fleet/reminders_service.ts";
import type { AutoReportRuns } from "../autoreports/runs.ts";
import type { Cluster } from "../../lib/cluster/types.ts";
import type { JobSlotStore } from "./store_job_slots.ts";

/** The services these routes use (the composition root passes them). */
export interface JobDeps {
  accountStore: AccountLookup;
  alertDelivery: AlertDelivery;
  alertEngine: AlertEngine;
  autoReportRuns: Pick<AutoReportRuns, "tick">;
  businessLog: Pick<BusinessLog, "prune">;
  /** Which instance this is and whether it leads (single mode: alone, always leading). */
  cluster: Pick<Cluster, "mode" | "instanceId" | "leader">;
  /** Cron slots claimed once across instances (store_job_slots.ts). */
  jobSlots: Pick<JobSlotStore, "claim">;
  bus: Publisher<DeviceStatusChanged>;
  commands: CommandService;
  config: Config;
  deviceRenewal: DeviceRenewal;
  directory: DeviceDirectory;
  fleetReminders: Pick<ReminderService, "runDue">;
  ingestor: Ingestor;
  messages: MessageStore;
  notices: PlatformNotices;
  positions: PositionCompaction;
  tasks: TaskService;
  /** Video downloads are kept HISTORY_KEEP_DAYS (modules/video). */
  video: { downloads: Pick<VideoDownloads, "cleanUp"> };
  workModes: WorkModeService;
  /** Runs counted by job and result (app/metrics.ts). */
  metrics?: { jobs: { run(job: string, ok: boolean, seconds: number): void } };
}

const jobLog = log.area("jobs");

/**
 * Where a job runs when several instances share the store (issue 23):
 *  once      one run per slot across instances: the slot (name + minute) is claimed in the
 *            store first (single mode claims too: one cheap write, the same path everywhere)
 *  leader    on the instance holding the leadership only (in-memory work that must not run
 *            twice, or must not overlap itself across instances)
 *  instance  on every instance, for what this instance holds in memory
 */
export type JobScope = "once" | "leader" | "instance";

/** The minute a run belongs to (Deno.cron fires at the minute's start, a few ms late). */
export function slotMinute(now = Date.now()): number {
  return Math.floor(now / 60_000);
}

/**
 * One run of a job for a slot: skipped when its scope says another instance runs it; a
 * failure logged (one line naming the job) instead of an unhandled rejection. True when run.
 */
export async function runJob(
  s: Pick<JobDeps, "cluster" | "jobSlots" | "metrics">,
  name: string,
  scope: JobScope,
  fn: () => unknown,
  minute = slotMinute(),
): Promise<boolean> {
  if (scope === "leader" && !s.cluster.leader.isLeader()) return false;
  const started = performance.now();
  let ok = true;
  try {
    if (scope === "once" && !(await s.jobSlots.claim(name, minute, s.cluster.instanceId))) {
      return false;
    }
    await fn();
  } catch (e) {
    ok = false;
    jobLog.error(`job "${name}" failed`, e);
  }
  s.metrics?.jobs.run(name, ok, (performance.now() - started) / 1000);
  return true;
}

const DAY_MS = 86_400_000;

/**
 * POSITION_RETENTION_DAYS on the KV store (single mode): each device's blocks wholly older
 * than the retention's first day go. PostgreSQL drops whole day partitions instead, on the
 * leader (lib/kv/retention.ts); the cutoff is the same: the start of the oldest day kept.
 */
export async function dropExpiredBlocks(
  s: Pick<JobDeps, "directory" | "positions">,
  retentionDays: number,
  now = Date.now(),
): Promise<number> {
  const cutoff = Math.floor(now / DAY_MS - retentionDays) * DAY_MS;
  let dropped = 0;
  for (const userId of s.directory.owners()) {
    for (const d of s.directory.ownedBy(userId)) {
      dropped += await s.positions.dropBlocksBefore(d.imei, cutoff);
    }
  }
  return dropped;
}

/** Deno.cron with each run going through `runJob` (scope, claim, count, failure log). */
function cronJob(
  s: JobDeps,
  name: string,
  schedule: string,
  scope: JobScope,
  fn: () => unknown,
): void {
  Deno.cron(name, schedule, async () => {
    await runJob(s, name, scope, fn);
  });
}

/**
 * Scheduled work of the process. Deno.cron runs each job at most once at a time; the jobs
 * are idempotent so a missed or repeated run does no harm. Each job's scope says where it
 * runs when several instances share the store (JobScope).
 */
export function scheduleJobs(s: JobDeps): void {
  // Work-mode tasks: next cycles, about-to-end and ended states (modules/workmodes); commands
  // left "sending" by an earlier process time out.
  cronJob(s, "work-mode task clock", "* * * * *", "once", async () => {
    await s.workModes.tick();
    await s.commands.sweep();
  });

  // Every instance writes the device states it holds in memory (written lazily otherwise).
  cronJob(s, "flush device states", "* * * * *", "instance", async () => {
    await s.ingestor.flushStates();
  });

  // Every instance adds the positions it counted per device to the day's stored counts (the
  // few-reports check of the message center reads the sum).
  cronJob(s, "flush report counts", "* * * * *", "instance", async () => {
    await s.notices.flushCounts();
  });

  // One compaction across instances (two reopening the same last block would each write it
  // without the other's points): the leader packs every instance's journal chunks older than
  // two minutes, which their instances flushed the states of a minute or more before.
  cronJob(s, "pack positions into blocks", "* * * * *", "leader", async () => {
    // States first: a journal chunk may go only once the states it moved are written.
    await s.ingestor.flushStates();
    await s.positions.compactAll();
  });

  // Positions older than POSITION_RETENTION_DAYS (unset: kept). Cluster mode drops day
  // partitions on the leader instead (main.ts, lib/kv/retention.ts).
  const retentionDays = s.config.POSITION_RETENTION_DAYS;
  if (retentionDays !== undefined && s.cluster.mode === "single") {
    cronJob(s, "remove expired positions", "47 2 * * *", "once", async () => {
      const n = await dropExpiredBlocks(s, retentionDays);
      if (n) jobLog.info(`${n} position blocks older than ${retentionDays} days removed`);
    });
  }

  // Alert engine: thresholds that pass without any event (long offline) of the devices this
  // instance evaluates; push history kept in memory.
  cronJob(s, "alert engine sweep", "* * * * *", "instance", () => {
    s.alertEngine.sweep();
    s.alertDelivery.prune();
  });

  // Message center (modules/notifications/notices.ts): expired devices, devices silent for over
  // 3 days, licence / insurance / SIM card dates, yesterday's few-report devices and low
  // balances (daily, Mondays or the 1st). Spec §9 sends balance reminders at 10:00.
  cronJob(s, "message center daily check", "0 10 * * *", "once", async () => {
    await s.notices.daily();
  });

  // Auto renewal (modules/devices/renewal.ts): devices are renewed a day before their platform
  // expiry by the account that turned it on; a refused payer (e.g. too few coins) gets one
  // balance reminder (type 6) that day.
  cronJob(s, "device auto renewal", "30 0 * * *", "once", async () => {
    const day = new Date().toISOString().slice(0, 10);
    for (const r of (await s.deviceRenewal.autoRenewDue()).refused) {
      const a = await s.accountStore.get(r.payerId);
      if (!a) continue;
      await s.messages.postOnce(["autoRenewRefused", a.id, day], a.id, 6, {
        coins: a.coinNumber,
        cards: a.rechargeCards,
      });
    }
  });

  // Fleet reminders (modules/fleet/reminders*): due soon or overdue ones go to the message
  // centre and their e-mail once per period; daily, before the working day in Asia and Europe.
  cronJob(s, "fleet reminders", "0 1 * * *", "once", async () => {
    await s.fleetReminders.runDue();
  });

  // Automatic reports (modules/autoreports): slots due at each owner's local time; each slot
  // is claimed once in the store, so a second tick or a restart never mails it twice.
  cronJob(s, "automatic reports", "* * * * *", "once", async () => {
    await s.autoReportRuns.tick();
  });

  // Task centre: export files are kept EXPORT_KEEP_DAYS (7) days, then removed with their task.
  cronJob(s, "remove old task files", "17 * * * *", "once", async () => {
    await s.tasks.prune();
  });

  // Video downloads (modules/video): MP4 files and their tasks go after HISTORY_KEEP_DAYS (7).
  cronJob(s, "remove old video downloads", "23 * * * *", "once", async () => {
    await s.video.downloads.cleanUp();
  });

  // Business log (modules/businesslog): entries are kept KEEP_DAYS (180) days.
  cronJob(s, "remove old business log entries", "41 3 * * *", "once", async () => {
    await s.businessLog.prune();
  });

  // Devices go offline by silence, not by a message: announce those transitions (on the
  // leader only, so each transition is announced once; the directory's states are kept
  // coherent across instances).
  const lastStatus = new Map<string, string>();
  cronJob(s, "device status sweep", "* * * * *", "leader", () => {
    const now = Date.now();
    const offlineMs = s.config.OFFLINE_MINUTES * 60_000;
    for (const userId of s.directory.owners()) {
      for (const d of s.directory.ownedBy(userId)) {
        const status = deriveStatus(s.directory.state(d.imei) ?? null, now, offlineMs);
        const before = lastStatus.get(d.imei);
        lastStatus.set(d.imei, status);
        if (before && before !== status && status === "offline") {
          s.bus.publish({
            type: "status",
            imei: d.imei,
            userId: d.userId,
            status,
            previous: before as never,
          });
        }
      }
    }
  });
}
