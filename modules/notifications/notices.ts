import type { Account } from "../accounts/model.ts";
import type { AccountLookup } from "../accounts/model.ts";
import type { DeviceAlertSettings } from "../alerts/schemas.ts";
import type { DeviceDirectory } from "../devices/directory.ts";
import { activationState, type Device, effectiveExpiry } from "../devices/model.ts";
import type { LedgerEntry } from "../wallet/model.ts";
import type { CreditsReader } from "../credits/model.ts";
import { normalizeLang, translator } from "../../lib/i18n/i18n.ts";
import { log } from "../../lib/log.ts";
import type { Mailer } from "./mailer.ts";
import type { BalanceReminder, BalanceThresholds, MessageStore } from "./messages.ts";
import type { ReportCounter } from "./report_counts.ts";

const noticeLog = log.area("notices");

const DAY_MS = 86_400_000;
/** Reminder dates (licence, insurance, SIM card) are announced this many days ahead, and again at 7. */
export const REMIND_DAYS = [30, 7] as const;
/** Spec §9: a device broadcasting (reporting) fewer than 50 times a day triggers a message. */
export const FEW_REPORTS = 50;
/** Below this many Mi coins and without recharge cards an account's balance is low (one device-year costs 10 at the built-in rate). */
export const LOW_COINS = 10;
/** Spec §9: a device offline for more than 3 days triggers a reminder. */
export const LONG_OFFLINE_DAYS = 3;
/**
 * A device is announced as expired, or offline for over 3 days, only within this many days of
 * that happening: a first run on an old installation does not flood the message center.
 */
const LOOKBACK_DAYS = 7;

const DATE_TYPES = [
  ["licenceExpiry", 7],
  ["insuranceExpiry", 8],
  ["simCardExpiry", 9],
] as const;

/**
 * A fleet expiry date (modules/fleet): a driver's licence (type 7) or a vehicle's insurance
 * (type 8), announced to the record's account when it turns "expiring soon" (30 days) and
 * again when it has expired, once each, with a mail.
 */
export interface FleetExpiry {
  kind: "licence" | "insurance";
  /** The driver's or vehicle's id. */
  id: string;
  accountId: string;
  /** The driver's name or the vehicle's plate. */
  name: string;
  /** YYYY-MM-DD */
  date: string;
  /** The device the vehicle is bound to ("" for none or a driver without a vehicle). */
  imei: string;
}

/** What the daily check reads of the fleet: its dates, and the devices bound to vehicles. */
export interface FleetExpirySource {
  expiries(): Promise<FleetExpiry[]>;
  /** Devices whose licence and insurance dates come from their vehicle, not the device. */
  boundImeis(): Promise<Set<string>>;
}

/** Fleet dates count as expiring soon this many days ahead (modules/fleet EXPIRING_SOON_DAYS). */
export const FLEET_SOON_DAYS = 30;

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const dayStart = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;
const label = (d: Device) => d.deviceName || d.imei;

/**
 * Platform messages of the message center (spec §3 message types) raised where the events
 * happen: account moves and device allocations by their services' hooks, card consumption by
 * the wallet's, offline by alert delivery, and the date-driven ones (device expired, licence /
 * insurance / SIM card expiry, low balance, few reports) by a daily check. Every reminder is
 * posted once per subject and occasion (MessageStore.postOnce), so repeated runs are harmless.
 */
export class PlatformNotices {
  constructor(
    private readonly d: {
      messages: MessageStore;
      accounts: AccountLookup;
      directory: DeviceDirectory;
      deviceSettings: () => Iterable<DeviceAlertSettings>;
      /** Credit balances (the reminder watches them when the user set a threshold). */
      credits?: CreditsReader;
      /** Balance reminders also go by mail to accounts with an address. */
      mailer?: Mailer;
      /** Drivers' licences and vehicles' insurance (modules/fleet). */
      fleet?: FleetExpirySource;
      /** Positions per device and day (stored: summed across instances and restarts). */
      reportCounts: ReportCounter;
    },
  ) {}

  // ---- events -----------------------------------------------------------------------

