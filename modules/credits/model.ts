/**
 * Credits vocabulary (spec console §9, business §3 "Wallet and packages": credit balance).
 * Credits are whole numbers; they pay for SMS and for alert pushes beyond the free monthly
 * quota. Browser code imports this file: constants and types only.
 */

/** Spec §9: a new account gets 50 free credits. */
export const FREE_CREDITS = 50;
/** Spec §9: 1 credit = 0.014 Mi coins = 0.007 USD. */
export const COINS_PER_CREDIT = 0.014;
export const USD_PER_CREDIT = 0.007;
/** Spec §5 Wallet / §9: a credit pool is shared with at most 100 accounts. */
export const MAX_SHARED_ACCOUNTS = 100;
/** What one SMS through the gateway costs (docs/decisions.md). */
export const SMS_CREDITS = 1;
/** What one alert mail or webhook call beyond the free monthly quota costs. */
export const PUSH_CREDITS = 1;

/**
 * Whole credits that Mi coins (in hundredths) buy, rounded down: 1 credit = 1.4 hundredths,
 * so 7 hundredths buy exactly 5 credits.
 */
export const creditsForCents = (cents: number) => Math.floor((cents * 5) / 7);
/** Hundredths of a Mi coin that whole credits cost, rounded up to a whole hundredth. */
export const centsForCredits = (credits: number) => Math.ceil((credits * 7) / 5);

export const CREDIT_LOG_KINDS = ["free", "buy", "sms", "push", "refund", "grant"] as const;
export type CreditLogKind = typeof CREDIT_LOG_KINDS[number];

/** One change to a credit pool (the credits log). */
export interface CreditLogEntry {
  id: string;
  /** Whose pool changed. */
  accountId: string;
  time: string;
  kind: CreditLogKind;
  /** Signed change. */
  credits: number;
  /** The pool's balance after the change. */
  balance: number;
  /** Buying: the Mi coins (hundredths) paid. */
  coinCents?: number;
  /** Spending from a shared pool: the account that spent (else the pool's own). */
  spenderId?: string;
  /** In the log's answer: that account's login. */
  spenderAccount?: string;
  /** SMS: the number; pushes: the channel. */
  detail?: string;
  /** Who asked (buying, granting). */
  operatorId?: string;
}

/** A push channel metered by the monthly quota. */
export type PushChannel = "mail" | "webhook";

/** Pushes of one account in one UTC month: free ones, ones paid with a credit, ones skipped. */
export interface PushCount {
  free: number;
  paid: number;
  skipped: number;
}

/**
 * What a push (or an SMS) came to: sent within the free quota, paid with credits (from the
 * account's own pool or the one shared with it), or skipped for want of credits.
 */
export type Charge = "free" | "paid" | "skipped";

/**
 * Reads an account's credit balance (the balance call, the wallet page, balance reminders).
 * Implemented by CreditsService (modules/credits/service.ts); same shape as the wallet's
 * CreditsReader.
 */
export interface CreditsReader {
  creditsOf(accountId: string): Promise<number>;
}

/**
 * Adds credits to an account's pool with a log entry (a package's SMS count, W1). Implemented
 * by CreditsService.
 */
export interface CreditGrants {
  grantCredits(accountId: string, credits: number, operatorId: string): Promise<number>;
}

/** The answer of POST /v3/new/credits/balance. */
export interface CreditsView {
  userId: string;
  credits: number;
  coinsPerCredit: number;
  usdPerCredit: number;
  /** The pool this account spends from when shared with it (else null). */
  pool: { userId: string; account: string; credits: number } | null;
  /** Accounts this account shares its pool with. */
  sharedWith: { userId: string; account: string; nickName: string; sharedAt: string }[];
  maxShared: number;
  pushes: PushCount & { month: string; quota: number };
  sms: { enabled: boolean; credits: number };
  /** What the caller may do here: buy (recharge permission), share (manages accounts). */
  canBuy: boolean;
  canShare: boolean;
}

/** "2026-11": the UTC month of a time, the push quota's period. */
export const utcMonth = (ms: number) => new Date(ms).toISOString().slice(0, 7);
