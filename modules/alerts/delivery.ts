import type { DriverTimeline } from "../fleet/model.ts";
import type { AccountLookup } from "../accounts/model.ts";
import type { DeviceDirectory } from "../devices/directory.ts";
import type { ZoneLookup } from "../geofences/model.ts";
import type { Mailer } from "../notifications/mailer.ts";
import type { MessageStore } from "../notifications/messages.ts";
import type { WebhookSender } from "../notifications/webhook.ts";
import { alertMail } from "./mail_text.ts";
import type { AlertSms, PushAllowance, PushGate } from "./push.ts";
import type { AlertSettingsStore } from "./settings.ts";
import type { AlertRecord, AlertStore } from "./store.ts";
import type { AlertRaised } from "./events.ts";
import type { Counter } from "../../lib/metrics.ts";
import { log } from "../../lib/log.ts";

const alertLog = log.area("alerts");

/** Alerts raised and delivered by channel (registered by app/metrics.ts). */
export interface DeliveryCounters {
  raised: Counter;
  delivered: Record<"console" | "mail" | "webhook", Counter>;
}

/** A pushed alert as the console pop-up receives it. */
export interface PushedAlert extends AlertRecord {
  deviceName: string;
  /** The device's driver at the alarm's time (fleet), "" when none is known. */
  driverName: string;
  /** Accounts from the device's owner up to the root: who may see it. */
  path: string;
}

type PopupListener = (a: PushedAlert) => void;

/** Pushed alerts kept for consoles that poll for pop-ups (newest last). */
const RECENT_MAX = 1000;
/** Cluster mode: how long a pop-up waits before feeds answer it (the relay's delay, clocks). */
export const POPUP_SETTLE_MS = 1000;

/**
 * Delivers alerts (device alarms from the gateway and engine alerts alike, both arriving as
 * bus "alert" events) to the console, mail and webhooks, after the push gate (silence time,
 * 30 an hour). Delivery uses the device owner's settings; console viewers filter further by
 * their own subscribed types.
 */
export class AlertDelivery {
  private popups = new Set<PopupListener>();
  private recent: (PushedAlert & { seq: number })[] = [];
  private seq = 0;
  /**
   * Cluster mode (popup_relay.ts): told each pop-up pushed here, with its sequence number, for
   * the other instances' feeds. Then sequence numbers are the pushing instance's clock (µs),
   * the same on every instance, and a feed answers only pop-ups older than POPUP_SETTLE_MS, by
   * when every instance has them: a console polling any instance sees each pop-up once.
   */
  private onPushed: ((popup: PushedAlert & { seq: number }) => void) | null = null;
  /** Owner accounts by id, briefly cached: a burst of alerts needs one read per account. */
  private owners = new Map<string, { at: number; path: string; language: string } | null>();
  /** Pushed flags waiting to be written in one batch. */
  private flagQueue: AlertRecord[] = [];
  private flagWrite: Promise<void> | null = null;
  /** Off until start() (tests stop it to deliver by hand). */
  private running = false;
  private inflight = new Set<Promise<void>>();

  constructor(
    private readonly d: {
      alerts: AlertStore;
      settings: AlertSettingsStore;
      gate: PushGate;
      mailer: Mailer;
      webhooks: WebhookSender;
      accounts: AccountLookup;
      directory: DeviceDirectory;
      zones: ZoneLookup;
      messages: MessageStore;
      metrics?: DeliveryCounters;
      /** Mail and webhook pushes beyond the free monthly quota cost credits. */
      pushes?: PushAllowance;
      /** Alert SMS (paid with credits). */
      sms?: AlertSms;
      /** Who drove the device when (fleet): pushes name the alarm's driver. */
      drivers?: DriverTimeline;
    },
  ) {}

  start(): void {
    this.running = true;
  }

  stop(): void {
    this.running = false;
  }

  /** The handler of raised alerts (app/position_pipeline.ts): delivers while started. */
  handle = (ev: AlertRaised): void => {
    this.d.metrics?.raised.inc();
    if (!this.running) return;
    const p = this.deliver(ev.alert).catch((e) => alertLog.error("alert delivery failed", e))
      .finally(() => this.inflight.delete(p));
    this.inflight.add(p);
  };

  /** Waits for deliveries in progress (mail sent, webhook attempts finished). */
  async idle(): Promise<void> {
    while (this.inflight.size) await Promise.allSettled([...this.inflight]);
    while (this.flagWrite || this.flagQueue.length) await (this.flagWrite ?? this.writeFlags());
    await this.d.webhooks.idle();
  }

  /**
   * Pushed alerts after `after` (a sequence number from an earlier answer) that `accept`
   * lets through, and the latest sequence number to ask from next time.
   */
  popupsSince(after: number, accept: (a: PushedAlert) => boolean) {
    if (!this.onPushed) {
      return { seq: this.seq, list: this.recent.filter((a) => a.seq > after && accept(a)) };
    }
    const settled = (Date.now() - POPUP_SETTLE_MS) * 1000;
    const list = this.recent.filter((a) => a.seq > after && a.seq <= settled && accept(a));
    return { seq: after === Infinity ? settled : Math.max(settled, after), list };
  }

  /** Cluster mode: shares this instance's pop-ups through `publish` (see onPushed). */
  sharePopups(publish: (popup: PushedAlert & { seq: number }) => void): void {
    this.onPushed = publish;
  }