  /** Type 4: the moved account and its new superior are told. */
  async accountMoved(moved: Account, target: Account): Promise<void> {
    const params = { account: moved.account, target: target.account };
    await this.d.messages.post(moved.id, 4, params);
    await this.d.messages.post(target.id, 4, params);
  }

  /** Type 5: the receiving account is told how many devices it got and from whom. */
  async devicesAllocated(targetId: string, devices: Device[], operatorId: string): Promise<void> {
    if (!devices.length) return;
    const operator = await this.d.accounts.get(operatorId);
    await this.d.messages.post(targetId, 5, {
      count: devices.length,
      from: operator?.account ?? "",
      imeis: devices.slice(0, 5).map((x) => x.imei).join(", ") +
        (devices.length > 5 ? " …" : ""),
    }, devices.length === 1 ? devices[0].imei : null);
  }

  /** Type 10: recharge cards used by renewals, per paying account, with the cards left. */
  async cardsConsumed(entries: LedgerEntry[], cardsLeft: (accountId: string) => number) {
    const byAccount = new Map<string, { cards: number; devices: number }>();
    for (const e of entries) {
      if (e.kind !== "renew") continue;
      const used = -Object.values(e.cards).reduce((s, n) => s + (n ?? 0), 0);
      if (used <= 0) continue;
      const sum = byAccount.get(e.accountId) ?? { cards: 0, devices: 0 };
      sum.cards += used;
      sum.devices++;
      byAccount.set(e.accountId, sum);
    }
    for (const [accountId, s] of byAccount) {
      await this.d.messages.post(accountId, 10, { ...s, left: cardsLeft(accountId) });
    }
  }

  /** Counts a stored position for the "fewer than 50 reports a day" check. */
  countPosition(imei: string, now = Date.now()): void {
    this.d.reportCounts.count(imei, now);
  }

  /** Stores the positions counted since the last flush (every minute, and on shutdown). */
  flushCounts(): Promise<void> {
    return this.d.reportCounts.flush();
  }

  // ---- the daily check ----------------------------------------------------------------

  /** Runs every date-driven check; returns how many messages it posted. */
  async daily(now = Date.now()): Promise<number> {
    let posted = 0;
    posted += await this.expiredDevices(now);
    posted += await this.longOffline(now);
    posted += await this.reminderDates(now);
    posted += await this.fleetDates(now);
    posted += await this.fewReports(now);
    posted += await this.lowBalances(now);
    return posted;
  }

  private async expiredDevices(now: number): Promise<number> {
    let n = 0;
    for (const userId of this.d.directory.owners()) {
      for (const dev of this.d.directory.ownedBy(userId)) {
        const exp = effectiveExpiry(dev);
        if (!exp || activationState(dev, now) !== "expired") continue;
        if (Date.parse(`${exp.slice(0, 10)}T23:59:59Z`) < now - LOOKBACK_DAYS * DAY_MS) {
          continue;
        }
        const m = await this.d.messages.postOnce(
          ["deviceExpired", dev.imei, exp],
          dev.userId,
          1,
          { imei: dev.imei, name: label(dev), date: exp.slice(0, 10) },
          dev.imei,
        );
        if (m) n++;
      }
    }
    return n;
  }

  /**
   * Type 2 ("device offline"), spec §9 "over 3 days triggers a reminder": once per silence
   * (keyed by the last message time), beside the offline alert's own message.
   */
  private async longOffline(now: number): Promise<number> {
    let n = 0;
    for (const userId of this.d.directory.owners()) {
      for (const dev of this.d.directory.ownedBy(userId)) {
        const last = this.d.directory.state(dev.imei)?.hbTime;
        if (!last) continue;
        const silent = now - last;
        if (silent <= LONG_OFFLINE_DAYS * DAY_MS) continue;
        if (silent > (LONG_OFFLINE_DAYS + LOOKBACK_DAYS) * DAY_MS) continue;
        const m = await this.d.messages.postOnce(
          ["longOffline", dev.imei, last],
          dev.userId,
          2,
          {
            variant: "days",
            imei: dev.imei,
            name: label(dev),
            days: Math.floor(silent / DAY_MS),
            since: isoDay(last),
          },
          dev.imei,
        );
        if (m) n++;
      }
    }
    return n;
  }

