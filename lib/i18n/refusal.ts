/**
 * Illegal-parameter refusals as sentences ("Login account is required."), shared by the
 * server (lib/http/respond.ts) and the browser forms (components/accounts/validate.ts), so a
 * message reads the same whichever side refuses. Pure: takes the translator it is given.
 */

import type { TFunction } from "i18next";

type T = TFunction;

/**
 * The sentence for a validation reason (`validation.<kind>` with its parameters) about a
 * field (a label, or a request field name: see fieldLabel). Kinds without a sentence of
 * their own (format descriptions such as validation.imeiForm) read "<field> is not valid
 * (<reason>)."
 */
export function refusalSentence(
  t: T,
  field: string,
  reasonKey: string,
  params: Record<string, unknown> = {},
): string {
  const kind = reasonKey.startsWith("validation.") ? reasonKey.slice("validation.".length) : "";
  const sentenceKey = `validation.sentence.${kind}`;
  const sentence = kind ? t(sentenceKey, { ...params, field }) : sentenceKey;
  if (sentence !== sentenceKey) return sentence;
  const reason = t(reasonKey, params);
  // A reason without a text of its own (a zod format not in the locales): just "not valid".
  if (reason === reasonKey) return t("validation.sentence.invalid", { field });
  return t("errors.illegalParameter", { ...params, field, reason });
}

/**
 * A request field path as people read it: a known field's label (validation.fields.*),
 * else its last name in words ("params.seconds" → "Seconds", "deviceName" → "Device name").
 */
export function fieldLabel(t: T, path: string): string {
  const parts = path.split(".").filter((p) => p && !/^\d+$/.test(p));
  const name = parts[parts.length - 1] ?? path;
  const key = `validation.fields.${name}`;
  const known = t(key);
  if (known !== key) return known;
  const words = name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
