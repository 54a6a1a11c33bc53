import type { Balance, LedgerEntry } from "./model.ts";

/** Ledger entries were applied; `balances` holds the new balance of each account touched. */
export interface BalancesChanged {
  type: "balancesChanged";
  entries: LedgerEntry[];
  balances: Map<string, Balance>;
}
