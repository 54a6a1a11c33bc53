import type { AccessGuard } from "../accounts/access.ts";
import type { Account, AccountLookup } from "../accounts/model.ts";
import { BizError } from "../../lib/errors.ts";
import type { Session } from "../../lib/http/env.ts";
import { FLEET_ACCOUNT_TYPES } from "./model.ts";

/**
 * Who works with fleet data, and on which accounts' records. `accountIds` is the caller's
 * account and every account below it; null for an administrator, who sees every account.
 */
export interface FleetScope {
  owner: Account;
  accountIds: Set<string> | null;
}

/**
 * The enterprise-only rule (spec business §6, console §6): fleet features are for enterprise
 * users (administrators see everything, as elsewhere); distributors, sales and end users are
 * refused with "ask your superior to change the account type". Every fleet service call asks
 * here first; account visibility itself is the shared AccessGuard's.
 */
export class FleetAccess {
  constructor(
    private readonly guard: AccessGuard,
    private readonly accounts: Pick<AccountLookup, "subtree">,
  ) {}

  /** The caller's owner account when it may use the fleet section; refuses otherwise. */
  async owner(session: Session): Promise<Account> {
    const { owner } = await this.guard.caller(session);
    if (!FLEET_ACCOUNT_TYPES.includes(owner.accountType)) {
      throw new BizError("enterpriseFeatureDenied");
    }
    return owner;
  }

  /** The caller's fleet scope: the enterprise and its sub-accounts (everything for an admin). */
  async scope(session: Session): Promise<FleetScope> {
    const owner = await this.owner(session);
    if (owner.accountType === 0) return { owner, accountIds: null };
    const accountIds = new Set([owner.id]);
    for await (const { id } of this.accounts.subtree(owner.id)) accountIds.add(id);
    return { owner, accountIds };
  }

  /**
   * The account a new record is created for: the caller's own, or a visible sub-account named
   * by userId (refused like an unknown id when outside the subtree).
   */
  async targetAccount(session: Session, userId?: string): Promise<Account> {
    const owner = await this.owner(session);
    if (!userId || userId === owner.id) return owner;
    return await this.guard.visibleAccount(session, userId);
  }
}

/** True when the record's account lies in the scope. */
export function inScope(scope: FleetScope, record: { accountId: string }): boolean {
  return scope.accountIds === null || scope.accountIds.has(record.accountId);
}

/**
 * The uniqueness domain of an account's fleet data (RFID cards): its enterprise tree, i.e. the
 * topmost enterprise on its path (the account itself when no enterprise is above it).
 */
export async function enterpriseRoot(
  accounts: Pick<AccountLookup, "get">,
  account: Account,
): Promise<Account> {
  let top = account;
  let cur: Account | null = account;
  while (cur && cur.parentId) {
    cur = await accounts.get(cur.parentId);
    if (cur && cur.accountType === 9) top = cur;
  }
  return top;
}
