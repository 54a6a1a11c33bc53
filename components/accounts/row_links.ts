/**
 * Account-row actions that leave the account page: the row's devices in a new tab (/Devices
 * with the account, spec §2) and the account info export (xlsx, once every ten minutes).
 */
import { ApiError } from "../../lib/client/api.ts";
import { download } from "../devices/transfer_io.ts";
import { toast } from "../ui/Toast.tsx";
import type { AccountRow } from "./types.ts";

/** Opens the device page on the row's account in a new tab (it remembers the account). */
export function openDevices(row: AccountRow): void {
  const q = new URLSearchParams({ userId: row.id, parentId: row.parentId, nickName: row.nickName });
  open(`/Devices?${q}`, "_blank", "noopener");
}

/** Downloads the row's account info; the refusal (e.g. too soon) is shown as a toast. */
export async function exportInfo(row: AccountRow, done: string): Promise<void> {
  try {
    await download("/v3/new/accountInfo/export", { id: row.id });
    toast(done);
  } catch (e) {
    toast(e instanceof ApiError ? e.message : String(e), "error");
  }
}
