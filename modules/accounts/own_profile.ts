import type { z } from "zod";
import type { Session } from "../../lib/http/env.ts";
import type { AlertSettingsStore } from "../alerts/settings.ts";
import type { AccessGuard } from "./access.ts";
import type * as S from "./schemas.ts";
import type { AccountService } from "./service.ts";

/**
 * Saving the caller's own profile page: the account fields and units go to the accounts
 * service; the alarm sound is one setting kept with the alert push settings of the real
 * account, so changing it there needs the same right as saving those settings.
 */
export class OwnProfile {
  constructor(
    private readonly access: AccessGuard,
    private readonly accounts: AccountService,
    private readonly alertSettings: AlertSettingsStore,
  ) {}

  async update(session: Session, body: z.infer<typeof S.updateProfileBody>): Promise<void> {
    const { alarmSoundFlag, ...profile } = body;
    if (alarmSoundFlag !== undefined) {
      await this.access.assertNeed(session, "editData");
      const { owner } = await this.access.caller(session);
      const current = this.alertSettings.account(owner.id);
      await this.alertSettings.saveAccount(owner.id, { ...current, sound: alarmSoundFlag === 1 });
    }
    await this.accounts.updateProfile(session, profile);
  }
}
