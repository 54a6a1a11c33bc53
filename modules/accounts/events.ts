import type { Account } from "./model.ts";

/** An account (with its subtree) was moved under another account. */
export interface AccountMoved {
  type: "accountMoved";
  account: Account;
  target: Account;
}
