/**
 * Client-side checks that mirror modules/accounts/schemas.ts (spec §5) without shipping zod to
 * the browser. Each check returns the same i18n reason the server would give (validation.*),
 * so a message reads the same whether the browser or the server refuses the value.
 * validate_test.ts keeps these in step with the server schemas.
 */
import type { TFunction } from "i18next";
import { refusalSentence } from "../../lib/i18n/refusal.ts";

/** A refusal: an i18n key with its parameters. `plain` keys are whole messages (errors.*). */
export interface Reason {
  key: string;
  params?: Record<string, string | number>;
  plain?: boolean;
}
export type Check = (value: string) => Reason | null;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const LOGIN_FORM = (v: string) => /^[A-Za-z0-9][A-Za-z0-9_]*$/.test(v) || EMAIL.test(v);

export const required: Check = (v) => v.trim() === "" ? { key: "validation.required" } : null;

/** Length of the trimmed value (the server trims before measuring). */
export const length = (min: number, max: number): Check => (v): Reason | null => {
  const n = v.trim().length;
  if (n < min) return { key: "validation.tooShort", params: { min } };
  if (n > max) return { key: "validation.tooLong", params: { max } };
  return null;
};

/** Length of the raw value (passwords are not trimmed). */
export const rawLength = (min: number, max: number): Check => (v): Reason | null => {
  if (v.length < min) return { key: "validation.tooShort", params: { min } };
  if (v.length > max) return { key: "validation.tooLong", params: { max } };
  return null;
};

/** Tests the trimmed value, as the server does for trimmed fields. */
export const pattern = (test: (v: string) => boolean, key: string): Check => (v) =>
  test(v.trim()) ? null : { key };

/** Tests the value as typed (fields the server does not trim). */
export const rawPattern = (test: (v: string) => boolean, key: string): Check => (v) =>
  test(v) ? null : { key };

/** Runs checks only when the value is not blank. */
export const optional = (...checks: Check[]): Check => (v) =>
  v.trim() === "" ? null : firstFailure(v, checks);

function firstFailure(v: string, checks: Check[]): Reason | null {
  for (const check of checks) {
    const r = check(v);
    if (r) return r;
  }
  return null;
}

export function isCalendarDate(v: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  if (!m || m[1] === "0000") return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
}

/** Spec §5 account rules, as in schemas.ts. */
export const RULES = {
  account: [required, length(3, 50), pattern(LOGIN_FORM, "validation.loginAccountForm")],
  virtualAccount: [required, length(5, 30), pattern(LOGIN_FORM, "validation.loginAccountForm")],
  nickName: [required, length(3, 25)],
  password: [
    required,
    rawLength(8, 50),
    rawPattern((v) => /[A-Za-z]/.test(v) && /[0-9]/.test(v), "validation.passwordForm"),
  ],
  email: [length(0, 100), optional(pattern((v) => EMAIL.test(v), "validation.format.email"))],
  phone: [length(0, 20), pattern((v) => /^[0-9+\-]*$/.test(v), "validation.phoneForm")],
  contact: [length(0, 100)],
  companyName: [length(0, 100)],
  description: [rawLength(0, 2000)],
  expiration: [optional(pattern(isCalendarDate, "validation.dateForm"))],
} satisfies Record<string, Check[]>;

/** The confirmation must repeat the password (server: errors.passwordMismatch). */
export const sameAs = (other: () => string): Check => (v) =>
  v === other() ? null : { key: "errors.passwordMismatch", plain: true };

/** The first failing check of every field; fields without a refusal are left out. */
export function validate<V extends Record<string, unknown>>(
  values: V,
  rules: Partial<Record<keyof V & string, Check[]>>,
): Record<string, Reason> {
  const out: Record<string, Reason> = {};
  for (const [field, checks] of Object.entries(rules) as [string, Check[] | undefined][]) {
    const r = firstFailure(String(values[field] ?? ""), checks ?? []);
    if (r) out[field] = r;
  }
  return out;
}

/** A reason as the server words it, a sentence naming the field: "Login account is required." */
export function describe(
  t: TFunction,
  label: string,
  reason: Reason,
): string {
  return reason.plain
    ? t(reason.key, reason.params ?? {})
    : refusalSentence(t, label, reason.key, reason.params ?? {});
}
