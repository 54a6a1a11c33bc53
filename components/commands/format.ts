import type { TFunction } from "i18next";
export { formatDateTime } from "../accounts/types.ts";

/** Replies stored as catalogue error names (refusals) are shown translated. */
export function replyText(t: TFunction, reply: string | null): string {
  if (!reply) return "—";
  return /^[a-z][A-Za-z]+$/.test(reply) && t(`errors.${reply}`) !== `errors.${reply}`
    ? t(`errors.${reply}`)
    : reply;
}

export function instructionName(t: TFunction, name: string | null): string {
  return t(`commands.instructions.${name ?? "raw"}`);
}

/** Statuses still moving: the pages poll while any row is in one. */
export const LIVE_STATUSES = new Set(["toBeSent", "sending"]);

/** A validation reason (validation.* are sentence fragments) as a message under a field. */
export function fieldMsg(t: TFunction, key: string, opts: Record<string, unknown> = {}): string {
  const s = String(t(key, opts));
  return s.charAt(0).toUpperCase() + s.slice(1);
}
