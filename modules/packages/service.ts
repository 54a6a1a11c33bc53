import { BizError } from "../../lib/errors.ts";
import type { Session } from "../../lib/http/env.ts";
import type { AccessGuard } from "../accounts/access.ts";
import { type Account, ACCOUNT_TYPES, type AccountLookup } from "../accounts/model.ts";
import { CARD_OF_TERM, type CardType, type LedgerEntry, toCoins } from "../wallet/model.ts";
import type { WalletService } from "../wallet/service.ts";
import {
  MAX_PACKAGES_PER_ACCOUNT,
  type Package,
  packageCostCents,
  type PackageInput,
  type SmsCreditGrant,
} from "./model.ts";
import type { PackageStore } from "./store.ts";

/** A package as a buyer sees it: who offers it and what it costs after the discount. */
const present = (p: Package, seller: string) => ({
  ...p,
  seller,
  cost: toCoins(packageCostCents(p)),
});

/**
 * The business centre's packages: an administrator or distributor (real user) defines them
 * for its subtree; an account below buys one with Mi coins (the recharge permission), paid to
 * the offering account in one wallet commit with both log entries.
 */
export class PackageService {
  constructor(
    private readonly store: PackageStore,
    private readonly access: AccessGuard,
    private readonly accounts: AccountLookup,
    private readonly wallet: WalletService,
    private readonly sms: SmsCreditGrant,
  ) {}

  /** The caller's account when it may offer packages (administrator or distributor). */
  private async seller(session: Session): Promise<Account> {
    const { self, owner } = await this.access.caller(session);
    const types: number[] = [ACCOUNT_TYPES.administrator, ACCOUNT_TYPES.distributor];
    if (self.virtual || !types.includes(owner.accountType)) throw new BizError("permissionDenied");
    return owner;
  }

  async add(session: Session, input: PackageInput) {
    const owner = await this.seller(session);
    if ((await this.store.ofOwner(owner.id)).length >= MAX_PACKAGES_PER_ACCOUNT) {
      throw new BizError("quantityLimitExceeded", { limit: MAX_PACKAGES_PER_ACCOUNT });
    }
    const now = new Date().toISOString();
    const p: Package = {
      ...input,
      id: crypto.randomUUID(),
      ownerId: owner.id,
      createdAt: now,
      updatedAt: now,
    };
    await this.store.put(p);
    return p;
  }

  async update(session: Session, input: PackageInput & { id: string }) {
    const owner = await this.seller(session);
    const p = await this.store.get(owner.id, input.id);
    if (!p) throw new BizError("packageNotFound");
    const next: Package = { ...p, ...input, updatedAt: new Date().toISOString() };
    await this.store.put(next);
    return next;
  }

  async delete(session: Session, id: string) {
    const owner = await this.seller(session);
    if (!(await this.store.get(owner.id, id))) throw new BizError("packageNotFound");
    await this.store.delete(owner.id, id);
  }

  /** The caller's own packages (when it may offer) and those offered to it from above. */
  async list(session: Session) {
    const { self, owner } = await this.access.caller(session);
    const ancestorIds = owner.fullParentId.split(",").filter(Boolean);
    const ancestors = await this.accounts.getMany(ancestorIds);
    const offered = [];
    for (const a of ancestors) {
      for (const p of await this.store.ofOwner(a.id)) offered.push(present(p, a.account));
    }
    const canOffer = !self.virtual &&
      [ACCOUNT_TYPES.administrator, ACCOUNT_TYPES.distributor].includes(
        owner.accountType as 0 | 8,
      );
    const own = canOffer
      ? (await this.store.ofOwner(owner.id)).map((p) => present(p, owner.account))
      : [];
    return { canOffer, own, offered };
  }

  /**
   * Buys a package offered from above: the buyer pays coins × discount to the offering
   * account and receives one card of the package's length from it (the administrator issues
   * it), then the SMS count as credits. Buying one's own package is refused.
   */
  async buy(session: Session, id: string) {
    const buyer = await this.wallet.payer(session);
    if (await this.store.get(buyer.id, id)) throw new BizError("cannotSellToSelf");
    const ancestorIds = buyer.fullParentId.split(",").filter(Boolean);
    let p: Package | null = null;
    for (const a of ancestorIds) p ??= await this.store.get(a, id);
    const seller = p && await this.accounts.get(p.ownerId);
    if (!p || !seller) throw new BizError("packageNotFound");
    const cost = packageCostCents(p);
    const card: Partial<Record<CardType, number>> = p.months ? { [CARD_OF_TERM[p.months]]: 1 } : {};
    const negated = Object.fromEntries(Object.entries(card).map(([k, v]) => [k, -v!]));
    const base = {
      time: new Date().toISOString(),
      operatorId: session.accountId,
      packageId: p.id,
      packageName: p.name,
      smsCount: p.smsCount,
    };
    const entries: LedgerEntry[] = [
      {
        ...base,
        id: crypto.randomUUID(),
        accountId: buyer.id,
        kind: "packageBuy",
        coinCents: -cost,
        cards: card,
        counterpartId: seller.id,
      },
      {
        ...base,
        id: crypto.randomUUID(),
        accountId: seller.id,
        kind: "packageSale",
        coinCents: cost,
        cards: negated,
        counterpartId: buyer.id,
      },
    ];
    await this.wallet.apply(
      [
        { accountId: buyer.id, coinCents: -cost, cards: card },
        { accountId: seller.id, coinCents: cost, cards: negated },
      ],
      entries,
      buyer,
      seller,
    );
    if (p.smsCount > 0) await this.sms.grantSms(buyer.id, p.smsCount, p.name);
    return await this.wallet.balance(session);
  }
}
