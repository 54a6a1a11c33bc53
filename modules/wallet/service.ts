import { BizError } from "../../lib/errors.ts";
import type { Session } from "../../lib/http/env.ts";
import type { AccessGuard } from "../accounts/access.ts";
import type { Account } from "../accounts/model.ts";
import type { AccountRecords } from "../accounts/model.ts";
import { DEVICE_MODELS, findModel } from "../devices/models.ts";
import {
  type Balance,
  CARD_TYPES,
  type CardType,
  DEFAULT_RATE,
  type Delta,
  type LedgerEntry,
  type Rate,
  toCents,
  toCoins,
} from "./model.ts";
import type { WalletStore } from "./store.ts";
import type { Publisher } from "../../lib/events/bus.ts";
import type { BalancesChanged } from "./events.ts";

/** The platform administrator (the root account) issues coins and cards; it has no balance. */
export const isPlatform = (a: Pick<Account, "accountType" | "parentId" | "virtual">) =>
  a.accountType === 0 && a.parentId === "" && !a.virtual;

const present = (b: Balance, unlimited: boolean) => ({
  coins: toCoins(b.coinCents),
  cards: b.cards,
  unlimited,
});

/**
 * Balances, allocations, rates and the consumption / allocation log. Spending needs the
 * recharge permission (spec §6) and a real (not virtual) user; every account named must lie
 * in the caller's subtree.
 */
export class WalletService {
  constructor(
    private readonly store: WalletStore,
    private readonly accounts: AccountRecords,
    private readonly access: AccessGuard,
    /** Told after balances changed (the message center posts "card consumption"). */
    private readonly events: Publisher<BalancesChanged>,
  ) {}

  /** The paying account of a session; refused without the recharge permission. */
  async payer(session: Session): Promise<Account> {
    const { self, owner } = await this.access.caller(session);
    if (self.virtual || owner.permissions.rechargeFlag !== 1) {
      throw new BizError("permissionDenied");
    }
    return owner;
  }

  /** Deletion rule (spec: accounts with Mi coins or recharge cards cannot be deleted). */
  async deletionRefusal(a: Account): Promise<"miCoinsInBalance" | "contactServiceProvider" | null> {
    const b = await this.store.balance(a.id);
    if (b.coinCents > 0) return "miCoinsInBalance";
    return Object.values(b.cards).some((n) => n > 0) ? "contactServiceProvider" : null;
  }

  async balance(session: Session, userId?: string) {
    const { owner } = await this.access.caller(session);
    const a = userId ? await this.access.visibleAccount(session, userId) : owner;
    return present(await this.store.balance(a.id), isPlatform(a));
  }

  /**
   * Moves coins and cards from the caller to an account below it (the administrator issues
   * them). Never to oneself (spec §8 "coins cannot be transferred to oneself").
   */
  async allocate(
    session: Session,
    input: { targetUserId: string; coins?: number; cards?: Partial<Record<CardType, number>> },
  ) {
    const from = await this.payer(session);
    if (input.targetUserId === from.id) throw new BizError("coinsToSelf");
    const to = await this.access.visibleAccount(session, input.targetUserId);
    if (to.virtual) throw new BizError("superiorInvalid");
    const coinCents = toCents(input.coins ?? 0);
    const cards = Object.fromEntries(
      CARD_TYPES.filter((c) => (input.cards?.[c] ?? 0) > 0).map((c) => [c, input.cards![c]!]),
    ) as Partial<Record<CardType, number>>;
    if (coinCents <= 0 && !Object.keys(cards).length) {
      throw new BizError("illegalParameter", { field: "coins", reasonKey: "validation.required" }, {
        field: "coins",
      });
    }
    const time = new Date().toISOString();
    const base = { time, operatorId: session.accountId };
    const negated = Object.fromEntries(Object.entries(cards).map(([k, v]) => [k, -v!]));
    const entries: LedgerEntry[] = [
      {
        ...base,
        id: crypto.randomUUID(),
        accountId: from.id,
        kind: isPlatform(from) ? "issue" : "allocateOut",
        coinCents: -coinCents,
        cards: negated,
        counterpartId: to.id,
      },
      {
        ...base,
        id: crypto.randomUUID(),
        accountId: to.id,
        kind: "allocateIn",
        coinCents,
        cards,
        counterpartId: from.id,
      },
    ];
    await this.apply(
      [{ accountId: from.id, coinCents: -coinCents, cards: negated }, {
        accountId: to.id,
        coinCents,
        cards,
      }],
      entries,
      from,
    );
    return await this.balance(session);
  }

