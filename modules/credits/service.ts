import { BizError } from "../../lib/errors.ts";
import type { Session } from "../../lib/http/env.ts";
import { log } from "../../lib/log.ts";
import type { AccessGuard } from "../accounts/access.ts";
import type { AccountLookup } from "../accounts/model.ts";
import { needRefusal } from "../accounts/needs.ts";
import type { SmsGateway } from "../notifications/sms.ts";
import type { LedgerEntry } from "../wallet/model.ts";
import { isPlatform, type WalletService } from "../wallet/service.ts";
import {
  centsForCredits,
  type Charge,
  COINS_PER_CREDIT,
  type CreditGrants,
  creditsForCents,
  type CreditsReader,
  type CreditsView,
  FREE_CREDITS,
  MAX_SHARED_ACCOUNTS,
  PUSH_CREDITS,
  type PushChannel,
  SMS_CREDITS,
  USD_PER_CREDIT,
  utcMonth,
} from "./model.ts";
import type { CreditStore, Seed } from "./store.ts";

const creditLog = log.area("credits");

/**
 * Credit balances (50 free per account), buying them with Mi coins, sharing a pool down the
 * caller's subtree, and what spends them: SMS through the gateway and alert pushes beyond the
 * free monthly quota. Implements the read port others use (CreditsReader) and CreditGrants.
 */
export class CreditsService implements CreditsReader, CreditGrants {
  /** Accounts told (logged) this month that a push was skipped for want of credits. */
  private warned = new Set<string>();

  constructor(
    private readonly d: {
      store: CreditStore;
      accounts: AccountLookup;
      access: AccessGuard;
      wallet: WalletService;
      /** FREE_PUSHES_PER_MONTH. */
      freePushes: number;
      /** SMS_URL's gateway; null: no SMS. */
      sms: SmsGateway | null;
    },
  ) {}

  /**
   * The credits an account starts with: the count its record was created with (50 for every
   * account since accounts existed; virtual accounts 0, they use their master's).
   */
  private seed: Seed = async (id) => {
    const a = await this.d.accounts.get(id);
    if (!a || a.virtual) return 0;
    return Number.isInteger(a.credits) && a.credits >= 0 ? a.credits : FREE_CREDITS;
  };

  creditsOf(accountId: string): Promise<number> {
    return this.d.store.balance(accountId, this.seed);
  }

  grantCredits(accountId: string, credits: number, operatorId: string): Promise<number> {
    return this.d.store.grant(accountId, credits, this.seed, operatorId);
  }

  /** The account a request is about: the caller's own (owner), or one of its subtree. */
  private async target(session: Session, userId?: string) {
    const { owner } = await this.d.access.caller(session);
    const a = userId ? await this.d.access.visibleAccount(session, userId) : owner;
    // A virtual account's credits are its master's.
    return a.virtual ? (await this.d.accounts.get(a.virtual.masterId)) ?? owner : a;
  }

  async balance(session: Session, userId?: string, now = Date.now()): Promise<CreditsView> {
    const a = await this.target(session, userId);
    const { self, owner } = await this.d.access.caller(session);
    const mine = a.id === owner.id;
    const poolId = await this.d.store.poolOf(a.id);
    const pool = poolId ? await this.d.accounts.get(poolId) : null;
    const shares = await this.d.store.shares(a.id);
    const members = new Map(
      (await this.d.accounts.getMany(shares.map((s) => s.memberId))).map((m) => [m.id, m]),
    );
    const month = utcMonth(now);
    return {
      userId: a.id,
      credits: await this.creditsOf(a.id),
      coinsPerCredit: COINS_PER_CREDIT,
      usdPerCredit: USD_PER_CREDIT,
      pool: pool
        ? { userId: pool.id, account: pool.account, credits: await this.creditsOf(pool.id) }
        : null,
      sharedWith: shares.map((s) => ({
        userId: s.memberId,
        account: members.get(s.memberId)?.account ?? "",
        nickName: members.get(s.memberId)?.nickName ?? "",
        sharedAt: s.sharedAt,
      })),
      maxShared: MAX_SHARED_ACCOUNTS,
      pushes: { ...await this.d.store.pushes(a.id, month), month, quota: this.d.freePushes },
      sms: { enabled: this.d.sms !== null, credits: SMS_CREDITS },
      canBuy: mine && needRefusal("recharge", self, owner) === null,
      canShare: mine && needRefusal("manageAccounts", self, owner) === null,
    };
  }