  private async reminderDates(now: number): Promise<number> {
    let n = 0;
    const today = dayStart(now);
    // A device bound to a fleet vehicle takes its licence and insurance from the fleet.
    const bound = await this.d.fleet?.boundImeis() ?? new Set<string>();
    for (const s of this.d.deviceSettings()) {
      const dev = this.d.directory.get(s.imei);
      if (!dev) continue;
      for (const [field, type] of DATE_TYPES) {
        if (type !== 9 && bound.has(s.imei)) continue;
        const date = s[field];
        if (!date) continue;
        const days = Math.round((Date.parse(`${date}T00:00:00Z`) - today) / DAY_MS);
        // The tightest window the date is in: 7 days, else 30 days ahead.
        const window = [...REMIND_DAYS].reverse().find((w) => days >= 0 && days <= w);
        if (window === undefined) continue;
        const m = await this.d.messages.postOnce(
          [field, s.imei, date, window],
          dev.userId,
          type,
          { imei: s.imei, name: label(dev), date, days },
          s.imei,
        );
        if (m) n++;
      }
    }
    return n;
  }

  /**
   * Types 7 and 8 from the fleet: each driver's licence and vehicle's insurance, once when it
   * turns "expiring soon" and once when it has expired (per date: a renewed date starts over).
   */
  private async fleetDates(now: number): Promise<number> {
    if (!this.d.fleet) return 0;
    let n = 0;
    const today = dayStart(now);
    for (const e of await this.d.fleet.expiries()) {
      const days = Math.round((Date.parse(`${e.date}T00:00:00Z`) - today) / DAY_MS);
      const state = days < 0 ? "expired" : days <= FLEET_SOON_DAYS ? "expiringSoon" : null;
      if (!state) continue;
      const type = e.kind === "licence" ? 7 : 8;
      const params = {
        variant: `${e.kind === "licence" ? "driver" : "vehicle"}${
          state === "expired" ? "Expired" : ""
        }`,
        name: e.name,
        imei: e.imei,
        date: e.date,
        days,
      };
      const m = await this.d.messages.postOnce(
        ["fleet", e.kind, e.id, e.date, state],
        e.accountId,
        type,
        params,
        e.imei || null,
      );
      if (!m) continue;
      n++;
      const a = await this.d.accounts.get(e.accountId);
      if (a) await this.mailNotice(a, type, params);
    }
    return n;
  }

  /** Type 11, for yesterday, when counting covered all of it (ReportCounter). */
  private async fewReports(now: number): Promise<number> {
    const done = await this.d.reportCounts.lastDay(now);
    if (!done) return 0;
    let n = 0;
    for (const [imei, count] of done.counts) {
      const dev = this.d.directory.get(imei);
      if (!dev || count >= FEW_REPORTS) continue;
      const date = done.day;
      const m = await this.d.messages.postOnce(
        ["fewReports", imei, date],
        dev.userId,
        11,
        { imei, name: label(dev), count, date },
        imei,
      );
      if (m) n++;
    }
    return n;
  }

  /**
   * Type 6, spec §9 "balance reminders at 10:00 daily, Monday weekly, 1st monthly", in the
   * period the account's preference names (weekly unless changed), once, from its 10:00 UTC.
   * An account that set thresholds is reminded while its Mi coins, recharge cards or credits
   * are under one; otherwise payers (recharge permission) owning devices are, while they have
   * fewer than LOW_COINS Mi coins and no recharge cards. A mail goes with it when the account
   * has an e-mail address.
   */
  private async lowBalances(now: number): Promise<number> {
    let n = 0;
    const ids = new Set(this.d.directory.owners());
    for await (const id of this.d.messages.withThresholds()) ids.add(id);
    for (const userId of ids) {
      const a = await this.d.accounts.get(userId);
      if (!a || a.virtual || a.parentId === "") continue;
      const prefs = await this.d.messages.prefs(a.id);
      const period = reminderPeriod(prefs.balanceReminder, now);
      if (!period) continue;
      const params = prefs.balanceThresholds
        ? await this.underThresholds(a, prefs.balanceThresholds)
        : this.legacyLow(a);
      if (!params) continue;
      const m = await this.d.messages.postOnce(["lowBalance", a.id, period], a.id, 6, params);
      if (!m) continue;
      n++;
      await this.mailReminder(a, params);
    }
    return n;
  }

