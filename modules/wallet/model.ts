/**
 * Wallet vocabulary (spec §3 "Wallet and packages", §3 enumerations): Mi coins and recharge
 * cards of four lengths pay for device renewals. Coins are kept in hundredths (integers) so
 * sums never drift; the API shows them as decimal coins.
 */

/** Renewal terms offered (spec: 3 months, 6 months, 1 year, 10 years), in months. */
export const TERMS = [3, 6, 12, 120] as const;
export type Term = typeof TERMS[number];

/** Recharge card types by length (spec: 1 year, 3 months, 6 months, 10 years). */
export const CARD_TYPES = ["3m", "6m", "1y", "10y"] as const;
export type CardType = typeof CARD_TYPES[number];
export const CARD_OF_TERM: Record<Term, CardType> = { 3: "3m", 6: "6m", 12: "1y", 120: "10y" };

/**
 * Service renewal options (spec §3: "1 one-year; 2 three-month type; 3 six-month type; 4 …"):
 * which terms a model may be renewed for. The spec's figures in brackets are not usable as
 * given; this reading is recorded in docs/decisions.md.
 */
export const RENEWAL_OPTIONS: Record<1 | 2 | 3 | 4, readonly Term[]> = {
  1: [12, 120],
  2: [3, 6, 12],
  3: [6, 12],
  4: [120],
};
export type RenewalOption = keyof typeof RENEWAL_OPTIONS;

/** A model's rate: its renewal option and the Mi coin price of each term (coins, not cents). */
export interface Rate {
  option: RenewalOption;
  prices: Partial<Record<`${Term}`, number>>;
}

/** Built-in rate of every model until the administrator sets one (yearly type). */
export const DEFAULT_RATE: Rate = { option: 1, prices: { "12": 10, "120": 80 } };

export interface Balance {
  /** Mi coins in hundredths. */
  coinCents: number;
  cards: Record<CardType, number>;
}

export const emptyBalance = (): Balance => ({
  coinCents: 0,
  cards: { "3m": 0, "6m": 0, "1y": 0, "10y": 0 },
});

/** A change to one account's balance: coins in hundredths and cards by type (signed). */
export interface Delta {
  accountId: string;
  coinCents?: number;
  cards?: Partial<Record<CardType, number>>;
}

/** One consumption / allocation log entry of an account (spec: consumption and allocation logs). */
export interface LedgerEntry {
  id: string;
  accountId: string;
  time: string;
  kind: "renew" | "allocateIn" | "allocateOut" | "issue" | "refund";
  coinCents: number;
  cards: Partial<Record<CardType, number>>;
  /**
   * Renewals: one entry per operation (a commit holds at most 1000 mutations, and an operation
   * up to 1000 devices), with each device and its price in hundredths of a coin.
   */
  devices?: { imei: string; coinCents: number }[];
  term?: Term;
  /** Allocations: the other account. */
  counterpartId?: string;
  operatorId: string;
}

export const toCoins = (cents: number) => Math.round(cents) / 100;
export const toCents = (coins: number) => Math.round(coins * 100);
