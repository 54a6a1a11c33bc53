import type { Context } from "hono";
import { BizError, CATALOGUE } from "../errors.ts";
import type { AppEnv } from "./env.ts";

export function ok(c: Context<AppEnv>, data: unknown) {
  return c.json({ code: CATALOGUE.success, msg: c.var.t("common.success"), data });
}

/** Renders a catalogue refusal in the caller's language. */
export function refusal(c: Context<AppEnv>, error: BizError) {
  const t = c.var.t;
  const params: Record<string, string | number> = { ...error.params };
  if (typeof params.reasonKey === "string") {
    params.reason = t(params.reasonKey, params);
    delete params.reasonKey;
  }
  const msg = t(`errors.${error.key}`, params);
  return c.json({ code: CATALOGUE[error.key], msg, data: error.data ?? null }, error.status);
}
