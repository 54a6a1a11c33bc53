/**
 * Who may send commands (spec §6): single sends need the owner account's command-sending
 * flag, batches its isBatchSendIns flag; a virtual user additionally needs its
 * instructionsFlag. Sensitive instructions on some models are confirmed with the login
 * password.
 */
import { BizError } from "../../lib/errors.ts";
import type { Account } from "../accounts/model.ts";
import type { AccessGuard } from "../accounts/access.ts";
import type { Session } from "../../lib/http/env.ts";
import type { PasswordChecks } from "../auth/confirm.ts";

export function assertMaySend(self: Account, owner: Account, batch: boolean): void {
  if (self.virtual && self.virtual.scope.instructionsFlag !== 1) {
    throw new BizError(batch ? "batchSendNotAllowed" : "permissionDenied");
  }
  if (batch) {
    if (owner.permissions.isBatchSendIns !== 1) throw new BizError("batchSendNotAllowed");
  } else if (owner.permissions.sendCommandFlag !== 1) {
    throw new BizError("permissionDenied");
  }
}

/**
 * Saving and deleting command and working-mode templates is "modify command" (spec §3
 * per-account permission modifyCommandFlag); a virtual user also needs instructionsFlag.
 */
export function assertMayModify(self: Account, owner: Account): void {
  if (owner.permissions.modifyCommandFlag !== 1) throw new BizError("permissionDenied");
  if (self.virtual && self.virtual.scope.instructionsFlag !== 1) {
    throw new BizError("permissionDenied");
  }
}

/** The caller, allowed to change command and working-mode templates. */
export async function templateEditor(access: AccessGuard, session: Session) {
  const { self, owner } = await access.caller(session);
  assertMayModify(self, owner);
  return { self, owner };
}

/**
 * Checks the login password of whoever is signed in (the virtual user itself, if one),
 * counted per account before it is verified (passwordTooManyTries past the limit), so a
 * stolen session cannot guess the password through command confirmations.
 */
export async function assertCommandPassword(
  checks: PasswordChecks,
  self: Account,
  password: string | undefined,
) {
  if (!password || !(await checks.verify(self, password))) {
    throw new BizError("commandPasswordIncorrect");
  }
}
