/** Shapes of the device API as the page uses them; rows come from the service itself. */
import type { DeviceService } from "../../modules/devices/service.ts";
import type { DeviceOperations } from "../../modules/devices/operations.ts";
import type { Me as AccountMe } from "../accounts/types.ts";

export type DeviceRow = Awaited<ReturnType<DeviceService["present"]>>[number];
export type DeviceDetailData = Awaited<ReturnType<DeviceOperations["detail"]>>;
export type Stats = Awaited<ReturnType<DeviceOperations["statistics"]>>;

export interface GroupRow {
  id: string;
  name: string | null;
  isDefault: boolean;
  top: boolean;
  count: number;
}

export interface ModelInfo {
  mcType: string;
  name: string;
  protocol: string;
  alias?: string;
}

/** The account the page works on; kept in the URL so a new tab opens on it (spec §2). */
export interface SelectedAccount {
  id: string;
  account: string;
  nickName: string;
  accountType: number;
  parentId: string;
  fullParentId: string;
}

/** The caller as the /devices page hands it to the island. */
export interface Me extends Omit<AccountMe, "canModify"> {
  canEdit: boolean;
  canBindApp: boolean;
  isAdmin: boolean;
  /** May renew devices: the owner's rechargeFlag, never a virtual user (it spends money). */
  canRenew: boolean;
  /** May send instructions: the owner's sendCommandFlag, and a virtual user's instructionsFlag. */
  canCommand: boolean;
}

export interface Filters {
  keyword: string;
  status: string;
  /** From the statistics bar: online devices only. */
  online: boolean;
  mcType: string;
  groupId: string;
  expiryWithin: string;
  activation: string;
  enabled: string;
  bound: string;
  appBindable: string;
  followed: boolean;
  ownOnly: boolean;
  imeis: string;
  sim: string;
  activatedFrom: string;
  activatedTo: string;
}

export const EMPTY_FILTERS: Filters = {
  keyword: "",
  status: "",
  online: false,
  mcType: "",
  groupId: "",
  expiryWithin: "",
  activation: "",
  enabled: "",
  bound: "",
  appBindable: "",
  followed: false,
  ownOnly: false,
  imeis: "",
  sim: "",
  activatedFrom: "",
  activatedTo: "",
};

/** Turns the filter form into the list API's filter fields (empty ones left out). */
export function filterBody(f: Filters, userId: string): Record<string, unknown> {
  const body: Record<string, unknown> = { userId };
  const kw = f.keyword.trim();
  // Digits shorter than 5 are not an IMEI search yet (spec §5: 5 to 15 digits).
  if (kw && !(/^\d+$/.test(kw) && (kw.length < 5 || kw.length > 15))) body.keyword = kw;
  if (f.status) body.status = Number(f.status);
  if (f.online) body.online = true;
  if (f.mcType) body.mcType = f.mcType;
  if (f.groupId) body.groupId = f.groupId;
  if (f.expiryWithin) body.expiryWithin = Number(f.expiryWithin);
  if (f.activation) body.activation = f.activation;
  if (f.enabled) body.enabled = f.enabled === "true";
  if (f.bound) body.bound = f.bound === "true";
  if (f.appBindable) body.appBindable = f.appBindable === "true";
  if (f.followed) body.followed = true;
  if (f.ownOnly) body.ownOnly = true;
  const imeis = f.imeis.split(/[\s,;]+/).map((s) => s.trim()).filter(Boolean);
  if (imeis.length) body.imeis = imeis.slice(0, 1000);
  if (f.sim.trim()) body.sim = f.sim.trim();
  if (f.activatedFrom) body.activatedFrom = f.activatedFrom;
  if (f.activatedTo) body.activatedTo = f.activatedTo;
  return body;
}

export function formatTime(iso: string | null | undefined): string {
  if (!iso) return "-";
  const d = new Date(iso);
  if (isNaN(d.getTime())) return iso;
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${
    p(d.getMinutes())
  }`;
}

export const formatDate = (iso: string | null | undefined) => (iso ? iso.slice(0, 10) : "-");
