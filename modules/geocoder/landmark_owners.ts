import type { Session } from "../../lib/http/env.ts";
import type { AccessGuard } from "../accounts/access.ts";
import type { DeviceService } from "../devices/service.ts";

/** Whose landmarks name a point: the account asked for (if visible), and a point's device owner. */
export class LandmarkOwners {
  constructor(private readonly access: AccessGuard, private readonly devices: DeviceService) {}

  /** The account whose landmarks apply: a visible one asked for, else the caller's own. */
  async account(session: Session, userId?: string): Promise<string> {
    if (userId) return (await this.access.visibleAccount(session, userId)).id;
    return (await this.access.caller(session)).owner.id;
  }

  /** Each point's landmark owners: its device's owner (when visible), then the account. */
  async ofPoints(
    session: Session,
    points: { imei?: string }[],
    userId?: string,
  ): Promise<string[][]> {
    const account = await this.account(session, userId);
    const imeis = [...new Set(points.flatMap((p) => p.imei ? [p.imei] : []))];
    const { devices } = imeis.length
      ? await this.devices.visibleOrRefused(session, imeis)
      : { devices: [] };
    const ownerOf = new Map(devices.map((d) => [d.imei, d.userId]));
    return points.map((p) => {
      const owner = p.imei ? ownerOf.get(p.imei) : undefined;
      return owner && owner !== account ? [owner, account] : [account];
    });
  }
}