  /** The built-in rule: a payer owning devices with under LOW_COINS coins and no cards. */
  private legacyLow(a: Account): Record<string, string | number> | null {
    if (!this.d.directory.ownedBy(a.id).length || a.permissions.rechargeFlag !== 1) return null;
    if (a.coinNumber >= LOW_COINS || a.rechargeCards > 0) return null;
    return { coins: a.coinNumber, cards: a.rechargeCards };
  }

  /** The balances under the user's thresholds, as the message's values; null when none is. */
  private async underThresholds(a: Account, t: BalanceThresholds) {
    const credits = t.credits !== null && this.d.credits
      ? await this.d.credits.creditsOf(a.id)
      : null;
    const low = (t.coins !== null && a.coinNumber < t.coins) ||
      (t.cards !== null && a.rechargeCards < t.cards) ||
      (credits !== null && t.credits !== null && credits < t.credits);
    if (!low) return null;
    return {
      variant: "thresholds",
      coins: a.coinNumber,
      cards: a.rechargeCards,
      credits: credits ?? (this.d.credits ? await this.d.credits.creditsOf(a.id) : a.credits),
    };
  }

  private async mailReminder(a: Account, params: Record<string, string | number>) {
    await this.mailNotice(a, 6, params);
  }

  /** A reminder's message, also by mail when the account has an address. */
  private async mailNotice(a: Account, type: number, params: Record<string, string | number>) {
    if (!a.email || !this.d.mailer?.enabled) return;
    const t = translator(normalizeLang(a.language));
    const key = `alerts.messages.text.${type}${params.variant ? `_${params.variant}` : ""}`;
    await this.d.mailer.send({
      to: a.email,
      subject: t(`alerts.messages.type.${type}`),
      // The footer tells where balance thresholds are set; fleet dates are changed on their records.
      text: type === 6
        ? `${t(key, params)}\n\n${t("alerts.messages.reminderMailFooter")}`
        : t(key, params),
    }).catch((e) => noticeLog.warn(`type ${type} reminder mail to account ${a.id} failed: ${e}`));
  }
}

/**
 * The reminder period a time falls in ("2026-11-21", "2026-W47", "2026-11"), or null before
 * the period's reminder time (10:00 UTC of the day, the Monday, the 1st) or when off.
 */
export function reminderPeriod(every: BalanceReminder, now: number): string | null {
  const d = new Date(now);
  const at10 = (day: number) => now >= day + 10 * 3_600_000;
  if (every === "daily") return at10(dayStart(now)) ? isoDay(now) : null;
  if (every === "weekly") {
    const monday = dayStart(now) - ((d.getUTCDay() + 6) % 7) * DAY_MS;
    return at10(monday) ? isoWeek(now) : null;
  }
  if (every === "monthly") {
    const first = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
    return at10(first) ? isoDay(now).slice(0, 7) : null;
  }
  return null;
}

/** "2026-W47": the ISO week of a time (UTC). */
export function isoWeek(ms: number): string {
  const d = new Date(dayStart(ms));
  const weekday = (d.getUTCDay() + 6) % 7;
  d.setUTCDate(d.getUTCDate() - weekday + 3); // the week's Thursday decides its year
  const year = d.getUTCFullYear();
  const firstThursday = new Date(Date.UTC(year, 0, 4));
  const week = 1 +
    Math.round(
      ((d.getTime() - firstThursday.getTime()) / DAY_MS - 3 +
        ((firstThursday.getUTCDay() + 6) % 7)) / 7,
    );
  return `${year}-W${String(week).padStart(2, "0")}`;
}
