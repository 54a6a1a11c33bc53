/**
 * Wallet vocabulary (spec §3 "Wallet and packages", §3 enumerations): Mi coins and recharge
 * cards of four lengths pay for device renewals. Coins are kept in hundredths (integers) so
 * sums never drift; the API shows them as decimal coins.
 */

/** Renewal terms offered (spec: 3 months, 6 months, 1 year, 10 years), in months. */
export const TERMS = [3, 6, 12, 120] as const;
export type Term = typeof TERMS[number];

/**
 * Recharge card types (spec: 1 year, 3 months, 6 months, 10 years, point card). A length card
 * pays one renewal of its term for one device; a point card is one month of service, so a
 * renewal of T months can be paid with T point cards per device (docs/decisions.md).
 */
export const CARD_TYPES = ["3m", "6m", "1y", "10y", "point"] as const;
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
  cards: { "3m": 0, "6m": 0, "1y": 0, "10y": 0, point: 0 },
});

/** A stored balance with every card type present (balances written before a type existed). */
export const normalizeBalance = (b: Balance | null): Balance => {
  const out = emptyBalance();
  if (!b) return out;
  out.coinCents = b.coinCents;
  for (const c of CARD_TYPES) out.cards[c] = b.cards?.[c] ?? 0;
  return out;
};

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
  kind: LedgerKind;
  coinCents: number;
  cards: Partial<Record<CardType, number>>;
  /**
   * Renewals: one entry per operation (a commit holds at most 1000 mutations, and an operation
   * up to 1000 devices), with each device and its price in hundredths of a coin.
   */
  devices?: { imei: string; coinCents: number }[];
  term?: Term;
  /** Allocations and package sales: the other account. */
  counterpartId?: string;
  operatorId: string;
  /** Package sales: the package's name and id, and the SMS credits it granted. */
  packageId?: string;
  packageName?: string;
  smsCount?: number;
  /** Redemptions: the recharge card code redeemed. */
  code?: string;
}

export const LEDGER_KINDS = [
  "renew",
  "refund",
  "allocateIn",
  "allocateOut",
  "issue",
  "packageBuy",
  "packageSale",
  "redeem",
  "creditsBuy",
] as const;
export type LedgerKind = typeof LEDGER_KINDS[number];

/**
 * The wallet page's three views of one account's ledger (spec business centre: consumption
 * log, allocation log; the business log shows every movement).
 */
export const LOG_VIEWS = {
  consumption: ["renew", "refund", "packageBuy", "creditsBuy"],
  allocation: ["allocateIn", "allocateOut", "issue"],
  business: LEDGER_KINDS,
} as const satisfies Record<string, readonly LedgerKind[]>;
export type LogView = keyof typeof LOG_VIEWS;

/** Most rows one log export writes (spec export cap with one open map provider). */
export const MAX_LOG_EXPORT = 30_000;

/** A recharge card code imported by the administrator; redeemed once into a card balance. */
export interface CardCode {
  code: string;
  type: CardType;
  importedAt: string;
  importedBy: string;
  usedBy?: string;
  usedAt?: string;
}

/** Most codes one import file may hold (spec card import). */
export const MAX_CODES_PER_IMPORT = 10_000;
/** A card code: 6-32 letters, digits or dashes (case kept, compared as given). */
export const CARD_CODE_PATTERN = /^[A-Za-z0-9-]{6,32}$/;

/**
 * Reads an account's credit balance for the balance call and the wallet page. Credits belong
 * to modules/credits; the composition root passes its reader (the account record's count
 * until that module is wired).
 */
export interface CreditsReader {
  creditsOf(accountId: string): Promise<number>;
}

/**
 * Coins taken inside another module's commit (modules/credits buys credits with coins: coins
 * and credits move in one KV atomic). Implemented by WalletStore; `entry.coinCents` is the
 * (negative) change. The balance after it, or null (nothing added) when coins are too few.
 */
export interface CoinDebits {
  addDebit(
    op: Deno.AtomicOperation,
    entry: LedgerEntry,
    unlimited: boolean,
  ): Promise<Balance | null>;
}

export const toCoins = (cents: number) => Math.round(cents) / 100;
export const toCents = (coins: number) => Math.round(coins * 100);
