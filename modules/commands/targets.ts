import type { Session } from "../../lib/http/env.ts";
import type { Device } from "../devices/model.ts";
import type { AccessGuard } from "../accounts/access.ts";
import type { AccountLookup } from "../accounts/model.ts";
import type { DeviceDirectory } from "../devices/directory.ts";

/** The services these routes use (the composition root passes them). */
export interface TargetDeps {
  access: AccessGuard;
  accountStore: AccountLookup;
  directory: DeviceDirectory;
}

/**
 * The devices of a batch the caller may command, and the IMEIs refused (unknown or outside
 * the caller's subtree — one reason for both, so IMEIs cannot be probed). Visibility is
 * decided once per owner account through AccessGuard, not once per device.
 */
export async function batchTargets(
  s: TargetDeps,
  session: Session,
  imeis: string[],
): Promise<{ devices: Device[]; rejected: { imei: string; reason: string }[] }> {
  const { owner } = await s.access.caller(session);
  const visibleOwner = new Map<string, boolean>();
  const devices: Device[] = [];
  const rejected: { imei: string; reason: string }[] = [];
  for (const imei of new Set(imeis)) {
    const d = s.directory.get(imei);
    let ok = d ? visibleOwner.get(d.userId) : false;
    if (d && ok === undefined) {
      const account = await s.accountStore.get(d.userId);
      ok = !!account && s.access.isVisible(owner, account);
      visibleOwner.set(d.userId, ok);
    }
    if (d && ok) devices.push(d);
    else rejected.push({ imei, reason: "deviceNoPermission" });
  }
  return { devices, rejected };
}
