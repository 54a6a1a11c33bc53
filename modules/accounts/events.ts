import type { Account } from "./model.ts";

/** An account (with its subtree) was moved under another account. */
export interface AccountMoved {
  type: "accountMoved";
  account: Account;
  target: Account;
}

/**
 * A (real, not virtual) account was created: the areas that start it off react (its 50 free
 * credits are granted and logged by modules/credits).
 */
export interface AccountCreated {
  type: "accountCreated";
  account: Account;
}
