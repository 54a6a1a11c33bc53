import { BizError } from "../../lib/errors.ts";
import type { Need } from "../../lib/http/api.ts";
import type { Session } from "../../lib/http/env.ts";
import { type Account, isDescendantOrSelf } from "./model.ts";
import { needRefusal, scopeCovers } from "./needs.ts";
import type { AccountStore } from "./store.ts";

/**
 * The one place that decides what a caller may see and touch: its own account (for a
 * virtual user, the master's) and everything below it. Every module asks here before it
 * reads or changes data that belongs to an account.
 */
export class AccessGuard {
  constructor(private readonly accounts: AccountStore) {}

  /** The logged-in account and the account whose subtree it works in. */
  async caller(session: Session): Promise<{ self: Account; owner: Account }> {
    const self = await this.accounts.get(session.accountId);
    const owner = session.cAccountId === session.accountId
      ? self
      : await this.accounts.get(session.cAccountId);
    if (!self || !owner) throw new BizError("tokenInvalid", {}, null, 401);
    return { self, owner };
  }

  /**
   * The guard every API route passes (lib/http/api.ts mount): refuses a caller, real or
   * virtual, that lacks the route's declared need (flags in ./needs.ts).
   */
  async assertNeed(session: Session, need: Need): Promise<void> {
    // An Open API key's token: its scope first, then the account's own flags as for anyone.
    if (!scopeCovers(session.scope, need)) throw new BizError("permissionDenied");
    if (need === "public" || need === "read" || need === "self") return;
    const { self, owner } = await this.caller(session);
    const refusal = needRefusal(need, self, owner);
    if (refusal) throw new BizError(refusal);
  }

  /** True when account lies in the caller's subtree (its own account included). */
  isVisible(owner: Pick<Account, "id">, account: Pick<Account, "id" | "fullParentId">): boolean {
    return isDescendantOrSelf(account, owner.id);
  }

  /**
   * Loads an account the caller may act on, refusing with "permission denied" both when it
   * is outside the subtree and when it does not exist, so ids cannot be probed.
   */
  async visibleAccount(
    session: Session,
    id: string,
    opts: { strictlyBelow?: boolean } = {},
  ): Promise<Account> {
    const { owner } = await this.caller(session);
    const target = await this.accounts.get(id);
    const visible = target &&
      (target.virtual
        ? this.isVisible(
          owner,
          (await this.accounts.get(target.virtual.masterId)) ?? { id: "", fullParentId: "" },
        )
        : this.isVisible(owner, target));
    if (!target || !visible) throw new BizError("permissionDenied");
    if (opts.strictlyBelow && target.id === owner.id) throw new BizError("permissionDenied");
    return target;
  }

  /** For other modules: refuse unless ownerAccountId (e.g. a device's user) is in the caller's subtree. */
  async assertOwnerVisible(session: Session, ownerAccountId: string): Promise<void> {
    await this.visibleAccount(session, ownerAccountId);
  }
}
