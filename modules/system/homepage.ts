import type { Session } from "../../lib/http/env.ts";
import type { AccessGuard } from "../accounts/access.ts";
import type { AccountLookup } from "../accounts/model.ts";
import type { WalletService } from "../wallet/service.ts";
import type { CreditsReader } from "../wallet/model.ts";

/** The home page's figures of the caller: balances and what its subtree holds. */
export class HomepageFigures {
  constructor(
    private readonly access: AccessGuard,
    private readonly accounts: AccountLookup,
    private readonly wallet: WalletService,
    private readonly credits: CreditsReader,
  ) {}

  /**
   * Mi coins, recharge cards (every type together, and per type) from the wallet, and the
   * credit balance.
   */
  async balances(session: Session) {
    const { owner } = await this.access.caller(session);
    // The wallet's ledger is authoritative (modules/wallet).
    const b = await this.wallet.balance(session);
    return {
      coinNumber: b.coins,
      rechargeCards: Object.values(b.cards).reduce((sum, n) => sum + n, 0),
      cards: b.cards,
      credits: await this.credits.creditsOf(owner.id),
    };
  }

  /** Accounts of the caller's subtree (itself included) and its virtual accounts. */
  async resources(session: Session) {
    const { owner } = await this.access.caller(session);
    let accounts = 0;
    for await (const _ of this.accounts.subtree(owner.id)) accounts++;
    return { accounts, virtualAccounts: (await this.accounts.virtualIds(owner.id)).length };
  }
}
