import type { z } from "zod";
import { BizError } from "../../lib/errors.ts";
import type { Session } from "../../lib/http/env.ts";
import type { AccessGuard } from "../accounts/access.ts";
import type { AccountLookup } from "../accounts/model.ts";
import type { DeviceDirectory } from "../devices/directory.ts";
import type { DeviceService } from "../devices/service.ts";
import type { CodeStore } from "../notifications/codes.ts";
import type { Mailer } from "../notifications/mailer.ts";
import { newSecret, type WebhookSender } from "../notifications/webhook.ts";
import { normalizeLang, translator } from "../../lib/i18n/i18n.ts";
import type {
  AccountAlertSettings,
  accountSettingsBody,
  alertListBody,
  deviceSettingsBody,
} from "./schemas.ts";
import type { AlertSettingsStore } from "./settings.ts";
import type { AlertRecord, AlertStore } from "./store.ts";
import { alarmMapUrl } from "../monitor/alarm_link.ts";
import type { DriverAt, DriverTimeline } from "../fleet/model.ts";

const EMAIL_PURPOSE = "alertEmail";
/** Without a start time the alert centre shows the last 30 days. */
const DEFAULT_WINDOW_MS = 30 * 86_400_000;

/** Alert centre queries and actions, and alert settings (per account and per device). */
export class AlertService {
  constructor(
    private readonly d: {
      alerts: AlertStore;
      settings: AlertSettingsStore;
      access: AccessGuard;
      accounts: AccountLookup;
      devices: DeviceService;
      directory: DeviceDirectory;
      codes: CodeStore;
      mailer: Mailer;
      webhooks: WebhookSender;
      drivers: DriverTimeline;
    },
  ) {}

  /** Accounts whose alerts the caller sees: a given visible account or the whole subtree. */
  private async owners(session: Session, userId?: string): Promise<string[]> {
    const { owner } = await this.d.access.caller(session);
    const root = userId ? await this.d.access.visibleAccount(session, userId) : owner;
    const ids = [root.id];
    for await (const { id } of this.d.accounts.subtree(root.id)) ids.push(id);
    return ids;
  }

  /** Every alert matching the filter, newest first. */
  private async query(session: Session, q: z.infer<typeof alertListBody>): Promise<AlertRecord[]> {
    const to = q.endTime ? Date.parse(q.endTime) : Date.now() + 60_000;
    const from = q.startTime ? Date.parse(q.startTime) : to - DEFAULT_WINDOW_MS;
    if (from > to) throw new BizError("startAfterEnd");
    const types = q.types?.length ? new Set<string>(q.types) : null;
    const accept = (a: AlertRecord) =>
      (!types || types.has(a.type)) &&
      (q.read === "all" || a.read === q.read) &&
      (q.processed === "all" || a.processed === (q.processed === "processed"));
    if (q.imeis?.length) {
      for (const imei of q.imeis) await this.d.devices.visibleDevice(session, imei);
      return await this.d.alerts.query({ imeis: q.imeis }, from, to, accept);
    }
    return await this.d.alerts.query(
      { userIds: await this.owners(session, q.userId) },
      from,
      to,
      accept,
    );
  }

  async list(session: Session, q: z.infer<typeof alertListBody>) {
    const all = await this.query(session, q);
    const start = (q.pageNum - 1) * q.pageSize;
    return {
      total: all.length,
      unread: all.filter((a) => a.read === -1).length,
      list: await this.withDrivers(all.slice(start, start + q.pageSize).map((a) => this.view(a))),
    };
  }

  /** Each alert with the driver of its device at its time ("" when none is known). */
  private async withDrivers<T extends AlertRecord>(rows: T[]) {
    const byImei = Map.groupBy(rows, (a) => a.imei);
    const driverOf = new Map<T, DriverAt | null>();
    await Promise.all([...byImei].map(async ([imei, list]) => {
      const drivers = await this.d.drivers.driversAt(imei, list.map((a) => a.time));
      list.forEach((a, i) => driverOf.set(a, drivers[i]));
    }));
    return rows.map((a) => ({
      ...a,
      driverId: driverOf.get(a)?.id ?? "",
      driverName: driverOf.get(a)?.name ?? "",
    }));
  }

  view(a: AlertRecord) {
    const d = this.d.directory.get(a.imei);
    return {
      ...a,
      deviceName: d?.deviceName || a.imei,
      timeText: new Date(a.time).toISOString(),
      /** Where "show on map" goes (spec: jump to the map). */
      mapUrl: alarmMapUrl(a),
    };
  }

