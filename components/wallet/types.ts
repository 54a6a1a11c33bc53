/** Shapes the wallet API answers, as the wallet and business centre pages use them. */
import type { CardType, LedgerKind, LogView, Rate } from "../../modules/wallet/model.ts";
import type { Package } from "../../modules/packages/model.ts";

export { CARD_TYPES, LOG_VIEWS, RENEWAL_OPTIONS, TERMS } from "../../modules/wallet/model.ts";
export { CURRENCIES, PACKAGE_MONTHS } from "../../modules/packages/model.ts";
export type { CardType, LedgerKind, LogView, Package, Rate };

/** POST /v3/new/wallet/balance. */
export interface WalletBalance {
  coins: number;
  cards: Record<CardType, number>;
  unlimited: boolean;
}

/** POST /v3/new/homepage/queryMiCoinsBalance. */
export interface ShellBalance {
  coinNumber: number;
  rechargeCards: number;
  cards: Record<CardType, number>;
  credits: number;
}

export interface LogRow {
  id: string;
  time: string;
  kind: LedgerKind;
  coins: number;
  cards: Partial<Record<CardType, number>>;
  counterpart: string;
  operator: string;
  devices?: { imei: string; coinCents: number }[];
  term?: number;
  packageName?: string;
  smsCount?: number;
  code?: string;
}

export interface CardCodeRow {
  code: string;
  type: CardType;
  importedAt: string;
  usedBy?: string;
  usedAt?: string;
}

/** A package as the list answers it. */
export interface PackageRow extends Package {
  seller: string;
  cost: number;
}

/** The logged-in user as the wallet pages hand it to their islands. */
export interface WalletMe {
  id: string;
  account: string;
  nickName: string;
  accountType: number;
  /** The platform administrator issues coins and cards and imports card codes. */
  isPlatform: boolean;
  isVirtual: boolean;
}

/** Formats coins with two decimals at most ("12", "0.5", "3.25"). */
export const coinText = (n: number) => String(Math.round(n * 100) / 100);

/** A signed card change as text ("+1 1-year card, −3 point cards"). */
export function cardsText(
  cards: Partial<Record<CardType, number>>,
  name: (c: CardType) => string,
): string {
  return Object.entries(cards)
    .filter(([, n]) => n)
    .map(([c, n]) => `${n! > 0 ? "+" : "−"}${Math.abs(n!)} ${name(c as CardType)}`)
    .join(", ");
}
