/**
 * The devices of a device-model selection: the account's own devices of that model, and its
 * sub-accounts' when asked, in IMEI order (so a cut at 200 is the same every run).
 */
import type { AccountLookup } from "../accounts/model.ts";
import type { DeviceDirectory } from "../devices/directory.ts";
import type { Device } from "../devices/model.ts";

export async function modelDevices(
  d: {
    directory: Pick<DeviceDirectory, "ownedBy">;
    accounts: Pick<AccountLookup, "subtree">;
  },
  accountId: string,
  mcType: string,
  includeSubAccounts: boolean,
): Promise<Device[]> {
  const ids = [accountId];
  if (includeSubAccounts) { for await (const a of d.accounts.subtree(accountId)) ids.push(a.id); }
  const wanted = mcType.toLowerCase();
  const out: Device[] = [];
  for (const id of ids) {
    for (const device of d.directory.ownedBy(id)) {
      if (device.mcType.toLowerCase() === wanted) out.push(device);
    }
  }
  return out.sort((a, b) => a.imei < b.imei ? -1 : a.imei > b.imei ? 1 : 0);
}