  /** A record the caller may touch, through its device's visibility. */
  private async visible(session: Session, ref: { imei: string; time: number; id: string }) {
    await this.d.devices.visibleDevice(session, ref.imei);
    const a = await this.d.alerts.get(ref.imei, ref.time, ref.id);
    if (!a) throw new BizError("dataNotExists");
    return a;
  }

  async process(
    session: Session,
    ref: { imei: string; time: number; id: string },
    handler: string,
    content: string,
  ) {
    const a = await this.visible(session, ref);
    const updated = {
      ...a,
      processed: true,
      read: 0 as const,
      handler,
      content,
      processedAt: Date.now(),
    };
    await this.d.alerts.update(updated);
    return this.view(updated);
  }

  async mark(session: Session, refs: { imei: string; time: number; id: string }[], read: 0 | -1) {
    for (const ref of refs) {
      const a = await this.visible(session, ref);
      if (a.read !== read) await this.d.alerts.update({ ...a, read });
    }
    return { changed: refs.length };
  }

  /** Marks every unread alert matching the filter (default: the last 30 days) read. */
  async markAllRead(session: Session, q: z.infer<typeof alertListBody>) {
    const unread = await this.query(session, { ...q, read: -1 });
    for (const a of unread) await this.d.alerts.update({ ...a, read: 0 });
    return { changed: unread.length };
  }

  // --- settings -------------------------------------------------------------------------

  private async settingsOwner(session: Session, userId?: string): Promise<string> {
    if (userId) return (await this.d.access.visibleAccount(session, userId)).id;
    return (await this.d.access.caller(session)).owner.id;
  }

  /** Account settings as shown to the user: the webhook secret is shown, it is theirs. */
  async accountSettings(
    session: Session,
    userId?: string,
  ): Promise<AccountAlertSettings & { userId: string }> {
    const id = await this.settingsOwner(session, userId);
    return { userId: id, ...this.d.settings.account(id) };
  }

  async saveAccountSettings(session: Session, body: z.infer<typeof accountSettingsBody>) {
    const id = await this.settingsOwner(session, body.userId);
    const current = this.d.settings.account(id);
    const address = body.email.address;
    // A new address must be verified by a code first (spec §5 Alerts).
    if (address && address.toLowerCase() !== current.email.address.toLowerCase()) {
      if (!await this.d.codes.isVerified(id, address)) throw new BizError("emailNotVerified");
    }
    if (body.email.enabled && !address) {
      throw new BizError("illegalParameter", {
        field: "email.address",
        reasonKey: "validation.required",
      }, {
        field: "email.address",
      });
    }
    if (body.webhook.enabled && !body.webhook.url) {
      throw new BizError("illegalParameter", {
        field: "webhook.url",
        reasonKey: "validation.required",
      }, {
        field: "webhook.url",
      });
    }
    // Internal addresses are refused here already; delivery checks again (DNS changes).
    if (body.webhook.url) await this.d.webhooks.checkUrl(body.webhook.url);
    const { userId: _u, ...rest } = body;
    void _u;
    const secret = body.webhook.secret || current.webhook.secret || newSecret();
    const saved: AccountAlertSettings = {
      ...rest,
      webhook: { ...rest.webhook, secret },
      // Clients that do not know the SMS channel keep what was set through the API.
      ...(rest.sms ?? current.sms ? { sms: rest.sms ?? current.sms } : {}),
    };
    await this.d.settings.saveAccount(id, saved);
    return { userId: id, ...saved };
  }

  /** Mails a verification code to a new alert address. */
  async sendEmailCode(session: Session, email: string, userId?: string) {
    const id = await this.settingsOwner(session, userId);
    const account = await this.d.accounts.get(id);
    const code = await this.d.codes.issue(EMAIL_PURPOSE, id, email);
    const t = translator(normalizeLang(account?.language));
    await this.d.mailer.send({
      to: email,
      subject: t("alerts.mail.codeSubject"),
      text: t("alerts.mail.codeText", { code, minutes: 10 }),
    });
  }

  async verifyEmailCode(session: Session, email: string, code: string, userId?: string) {
    const id = await this.settingsOwner(session, userId);
    if (!await this.d.codes.check(EMAIL_PURPOSE, id, email, code)) {
      throw new BizError("emailVerifyFailed");
    }
    await this.d.codes.markVerified(id, email);
  }

  async deviceSettings(session: Session, imei: string) {
    await this.d.devices.visibleDevice(session, imei);
    return this.d.settings.own(imei) ?? null;
  }

  async saveDeviceSettings(session: Session, body: z.infer<typeof deviceSettingsBody>) {
    await this.d.devices.visibleDevice(session, body.imei);
    const saved = { ...body, setAt: Date.now() };
    await this.d.settings.saveDevice(saved);
    return saved;
  }
}
