/**
 * Packages of the business centre (spec business §3 "Package: name, price, months, SMS count,
 * Mi coin count, discount", currencies, §5 "Discount from 0.01 to 1"). An administrator or a
 * distributor offers packages to the accounts below it; a buyer pays the package's Mi coin
 * count × discount to the offering account and receives the months as one recharge card of
 * that length and the SMS count as SMS credits (docs/decisions.md).
 */

/** Spec currency options. */
export const CURRENCIES = [
  "USD",
  "EUR",
  "GBP",
  "HKD",
  "JPY",
  "CAD",
  "KRW",
  "AUD",
  "MYR",
  "PHP",
] as const;
export type Currency = typeof CURRENCIES[number];

/** Months a package may grant: none, or one of the renewal terms (one card of that length). */
export const PACKAGE_MONTHS = [0, 3, 6, 12, 120] as const;
export type PackageMonths = typeof PACKAGE_MONTHS[number];

/** Packages one account may offer. */
export const MAX_PACKAGES_PER_ACCOUNT = 100;

export interface Package {
  id: string;
  /** The offering account (administrator or distributor); its subtree may buy. */
  ownerId: string;
  name: string;
  /** Shown price in `currency` (what the package costs outside the platform). */
  price: number;
  currency: Currency;
  months: PackageMonths;
  smsCount: number;
  /** Mi coins the buyer pays, before the discount. */
  coins: number;
  /** 0.01-1: the buyer pays coins × discount. */
  discount: number;
  createdAt: string;
  updatedAt: string;
}

export type PackageInput = Omit<Package, "id" | "ownerId" | "createdAt" | "updatedAt">;

/** The Mi coins a buyer pays, in hundredths (rounded to the cent). */
export const packageCostCents = (p: Pick<Package, "coins" | "discount">) =>
  Math.round(p.coins * 100 * p.discount);

/**
 * Grants the SMS count of a bought package as SMS credits. Credits belong to modules/credits;
 * the composition root passes the grant (the account record's credit count until then).
 */
export interface SmsCreditGrant {
  grantSms(accountId: string, smsCount: number, packageName: string): Promise<void>;
}
