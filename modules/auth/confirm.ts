import { BizError } from "../../lib/errors.ts";
import type { Account } from "../accounts/model.ts";
import { verifyPassword } from "./password.ts";
import type { AuthStore, PasswordCheckLimits } from "./store.ts";

/**
 * Checks of a signed-in account's own password (the old password when changing it, the
 * confirmation of a protected command): at most 5 per account in 15 minutes (issue 14). A
 * stolen session, or a virtual user, must not be able to guess the password through them
 * faster than through the login form.
 */
export const PASSWORD_CHECK_LIMITS: PasswordCheckLimits = { max: 5, windowMs: 15 * 60_000 };

/**
 * Verifies the password of a signed-in account, counted per account BEFORE the KDF runs, so a
 * burst of parallel guesses cannot exceed the limit. Past it the check is refused unverified
 * ("passwordTooManyTries") until the window ends, even with the right password; the right
 * password within the limit starts the count again. One counter per account serves every
 * kind of check, so guesses cannot be spread over several forms.
 */
export class PasswordChecks {
  constructor(
    private readonly store: AuthStore,
    private readonly limits: PasswordCheckLimits = PASSWORD_CHECK_LIMITS,
  ) {}

  /** Whether `password` is the account's; throws passwordTooManyTries past the limit. */
  async verify(account: Account, password: string): Promise<boolean> {
    if (!await this.store.countPasswordCheck(account.id, this.limits)) {
      throw new BizError("passwordTooManyTries", {
        minutes: Math.ceil(this.limits.windowMs / 60_000),
      });
    }
    const valid = await verifyPassword(password, account.passwordHash);
    if (valid) await this.store.clearPasswordChecks(account.id);
    return valid;
  }
}
