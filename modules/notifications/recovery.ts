import { BizError } from "../../lib/errors.ts";
import { normalizeLang, translator } from "../../lib/i18n/i18n.ts";
import type { AccountService } from "../accounts/service.ts";
import type { CodeStore } from "./codes.ts";
import type { Mailer } from "./mailer.ts";

const PURPOSE = "passwordRecovery";

/**
 * Password recovery on the login page: a code mailed to the account's email, then a new
 * password with that code. Throttled by the code store (one mail a minute, five tries).
 * Unknown accounts get the same answer as known ones without an email, so logins cannot
 * be probed beyond what "email not set" already tells.
 */
export class PasswordRecovery {
  constructor(
    private readonly d: {
      /** Finds the account and sets its password (the password rule, sessions ended). */
      accounts: Pick<AccountService, "byLogin" | "recoverPassword">;
      codes: CodeStore;
      mailer: Mailer;
    },
  ) {}

  async sendCode(login: string): Promise<{ email: string }> {
    const account = await this.d.accounts.byLogin(login);
    if (!account || !account.email || account.virtual) throw new BizError("emailNotSet");
    const code = await this.d.codes.issue(PURPOSE, account.id, account.email);
    const t = translator(normalizeLang(account.language));
    await this.d.mailer.send({
      to: account.email,
      subject: t("alerts.recovery.subject"),
      text: t("alerts.recovery.text", { code, account: account.account, minutes: 10 }),
    });
    return { email: maskEmail(account.email) };
  }

  async reset(login: string, code: string, password: string): Promise<void> {
    const account = await this.d.accounts.byLogin(login);
    if (!account || !account.email) throw new BizError("verificationCodeNotSent");
    if (!await this.d.codes.check(PURPOSE, account.id, account.email, code)) {
      throw new BizError("verificationCodeError");
    }
    await this.d.accounts.recoverPassword(account, password);
  }
}

/** "jane.doe@example.com" → "ja***@example.com": tells the user where to look, not the address. */
export function maskEmail(email: string): string {
  const [name, domain] = email.split("@");
  return `${name.slice(0, 2)}***@${domain}`;
}
