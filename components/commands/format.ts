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
