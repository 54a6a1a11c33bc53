/**
 * Fleet reminders: the enterprise-only CRUD, "done" (a maintenance recorded, the next period
 * starts), and the daily check that posts a due reminder to the message centre and mails it,
 * once per period.
 */
import type { z } from "zod";
import { BizError } from "../../lib/errors.ts";
import type { Session } from "../../lib/http/env.ts";
import { normalizeLang, translator } from "../../lib/i18n/i18n.ts";
import type { AccountLookup } from "../accounts/model.ts";
import type { DeviceDirectory } from "../devices/directory.ts";
import type { MotionReader } from "../motion/types.ts";
import type { Mailer } from "../notifications/mailer.ts";
import type { MessageStore } from "../notifications/messages.ts";
import { type FleetAccess, type FleetScope, inScope } from "./access.ts";
import type { Page } from "./model.ts";
import { periodStart, reminderStatus, usage } from "./reminders_due.ts";
import {
  type Reminder,
  REMINDER_LIMITS,
  type ReminderStatus,
  UNIT_MIN_DAYS,
} from "./reminders_model.ts";
import type { doneBody, listBody, ReminderInput } from "./reminders_schemas.ts";
import type { ReminderStore } from "./reminders_store.ts";
import { log } from "../../lib/log.ts";

const reminderLog = log.area("fleet");
/** The message centre's type for a due fleet reminder (modules/notifications/messages.ts). */
const MESSAGE_TYPE = 12;

export interface ReminderDeps {
  store: ReminderStore;
  access: FleetAccess;
  accounts: Pick<AccountLookup, "get">;
  directory: Pick<DeviceDirectory, "get">;
  motion: Pick<MotionReader, "days">;
  messages: Pick<MessageStore, "post">;
  /** Null when mail is off (no SMTP_HOST). */
  mailer: Pick<Mailer, "send"> | null;
}

export type ReminderRow = Reminder & { status: ReminderStatus; deviceName: string };

const today = (now = Date.now()) => new Date(now).toISOString().slice(0, 10);

export class ReminderService {
  constructor(private readonly d: ReminderDeps) {}

  async list(session: Session, q: z.infer<typeof listBody>): Promise<Page<ReminderRow>> {
    const scope = await this.d.access.scope(session);
    const keyword = q.keyword?.toLowerCase();
    const mine = (await this.inScope(scope)).filter((r) =>
      (!keyword || r.name.toLowerCase().includes(keyword)) && (!q.imei || r.imei === q.imei)
    );
    const rows = await Promise.all(mine.map((r) => this.row(r, Date.now())));
    const order = { overdue: 0, dueSoon: 1, ok: 2 };
    const all = rows.filter((r) => !q.state || r.status.state === q.state)
      .sort((a, b) =>
        order[a.status.state] - order[b.status.state] || a.name.localeCompare(b.name)
      );
    const start = (q.pageNum - 1) * q.pageSize;
    return { total: all.length, list: all.slice(start, start + q.pageSize) };
  }

  async add(session: Session, body: ReminderInput): Promise<{ id: string }> {
    const account = await this.d.access.targetAccount(session, body.userId);
    const scope = await this.d.access.scope(session);
    this.check(scope, body);
    if ((await this.d.store.ofAccount(account.id)).length >= REMINDER_LIMITS.maxPerAccount) {
      throw new BizError("illegalParameter", {
        field: "reminders",
        reason: `≤ ${REMINDER_LIMITS.maxPerAccount}`,
      });
    }
    const now = new Date().toISOString();
    const r: Reminder = {
      ...fieldsOf(body),
      id: crypto.randomUUID(),
      accountId: account.id,
      history: [],
      notifiedPeriod: "",
      createdAt: now,
      updatedAt: now,
    };
    await this.d.store.save(r);
    return { id: r.id };
  }

  async update(session: Session, body: ReminderInput & { id: string }): Promise<{ id: string }> {
    const { scope, r } = await this.visible(session, body.id);
    this.check(scope, body);
    const next = { ...r, ...fieldsOf(body), updatedAt: new Date().toISOString() };
    // A changed period (new start, interval or last maintenance) may be noticed again.
    if (periodStart(next) !== periodStart(r)) next.notifiedPeriod = "";
    await this.d.store.save(next);
    return { id: r.id };
  }

  async remove(session: Session, ids: string[]): Promise<{ deleted: number }> {
    const found = await Promise.all(ids.map((id) => this.visible(session, id)));
    for (const { r } of found) await this.d.store.remove(r);
    return { deleted: found.length };
  }

  /** Records a maintenance: the next period starts on its day. */
  async done(session: Session, body: z.infer<typeof doneBody>): Promise<ReminderRow> {
    const { r } = await this.visible(session, body.id);
    const date = body.date ?? today();
    if (date < r.startDate) {
      throw new BizError("illegalParameter", { field: "date", reason: `≥ ${r.startDate}` });
    }
    const entry = { date, note: body.note, at: new Date().toISOString() };
    const next: Reminder = {
      ...r,
      lastDone: date > r.lastDone ? date : r.lastDone,
      history: [entry, ...r.history].slice(0, REMINDER_LIMITS.doneKept),
      notifiedPeriod: "",
      updatedAt: entry.at,
    };
    await this.d.store.save(next);
    return await this.row(next, Date.now());
  }

