import { BizError, CATALOGUE, type ErrorName } from "../../lib/errors.ts";
import type { Session } from "../../lib/http/env.ts";
import type { AccessGuard } from "../accounts/access.ts";
import type { Account } from "../accounts/model.ts";
import type { AccountLookup } from "../accounts/model.ts";
import {
  CARD_OF_TERM,
  type CardType,
  type LedgerEntry,
  type Rate,
  RENEWAL_OPTIONS,
  type Term,
  toCents,
  toCoins,
} from "../wallet/model.ts";
import type { WalletService } from "../wallet/service.ts";
import type { DeviceDirectory } from "./directory.ts";
import type { Device } from "./model.ts";
import type { AllocationEntry } from "./store.ts";
import { MAX_PLATFORM_YEARS } from "./operations.ts";
import type { DeviceService } from "./service.ts";

/** Cards of the term's length, Mi coins, or point cards (one per month of the term). */
export type PayWith = "card" | "coin" | "point";

/** The card type and how many per device a card payment takes (null: paid with coins). */
export function cardPayment(payWith: PayWith, term: Term): { card: CardType; each: number } | null {
  if (payWith === "card") return { card: CARD_OF_TERM[term], each: 1 };
  return payWith === "point" ? { card: "point", each: term } : null;
}

export interface RenewInput {
  imeis: string[];
  term: Term;
  payWith: PayWith;
}

/** What renewing one device would do, or why it cannot be renewed. */
export interface RenewPlan {
  imei: string;
  deviceName: string;
  mcType: string;
  /** Platform expiry before and after (null when hidden from the caller or never set). */
  expiration: string | null;
  newExpiration: string | null;
  /** Mi coins (after the payer's discount), or cards: one of the term's length or its months in point cards. */
  coins: number;
  card: CardType | null;
  cards?: number;
  error?: ErrorName;
  device?: Device;
  newUserExpiration?: string | null;
}