  /** A pop-up another instance pushed (its mail, webhook and SMS went out there). */
  addPopup(popup: PushedAlert & { seq: number }): void {
    let at = this.recent.length;
    while (at > 0 && this.recent[at - 1].seq > popup.seq) at--;
    this.recent.splice(at, 0, popup);
    this.trimAndTell(popup);
  }

  private trimAndTell(popup: PushedAlert & { seq: number }): void {
    if (this.recent.length > RECENT_MAX) this.recent.splice(0, this.recent.length - RECENT_MAX);
    for (const l of this.popups) {
      try {
        l(popup);
      } catch (e) {
        alertLog.error("pop-up listener failed", e);
      }
    }
  }

  onPopup(listener: PopupListener): () => void {
    this.popups.add(listener);
    return () => this.popups.delete(listener);
  }

  /** Forgets push history older than an hour (called by the scheduled jobs). */
  prune(): void {
    this.d.gate.prune();
  }

  private async owner(userId: string) {
    const hit = this.owners.get(userId);
    if (hit !== undefined && (hit === null || Date.now() - hit.at < 60_000)) return hit;
    const a = await this.d.accounts.get(userId);
    const value = a
      ? { at: Date.now(), path: `${a.fullParentId || ","}${a.id},`, language: a.language }
      : null;
    if (this.owners.size > 10_000) this.owners.clear();
    this.owners.set(userId, value);
    return value;
  }

  /** Records the push flag; flags of a burst go out in one write. */
  private markPushed(a: AlertRecord): void {
    this.flagQueue.push(a);
    this.flagWrite ??= this.writeFlags();
  }

  private async writeFlags(): Promise<void> {
    try {
      while (this.flagQueue.length) {
        await Promise.resolve();
        const batch = this.flagQueue.splice(0, 500);
        await this.d.alerts.updateMany(batch).catch((e) =>
          alertLog.error("writing push flags failed", e)
        );
      }
    } finally {
      this.flagWrite = null;
    }
  }

  /**
   * Whether a mail or webhook push may go: within the account's free monthly quota, or paid
   * with a credit. A push without either is skipped (counted by the credits, never an error).
   */
  private async allowed(userId: string, channel: "mail" | "webhook"): Promise<boolean> {
    if (!this.d.pushes) return true;
    try {
      return (await this.d.pushes.takePush(userId, channel)) !== "skipped";
    } catch (e) {
      // The quota's store failing must not cost the user an alert.
      alertLog.error("push quota check failed", e);
      return true;
    }
  }

  private async deliver(alert: AlertRecord): Promise<void> {
    // The message center keeps an "offline" message (type 2) whether or not it is pushed.
    if (alert.type === "offline") {
      await this.d.messages.post(alert.userId, 2, {
        imei: alert.imei,
        minutes: alert.detail?.minutes ?? 0,
      }, alert.imei);
    }
    const s = this.d.settings.account(alert.userId);
    if (!this.d.gate.allow(alert.imei, alert.type, alert.time, s.silenceMinutes)) return;
    const owner = await this.owner(alert.userId);
    if (!owner) return;
    const pushed = { ...alert, pushed: true };
    this.markPushed(pushed);
    const device = this.d.directory.get(alert.imei);
    const [driver] = await this.d.drivers?.driversAt(alert.imei, [alert.time]) ?? [null];
    const view: PushedAlert = {
      ...pushed,
      deviceName: device?.deviceName || alert.imei,
      driverName: driver?.name ?? "",
      path: owner.path,
    };
    this.seq = this.onPushed ? Math.max(Date.now() * 1000, this.seq + 1) : this.seq + 1;
    const popup = { ...view, seq: this.seq };
    this.recent.push(popup);
    this.d.metrics?.delivered.console.inc();
    this.trimAndTell(popup);
    this.onPushed?.(popup);
    const fenceMail = alert.fenceId ? (await this.d.zones.get(alert.fenceId))?.emailAlert : false;
    const mailed = s.email.enabled && s.email.address &&
      (s.email.types.includes(alert.type) || fenceMail);
    if (mailed && await this.allowed(alert.userId, "mail")) {
      const mail = alertMail(view, owner.language);
      await this.d.mailer.send({ to: s.email.address, ...mail }).then(
        () => this.d.metrics?.delivered.mail.inc(),
        () => {},
      );
    }
    if (s.sms?.enabled && s.sms.phone && s.sms.types.includes(alert.type) && this.d.sms) {
      const text = alertMail(view, owner.language).subject;
      await this.d.sms.sendSms(alert.userId, s.sms.phone, text).catch((e) =>
        alertLog.error("alert SMS failed", e)
      );
    }
    const hooked = s.webhook.enabled && s.webhook.url && s.webhook.types.includes(alert.type);
    if (hooked && await this.allowed(alert.userId, "webhook")) {
      this.d.metrics?.delivered.webhook.inc();
      this.d.webhooks.deliver(alert.userId, s.webhook.url, s.webhook.secret, "alert", {
        id: alert.id,
        type: alert.type,
        imei: alert.imei,
        deviceName: view.deviceName,
        driverName: view.driverName,
        time: new Date(alert.time).toISOString(),
        lat: alert.lat,
        lng: alert.lng,
        address: alert.address ?? null,
        speed: alert.speed,
        fenceId: alert.fenceId ?? null,
        fenceName: alert.fenceName ?? null,
        detail: alert.detail ?? null,
      });
    }
  }
}
