import type { Session } from "../../lib/http/env.ts";
import type { AccessGuard } from "../accounts/access.ts";
import type { AlertDelivery, PushedAlert } from "./delivery.ts";
import type { AlertSettingsStore } from "./settings.ts";

/**
 * The console pop-up feed: pushed alerts of devices in the caller's subtree, of the types the
 * real account subscribed, while its pop-up is on; with the account's sound setting.
 */
export class AlertPopups {
  constructor(
    private readonly access: AccessGuard,
    private readonly settings: AlertSettingsStore,
    private readonly delivery: AlertDelivery,
  ) {}

  /** Alerts after sequence number `after` (none without it: only the current number). */
  async since(session: Session, after?: number) {
    const { owner } = await this.access.caller(session);
    const mine = this.settings.account(owner.id);
    const visible = (a: PushedAlert) =>
      a.path.includes(`,${owner.id},`) && mine.popup && mine.pushTypes.includes(a.type);
    const found = this.delivery.popupsSince(after ?? Infinity, visible);
    return { seq: found.seq, sound: mine.sound, list: found.list };
  }
}