/** YYYY-MM-DD plus whole months in UTC; the day is clamped to the month's end (Jan 31 + 1 → Feb 28). */
export function addMonths(date: string, months: number): string {
  const [y, m, d] = date.split("-").map(Number);
  const first = new Date(Date.UTC(y, m - 1 + months, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  first.setUTCDate(Math.min(d, last));
  return first.toISOString().slice(0, 10);
}

const today = () => new Date().toISOString().slice(0, 10);
const later = (a: string, b: string) => (a > b ? a : b);

/**
 * Device renewal (spec §2 renew screen, §3 renewal options, §8 renewal errors): extends the
 * platform expiry by the chosen term from the current expiry, or from today when it has
 * passed or was never set, and pays with one recharge card of the term's length per device
 * or with Mi coins at the model's rate times the payer's discount. Each device is checked on
 * its own; the payment for the devices that pass is taken in one commit, or the whole
 * operation is refused when the balance does not cover it.
 */
export class DeviceRenewal {
  /** Renewals run one after another, so two cannot extend the same expiry from one base. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly directory: DeviceDirectory,
    private readonly accounts: AccountLookup,
    private readonly access: AccessGuard,
    private readonly devices: DeviceService,
    private readonly wallet: WalletService,
    /** True when the platform expiry is hidden from the session (showPlatformExpiration 0). */
    private readonly hidesExpiry: (session: Session) => Promise<boolean> = () =>
      Promise.resolve(false),
  ) {}

  async quote(session: Session, input: RenewInput) {
    const payer = await this.wallet.payer(session);
    const plans = await this.plan(session, payer, input);
    const ok = plans.filter((p) => !p.error);
    return {
      hidden: await this.hidesExpiry(session),
      plans: await this.present(session, plans),
      total: {
        coins: toCoins(ok.reduce((s, p) => s + toCents(p.coins), 0)),
        cards: ok.length * (cardPayment(input.payWith, input.term)?.each ?? 0),
        card: cardPayment(input.payWith, input.term)?.card ?? CARD_OF_TERM[input.term],
      },
      balance: await this.wallet.balance(session),
    };
  }

  renew(session: Session, input: RenewInput) {
    const run = this.queue.then(() => this.renewNow(session, input));
    this.queue = run.catch(() => {});
    return run;
  }

  private async renewNow(session: Session, input: RenewInput) {
    const payer = await this.wallet.payer(session);
    const plans = await this.plan(session, payer, input);
    const ok = plans.filter((p) => !p.error);
    if (ok.length) {
      const time = new Date().toISOString();
      const paid = cardPayment(input.payWith, input.term);
      const card = paid?.card ?? CARD_OF_TERM[input.term];
      const coinCents = -ok.reduce((s, p) => s + toCents(p.coins), 0);
      const cards = ok.length * (paid?.each ?? 0);
      const entry: LedgerEntry = {
        id: crypto.randomUUID(),
        accountId: payer.id,
        time,
        kind: "renew",
        coinCents,
        cards: cards ? { [card]: -cards } : {},
        devices: ok.map((p) => ({ imei: p.imei, coinCents: toCents(p.coins) })),
        term: input.term,
        operatorId: session.accountId,
      };
      await this.wallet.apply(
        [{ accountId: payer.id, coinCents, cards: { [card]: -cards } }],
        [entry],
        payer,
      );
      try {
        await this.devices.save(ok.map((p) => ({
          before: p.device!,
          after: {
            ...p.device!,
            expiration: p.newExpiration,
            userExpiration: p.newUserExpiration ?? null,
          },
        })));
      } catch (e) {
        // The devices were not extended: give the payment back, logged as a refund.
        await this.wallet.apply(
          [{ accountId: payer.id, coinCents: -coinCents, cards: { [card]: cards } }],
          [{
            ...entry,
            id: crypto.randomUUID(),
            kind: "refund",
            coinCents: -coinCents,
            cards: cards ? { [card]: cards } : {},
          }],
          payer,
        );
        throw e;
      }
    }
    return {
      renewed: ok.length,
      results: await this.present(session, plans),
      balance: await this.wallet.balance(session),
    };
  }

  /**
   * Turns auto renewal on (with the term and payment to use, paid by the caller's account) or
   * off. Each device's model must offer the term, so the automatic run cannot fail on it.
   */
  async setAutoRenew(
    session: Session,
    imeis: string[],
    on: { term: Term; payWith: PayWith } | null,
  ) {
    const payer = await this.wallet.payer(session);
    const devices = await this.devices.visibleDevices(session, imeis);
    if (on) {
      for (const d of devices) {
        const rate = await this.wallet.rateFor(d.mcType);
        if (!rate) throw new BizError("noRateConfigured", { imei: d.imei }, { imei: d.imei });
        if (!RENEWAL_OPTIONS[rate.option].includes(on.term)) {
          throw new BizError("renewalTypeWrong", { imei: d.imei }, { imei: d.imei });
        }
      }
    }
    const autoRenew = on ? { ...on, payerId: payer.id } : null;
    await this.devices.save(devices.map((d) => ({ before: d, after: { ...d, autoRenew } })));
  }

  /**
   * The daily run: devices with auto renewal whose platform expiry is at most a day away (or
   * past) are renewed by the account that turned it on, as if it had asked itself; it stays
   * on. Returns the payers whose renewal was refused (e.g. not enough balance).
   */
  async autoRenewDue(now = new Date()) {
    const tomorrow = new Date(now.getTime() + 86_400_000).toISOString().slice(0, 10);
    const groups = new Map<string, { payerId: string; input: RenewInput }>();
    for (const userId of this.directory.owners()) {
      for (const d of this.directory.ownedBy(userId)) {
        const a = d.autoRenew;
        if (!a || !d.expiration || d.expiration.slice(0, 10) > tomorrow) continue;
        const key = `${a.payerId}|${a.term}|${a.payWith}`;
        const g = groups.get(key) ??
          { payerId: a.payerId, input: { imeis: [], term: a.term, payWith: a.payWith } };
        g.input.imeis.push(d.imei);
        groups.set(key, g);
      }
    }
    let renewed = 0;
    const refused: { payerId: string; imeis: string[]; error: string }[] = [];
    for (const { payerId, input } of groups.values()) {
      const session: Session = {
        accountId: payerId,
        cAccountId: payerId,
        isVirtual: false,
        jti: "auto-renewal",
        via: "bearer",
      };
      try {
        renewed += (await this.renew(session, input)).renewed;
      } catch (e) {
        refused.push({
          payerId,
          imeis: input.imeis,
          error: e instanceof BizError ? e.key : String(e),
        });
      }
    }
    return { renewed, refused };
  }

  private async present(session: Session, plans: RenewPlan[]) {
    const hidden = await this.hidesExpiry(session);
    return plans.map(({ device: _d, newUserExpiration: _u, error, ...p }) => ({
      ...p,
      expiration: hidden ? null : p.expiration,
      newExpiration: hidden ? null : p.newExpiration,
      ok: !error,
      code: error ? CATALOGUE[error] : CATALOGUE.success,
      error: error ?? null,
    }));
  }

  private async plan(session: Session, payer: Account, input: RenewInput): Promise<RenewPlan[]> {
    const { owner } = await this.access.caller(session);
    const visible = new Map<string, boolean>();
    const isVisible = async (userId: string) => {
      if (!visible.has(userId)) {
        const a = await this.accounts.get(userId);
        visible.set(userId, !!a && this.access.isVisible(owner, a));
      }
      return visible.get(userId)!;
    };
    const now = today();
    const max = addMonths(now, MAX_PLATFORM_YEARS * 12);
    const rates = new Map<string, Promise<Rate | null>>();
    const rateFor = (mcType: string) => {
      if (!rates.has(mcType)) rates.set(mcType, this.wallet.rateFor(mcType));
      return rates.get(mcType)!;
    };
    const movedOut = this.movedOut(isVisible);
    const out: RenewPlan[] = [];
    for (const imei of new Set(input.imeis)) {
      const found = this.directory.get(imei);
      const d = found && await isVisible(found.userId) ? found : null;
      // Nothing of a device is read before its owner is known to be visible: another
      // tenant's device must answer exactly like an IMEI that does not exist.
      const plan: RenewPlan = {
        imei,
        deviceName: d?.deviceName ?? "",
        mcType: d?.mcType ?? "",
        expiration: d?.expiration ?? null,
        newExpiration: null,
        coins: 0,
        card: null,
      };
      out.push(plan);
      if (!d) {
        // Only a device that left the caller's own subtree is named as moved out (spec §8).
        plan.error = await movedOut(imei) ? "deviceMovedOut" : "deviceNoPermission";
        continue;
      }
      const rate = await rateFor(d.mcType);
      if (!rate) {
        plan.error = "noRateConfigured";
        continue;
      }
      if (!RENEWAL_OPTIONS[rate.option].includes(input.term)) {
        plan.error = "renewalTypeWrong";
        continue;
      }
      if (input.payWith === "coin") {
        const price = rate.prices[`${input.term}`];
        if (!price || !(price > 0)) {
          plan.error = "unitPriceError";
          continue;
        }
        plan.coins = toCoins(toCents(price * payer.discount));
      } else {
        const paid = cardPayment(input.payWith, input.term)!;
        plan.card = paid.card;
        plan.cards = paid.each;
      }
      const current = d.expiration?.slice(0, 10) ?? null;
      const next = addMonths(current ? later(current, now) : now, input.term);
      if (next > max) {
        plan.error = "platformTermTooLong";
        continue;
      }
      plan.newExpiration = next;
      // A user expiry set by a distributor moves on by the same term, never past the new platform expiry.
      const user = d.userExpiration?.slice(0, 10);
      plan.newUserExpiration = user
        ? [addMonths(later(user, now), input.term), next].sort()[0]
        : null;
      plan.device = d;
    }
    return out;
  }

  /**
   * The device left the caller's subtree: an allocation moved it from a visible account. The
   * log is read once per plan (unknown IMEIs are checked too, so they cost the same).
   */
  private movedOut(isVisible: (userId: string) => Promise<boolean>) {
    let log: Promise<AllocationEntry[]> | null = null;
    return async (imei: string) => {
      log ??= this.devices.allocations(5000);
      for (const e of await log) {
        if (e.imei === imei && await isVisible(e.fromUserId)) return true;
      }
      return false;
    };
  }
}
