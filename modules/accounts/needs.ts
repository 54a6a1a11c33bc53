/**
 * The one table from a route's need (lib/http/api.ts `Need`) to the flags that grant it
 * (spec console §3 per-account permissions and the virtual authority scope, §6 roles). The
 * shared guard (AccessGuard.assertNeed) applies it to every API route, real and virtual
 * callers alike; modules keep only finer rules (batch vs single, administrator-only, ...).
 *
 * Permission flags are the owner's (a virtual account works with its master's account); a
 * virtual account additionally needs the scope flag that covers the need, and is refused
 * every need its scope does not name.
 */
import type { ErrorName } from "../../lib/errors.ts";
import type { Need } from "../../lib/http/api.ts";
import { type Account, CREATABLE_TYPES, type PermissionFlag, type VirtualScope } from "./model.ts";

interface Rule {
  /** Owner permission flags that must all be 1. */
  flags: PermissionFlag[];
  /**
   * The scope flag a virtual account needs on top; "inherit" lets a virtual account have the
   * need whenever its master has (reading needs), "never" refuses every virtual account.
   */
  scope: keyof VirtualScope | "inherit" | "never";
  /** The refusal: a route's existing, more specific catalogue error where one exists. */
  refusal: ErrorName;
}

/**
 * Which flags grant each need. editData uses the web flag (updateDevFlag): the platform has no
 * app client marker yet, so every API call counts as the web console's (docs/decisions.md).
 */
export const NEED_RULES: Record<Exclude<Need, "public" | "read" | "self">, Rule> = {
  editData: { flags: ["updateDevFlag"], scope: "updateFlag", refusal: "permissionDenied" },
  sendCommands: {
    flags: ["sendCommandFlag"],
    scope: "instructionsFlag",
    refusal: "permissionDenied",
  },
  batchSendCommands: {
    flags: ["isBatchSendIns"],
    scope: "instructionsFlag",
    refusal: "batchSendNotAllowed",
  },
  batchWorkMode: {
    flags: ["sendCommandFlag", "isBatchSendFm"],
    scope: "instructionsFlag",
    refusal: "batchSendNotAllowed",
  },
  modifyCommands: {
    flags: ["modifyCommandFlag"],
    scope: "instructionsFlag",
    refusal: "permissionDenied",
  },
  viewReports: { flags: ["viewReportFlag"], scope: "inherit", refusal: "permissionDenied" },
  video: { flags: ["videoFlag"], scope: "videoFlag", refusal: "permissionDenied" },
  recharge: { flags: ["rechargeFlag"], scope: "never", refusal: "permissionDenied" },
  bindApp: { flags: ["bindAppFlag"], scope: "updateFlag", refusal: "permissionDenied" },
  manageAccounts: { flags: [], scope: "never", refusal: "permissionDenied" },
  manageVirtual: { flags: [], scope: "never", refusal: "permissionDenied" },
};

/**
 * Why the caller lacks the need, as a catalogue error name, or null when it has it.
 * `self` is the logged-in account (a virtual one, if so), `owner` the account it works as.
 */
export function needRefusal(need: Need, self: Account, owner: Account): ErrorName | null {
  if (need === "public" || need === "read" || need === "self") return null;
  const rule = NEED_RULES[need];
  // Batch working mode: without single sending it is the single-send refusal (as before).
  if (need === "batchWorkMode" && owner.permissions.sendCommandFlag !== 1) {
    return "permissionDenied";
  }
  if (self.virtual) {
    if (rule.scope === "never") return rule.refusal;
    if (rule.scope !== "inherit" && self.virtual.scope[rule.scope] !== 1) {
      // Without instructionsFlag even batch working mode is the single-send refusal.
      return need === "batchWorkMode" ? "permissionDenied" : rule.refusal;
    }
  }
  if (rule.flags.some((f) => owner.permissions[f] !== 1)) return rule.refusal;
  if (need === "manageAccounts" && (CREATABLE_TYPES[owner.accountType] ?? []).length === 0) {
    return "endUserCannotCreate";
  }
  return null;
}

/**
 * What each Open API key scope covers (issue 22): read (reading needs), commands (the
 * sendCommands family), manage (editData and manageAccounts and their kin). `self` (own
 * password, profile, keys) and `recharge` are in no scope: a key never changes its own
 * account's login nor spends its money.
 */
export const SCOPE_NEEDS: Record<"read" | "commands" | "manage", readonly Need[]> = {
  read: ["read", "viewReports", "video"],
  commands: ["sendCommands", "batchSendCommands", "batchWorkMode", "modifyCommands"],
  manage: ["editData", "manageAccounts", "manageVirtual", "bindApp"],
};

/** Whether a key's scope covers a need (no scope: a login session, every need; public: any). */
export function scopeCovers(
  scope: readonly ("read" | "commands" | "manage")[] | undefined,
  need: Need,
): boolean {
  return !scope || need === "public" || scope.some((s) => SCOPE_NEEDS[s]?.includes(need));
}
