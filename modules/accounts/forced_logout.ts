import { BizError } from "../../lib/errors.ts";
import type { Session } from "../../lib/http/env.ts";
import type { AuthService } from "../auth/service.ts";
import type { AccessGuard } from "./access.ts";

/** Ending every session of an account strictly below the caller. */
export class ForcedLogout {
  constructor(private readonly access: AccessGuard, private readonly auth: AuthService) {}

  /** The number of sessions ended. */
  async of(session: Session, accountId: string): Promise<number> {
    const target = await this.access.visibleAccount(session, accountId, { strictlyBelow: true });
    // Virtual accounts are managed by their master, not by one another.
    if (session.isVirtual && target.virtual) throw new BizError("permissionDenied");
    return await this.auth.forceLogout(target.id);
  }
}
