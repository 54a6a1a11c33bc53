import type { Context } from "hono";
import type { TFunction } from "i18next";
import { BizError, CATALOGUE } from "../errors.ts";
import type { AppEnv } from "./env.ts";
import { fieldLabel, refusalSentence } from "../i18n/refusal.ts";

export function ok(c: Context<AppEnv>, data: unknown) {
  return c.json({ code: CATALOGUE.success, msg: c.var.t("common.success"), data });
}

/** Renders a catalogue refusal in the caller's language. */
export function refusal(c: Context<AppEnv>, error: BizError) {
  const msg = refusalText(c.var.t, error);
  return c.json({ code: CATALOGUE[error.key], msg, data: error.data ?? null }, error.status);
}

/**
 * A refusal's message in the translator's language. An illegal parameter is a sentence
 * naming the field ("Login account is required."), not "Invalid value for …: required".
 */
export function refusalText(t: TFunction, error: BizError): string {
  const params: Record<string, string | number> = { ...error.params };
  if (error.key === "illegalParameter") {
    const { field, reasonKey, reason, ...rest } = params;
    const label = fieldLabel(t, String(field ?? "body"));
    if (typeof reasonKey === "string") return refusalSentence(t, label, reasonKey, rest);
    return reason
      ? t("errors.illegalParameter", { field: label, reason })
      : refusalSentence(t, label, "validation.invalid");
  }
  if (typeof params.reasonKey === "string") {
    params.reason = t(params.reasonKey, params);
    delete params.reasonKey;
  }
  return t(`errors.${error.key}`, params);
}