  /**
   * The daily job (modules/system/jobs.ts): every reminder due soon or overdue on `now`'s day
   * is posted to its account's message centre and mailed, once per period.
   */
  async runDue(now = Date.now()): Promise<{ noticed: number }> {
    let noticed = 0;
    for (const r of await this.d.store.all()) {
      try {
        const row = await this.row(r, now);
        if (row.status.state === "ok") continue;
        if (!await this.d.store.claimNotice(r.id, row.status.periodStart)) continue;
        await this.notify(row);
        noticed++;
      } catch (e) {
        reminderLog.error(`reminder ${r.id} check failed`, e);
      }
    }
    return { noticed };
  }

  private async notify(row: ReminderRow): Promise<void> {
    const account = await this.d.accounts.get(row.accountId);
    const t = translator(normalizeLang(account?.language ?? "en"));
    const params = {
      name: row.name,
      kind: t(`fleetReminders.type.${row.type}`),
      vehicle: row.deviceName || "-",
      due: dueText(t, row),
    };
    await this.d.messages.post(row.accountId, MESSAGE_TYPE, params, row.imei || null);
    if (!row.email || !this.d.mailer) return;
    await this.d.mailer.send({
      to: row.email,
      subject: t("fleetReminders.mail.subject", params),
      text: [
        t(`fleetReminders.mail.${row.status.state}`, params),
        t("fleetReminders.mail.vehicle", params),
        t("fleetReminders.mail.period", { start: row.status.periodStart }),
        t("fleetReminders.mail.footer"),
      ].join("\n"),
    }).catch((e) => reminderLog.warn(`reminder mail to ${row.email} failed: ${e.message ?? e}`));
  }

  /** How many of a scope's reminders are due soon and overdue today (the data board's tile). */
  async counts(scope: FleetScope, now = Date.now()): Promise<{ due: number; overdue: number }> {
    const rows = await Promise.all((await this.inScope(scope)).map((r) => this.row(r, now)));
    const count = (state: string) => rows.filter((r) => r.status.state === state).length;
    return { due: count("dueSoon"), overdue: count("overdue") };
  }

  private async row(r: Reminder, now: number): Promise<ReminderRow> {
    let used: number | null = null;
    if (r.intervalKind !== "time" && r.imei) {
      const from = Date.parse(`${periodStart(r)}T00:00:00Z`);
      used = from <= now ? usage(r, await this.d.motion.days(r.imei, from, now)) : 0;
    }
    return {
      ...r,
      status: reminderStatus(r, today(now), used),
      deviceName: r.imei ? this.d.directory.get(r.imei)?.deviceName ?? r.imei : "",
    };
  }

  private async inScope(scope: FleetScope): Promise<Reminder[]> {
    if (!scope.accountIds) return await this.d.store.all();
    const lists = await Promise.all([...scope.accountIds].map((id) => this.d.store.ofAccount(id)));
    return lists.flat();
  }

  /** A reminder the caller may touch; missing and foreign ones are refused alike. */
  private async visible(session: Session, id: string) {
    const scope = await this.d.access.scope(session);
    const r = await this.d.store.get(id);
    if (!r || !inScope(scope, r)) throw new BizError("permissionDenied");
    return { scope, r };
  }

  /** Rules beyond the schema: the interval's size, advance ≤ interval, the device. */
  private check(scope: FleetScope, b: ReminderInput): void {
    const max = b.intervalKind === "time"
      ? REMINDER_LIMITS.maxEvery[b.unit]
      : REMINDER_LIMITS.maxEvery[b.intervalKind];
    if (b.intervalKind === "time" && !Number.isInteger(b.every) || b.every > max) {
      throw new BizError("illegalParameter", { field: "every", reason: `1-${max}` });
    }
    const span = b.intervalKind === "time" ? b.every * UNIT_MIN_DAYS[b.unit] : b.every;
    if (b.advance > span) throw new BizError("reminderAdvanceTooLong");
    if (b.intervalKind !== "time" && !b.imei) throw new BizError("reminderIntervalMissing");
    if (b.lastDone && b.lastDone < b.startDate) {
      throw new BizError("illegalParameter", { field: "lastDone", reason: `≥ ${b.startDate}` });
    }
    if (b.imei) {
      const device = this.d.directory.get(b.imei);
      if (!device || !inScope(scope, { accountId: device.userId })) {
        throw new BizError("ruleDeviceOtherUser", { imei: b.imei });
      }
    }
  }
}

function fieldsOf(b: ReminderInput) {
  return {
    name: b.name,
    type: b.type,
    imei: b.imei,
    intervalKind: b.intervalKind,
    every: b.every,
    unit: b.unit,
    advance: b.advance,
    startDate: b.startDate,
    email: b.email,
    lastDone: b.lastDone,
  };
}

function dueText(t: ReturnType<typeof translator>, row: ReminderRow): string {
  const s = row.status;
  if (s.dueDate) return t("fleetReminders.due.date", { date: s.dueDate });
  const unit = row.intervalKind === "mileage" ? "km" : "h";
  return s.remaining! <= 0
    ? t(`fleetReminders.due.over_${unit}`, { n: -s.remaining! })
    : t(`fleetReminders.due.left_${unit}`, { n: s.remaining! });
}