  /**
   * Buys whole credits with the paying account's Mi coins: `coins` buys as many as it can
   * (rounded down, only their price taken), `credits` buys that many. The coins leave the
   * wallet in the same commit as the credits arrive, with an entry in both logs.
   */
  async buy(session: Session, input: { coins?: number; credits?: number }) {
    const payer = await this.d.wallet.payer(session);
    const credits = input.credits ?? creditsForCents(Math.round((input.coins ?? 0) * 100));
    if (credits < 1) throw new BizError("creditsTooFewCoins");
    const cost = centsForCredits(credits);
    const debit: LedgerEntry = {
      id: crypto.randomUUID(),
      accountId: payer.id,
      time: new Date().toISOString(),
      kind: "creditsBuy",
      coinCents: -cost,
      cards: {},
      operatorId: session.accountId,
    };
    // The platform administrator issues coins: it keeps no coin balance to take them from.
    const unlimited = isPlatform(payer);
    const res = await this.d.store.buy(
      payer.id,
      credits,
      debit,
      unlimited,
      this.seed,
      session.accountId,
    );
    if (!res) throw new BizError("miCoinsInsufficient");
    await this.d.wallet.debitedElsewhere(debit, res.wallet, unlimited);
    return { bought: credits, coinsPaid: cost / 100, credits: res.credits };
  }

  /**
   * Shares the caller's credit pool with an account strictly below it (at most 100); the
   * account then spends from the pool before its own credits. An account outside the subtree
   * is refused like a missing one.
   */
  async share(session: Session, userId: string) {
    const { owner } = await this.d.access.caller(session);
    const member = await this.d.access.visibleAccount(session, userId, { strictlyBelow: true });
    if (member.virtual) throw new BizError("permissionDenied");
    const r = await this.d.store.share(owner.id, member.id, MAX_SHARED_ACCOUNTS, session.accountId);
    if (r === "limit") throw new BizError("creditShareLimit", { max: MAX_SHARED_ACCOUNTS });
    if (r === "alreadyShared") throw new BizError("creditAlreadyShared");
    return await this.balance(session);
  }

  /**
   * Stops sharing the caller's pool with an account. An account that left the subtree (moved
   * or deleted) since can still be let go: it is the caller's own share that is ended.
   */
  async unshare(session: Session, userId: string) {
    const { owner } = await this.d.access.caller(session);
    if (await this.d.store.poolOf(userId) !== owner.id) {
      // Refused as the other calls are: not visible first, then not sharing.
      await this.d.access.visibleAccount(session, userId, { strictlyBelow: true });
      throw new BizError("creditNotShared");
    }
    if (!await this.d.store.unshare(owner.id, userId)) throw new BizError("creditNotShared");
    return await this.balance(session);
  }

  async log(session: Session, userId: string | undefined, pageNum: number, pageSize: number) {
    const a = await this.target(session, userId);
    const page = await this.d.store.log(a.id, (pageNum - 1) * pageSize, pageSize);
    // Spends by accounts sharing the pool name them by login.
    const ids = [...new Set(page.list.flatMap((e) => e.spenderId ? [e.spenderId] : []))];
    const names = new Map((await this.d.accounts.getMany(ids)).map((x) => [x.id, x.account]));
    return {
      total: page.total,
      list: page.list.map((e) =>
        e.spenderId ? { ...e, spenderAccount: names.get(e.spenderId) ?? "" } : e
      ),
    };
  }

  // ---- what spends credits ---------------------------------------------------------------

  /**
   * An alert mail or webhook call of an account: free within the month's quota, else one
   * credit from its pools, else skipped (counted, logged once a month per account).
   */
  async takePush(userId: string, channel: PushChannel, now = Date.now()): Promise<Charge> {
    const month = utcMonth(now);
    const r = await this.d.store.takePush(
      userId,
      month,
      this.d.freePushes,
      PUSH_CREDITS,
      channel,
      this.seed,
    );
    if (r === "skipped" && !this.warned.has(`${userId}|${month}`)) {
      if (this.warned.size > 10_000) this.warned.clear();
      this.warned.add(`${userId}|${month}`);
      creditLog.warn(`account ${userId}: free pushes used up and no credits; pushes skipped`);
    }
    return r;
  }

  /**
   * Sends an SMS for an account through the gateway: one credit from its pools, given back
   * when the gateway refuses it. "skipped" without credits; "off" without a gateway.
   */
  async sendSms(userId: string, to: string, text: string): Promise<Charge | "off" | "failed"> {
    if (!this.d.sms) return "off";
    const payer = await this.d.store.spend(userId, SMS_CREDITS, "sms", to, this.seed);
    if (!payer) {
      creditLog.info(`account ${userId}: SMS to ${to} skipped, no credits`);
      return "skipped";
    }
    if (await this.d.sms.send(to, text)) return "paid";
    await this.d.store.refund(payer, SMS_CREDITS, to, this.seed);
    return "failed";
  }
}
