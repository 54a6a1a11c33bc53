import { BizError } from "../../lib/errors.ts";
import type { Session } from "../../lib/http/env.ts";
import { normalizeLang, translator } from "../../lib/i18n/i18n.ts";
import type { AccessGuard } from "../accounts/access.ts";
import type { AccountRecords } from "../accounts/model.ts";
import type { CodeStore } from "../notifications/codes.ts";
import type { Mailer } from "../notifications/mailer.ts";

const PURPOSE = "ownEmail";

/**
 * The user's own e-mail (/myProfile): a new address is set only with the six-digit code
 * mailed to it (modules/notifications/codes.ts: 10 minutes, one mail a minute, five tries).
 * Virtual accounts have no e-mail of their own to set.
 */
export class OwnEmail {
  constructor(
    private readonly d: {
      access: AccessGuard;
      accounts: Pick<AccountRecords, "get" | "update">;
      codes: CodeStore;
      mailer: Mailer;
    },
  ) {}

  async sendCode(session: Session, email: string): Promise<void> {
    const self = await this.self(session);
    if (email.toLowerCase() === self.email.toLowerCase()) {
      throw new BizError("emailUnchanged", {}, { field: "email" });
    }
    if (!this.d.mailer.enabled) throw new BizError("mailServerUnavailable");
    const code = await this.d.codes.issue(PURPOSE, self.id, email);
    const t = translator(normalizeLang(self.language));
    await this.d.mailer.send({
      to: email,
      subject: t("alerts.mail.codeSubject"),
      text: t("alerts.mail.codeText", { code, minutes: 10 }),
    });
  }

  /** Sets the address the code was mailed to; the code is used up. */
  async confirm(session: Session, email: string, code: string): Promise<{ email: string }> {
    const self = await this.self(session);
    if (!await this.d.codes.check(PURPOSE, self.id, email, code)) {
      throw new BizError("verificationCodeError", {}, { field: "code" });
    }
    const fresh = (await this.d.accounts.get(self.id))!;
    await this.d.accounts.update({ ...fresh, email, updatedAt: new Date().toISOString() });
    // The address is proven: alert mail to it needs no second code.
    await this.d.codes.markVerified(self.id, email);
    return { email };
  }

  private async self(session: Session) {
    const { self } = await this.d.access.caller(session);
    if (self.virtual) throw new BizError("permissionDenied");
    return self;
  }
}