  /**
   * Commits balance changes with their log entries, or refuses the whole operation when the
   * payer lacks coins or cards. Accounts' coinNumber / rechargeCards carry a copy of the
   * balance for the shell's balance call and the deletion rules.
   */
  async apply(
    deltas: Delta[],
    entries: LedgerEntry[],
    payer: Account,
    /** The other side of a sale: the platform administrator sells without a balance. */
    seller?: Account,
  ): Promise<Balance> {
    const platformIds = new Set(
      [payer, seller].filter((a) => a && isPlatform(a)).map((a) => a!.id),
    );
    const res = await this.store.apply(deltas, entries, (id) => platformIds.has(id));
    const mine = res.balances.get(payer.id)!;
    if (!res.ok) {
      if (mine.coinCents < 0) throw new BizError("miCoinsInsufficient");
      throw new BizError("rechargeCardsInsufficient");
    }
    for (const [id, b] of res.balances) if (!platformIds.has(id)) await this.keepCopy(id, b);
    await this.events.deliver({ type: "balancesChanged", entries, balances: res.balances });
    return mine;
  }

  /** The account record's copy of its balance (account lists, the low-balance reminder). */
  private async keepCopy(id: string, b: Balance) {
    const a = await this.accounts.get(id);
    if (a) {
      await this.accounts.update({
        ...a,
        coinNumber: toCoins(b.coinCents),
        rechargeCards: Object.values(b.cards).reduce((s, n) => s + n, 0),
      });
    }
  }

  /**
   * Redeems a recharge card code into the caller's (paying account's) card balance, once: a
   * code that does not exist, is used, or is of another type than the one chosen is refused.
   */
  async redeem(session: Session, code: string, type: CardType) {
    const payer = await this.payer(session);
    if (isPlatform(payer)) throw new BizError("permissionDenied");
    const res = await this.store.redeem(code, type, payer.id, (c) => ({
      id: crypto.randomUUID(),
      accountId: payer.id,
      time: new Date().toISOString(),
      kind: "redeem",
      coinCents: 0,
      cards: { [c.type]: 1 },
      code: c.code,
      operatorId: session.accountId,
    }));
    if (!res.ok) {
      throw new BizError(res.reason, { type: res.type ?? "" });
    }
    await this.keepCopy(payer.id, res.balance);
    return await this.balance(session);
  }

  /** The rate of a model: the administrator's, else the built-in one; null when removed. */
  async rateFor(mcType: string): Promise<Rate | null> {
    const stored = await this.store.rate(mcType);
    if (stored && "removed" in stored) return null;
    return stored ?? (findModel(mcType) ? DEFAULT_RATE : null);
  }

  async rates() {
    const stored = await this.store.rates();
    return DEVICE_MODELS.map((m) => {
      const r = stored.get(m.mcType);
      return { mcType: m.mcType, rate: r && "removed" in r ? null : r ?? DEFAULT_RATE };
    });
  }

  /** Administrator: a model's renewal option and prices; null removes the rate. */
  async setRate(session: Session, mcType: string, rate: Rate | null) {
    const { self, owner } = await this.access.caller(session);
    if (!isPlatform(owner) || self.virtual) throw new BizError("permissionDenied");
    if (!findModel(mcType)) throw new BizError("modelNotExists");
    await this.store.setRate(mcType, rate ?? { removed: true });
  }

  /** Consumption and allocation log of an account in the caller's subtree, newest first. */
  async ledger(session: Session, userId: string | undefined, pageNum: number, pageSize: number) {
    const { owner } = await this.access.caller(session);
    const a = userId ? await this.access.visibleAccount(session, userId) : owner;
    const list = await this.store.ledger(a.id, (pageNum - 1) * pageSize, pageSize);
    return {
      total: await this.store.ledgerCount(a.id),
      list: list.map((e) => ({ ...e, coins: toCoins(e.coinCents) })),
    };
  }

  /**
   * Coins were taken inside another module's commit (CoinDebits: credits bought): the
   * account's copy of its balance follows, and the bus is told as for any movement.
   */
  async debitedElsewhere(entry: LedgerEntry, balance: Balance, unlimited: boolean) {
    if (!unlimited) await this.keepCopy(entry.accountId, balance);
    await this.events.deliver({
      type: "balancesChanged",
      entries: [entry],
      balances: new Map([[entry.accountId, balance]]),
    });
  }
}
