/** Shapes the account API returns, and small pure helpers shared by the account components. */
import {
  ACCOUNT_TYPES,
  type AccountType,
  CREATABLE_TYPES,
  PERMISSION_FLAGS,
  type PermissionFlag,
} from "../../modules/accounts/model.ts";

export { ACCOUNT_TYPES, PERMISSION_FLAGS };
export type { PermissionFlag };
/** Row shapes come from the service itself, so client and server cannot drift apart. */
export type { AccountRow, TreeNode, VirtualRow } from "../../modules/accounts/service.ts";
import type { AccountRow, TreeNode } from "../../modules/accounts/service.ts";

/** The logged-in user as the /account page hands it to the island. */
export interface Me {
  id: string;
  account: string;
  nickName: string;
  accountType: number;
  isVirtual: boolean;
  canModify: boolean;
}

export interface AccountDetail extends AccountRow {
  companyName: string;
  description: string;
  permissions: Record<PermissionFlag, 0 | 1>;
}

export interface Page<T> {
  total: number;
  list: T[];
}

export interface VirtualScope {
  instructionsFlag: 0 | 1;
  updateFlag: 0 | 1;
  videoFlag: 0 | 1;
}
export const SCOPE_FLAGS = ["instructionsFlag", "updateFlag", "videoFlag"] as const;

/** The account a tree node or the superior picker stands for. */
export type AccountRef = Pick<TreeNode, "id" | "account" | "nickName" | "accountType">;

/** Display order of the account types in selects and filters. */
export const TYPE_ORDER = [0, 8, 11, 9, 12] as const;

/** Service nodes (spec §1): HK=1, EU=2, US=3, labelled by nodes.* keys. */
export const NODES = [[1, "hk"], [2, "eu"], [3, "us"]] as const;

function creatable(type: number): number[] {
  return (CREATABLE_TYPES as Record<number, AccountType[]>)[type] ?? [];
}

/**
 * Types the caller may create under `parentType`: both the caller and the superior must be
 * allowed to hold the type (as the server checks), in the display order.
 */
export function creatableTypes(callerType: number, parentType: number): number[] {
  const byCaller = creatable(callerType);
  const byParent = creatable(parentType);
  return TYPE_ORDER.filter((t) =>
    byCaller.includes(t as AccountType) && byParent.includes(t as AccountType)
  );
}

/** True when the caller's own type lets it create any account (end users cannot). */
export const canCreateAccounts = (callerType: number) => creatable(callerType).length > 0;

/** Types a sub-account may be switched to in the edit dialog: the creatable ones plus its own. */
export function editableTypes(callerType: number, current: number): number[] {
  const allowed = creatable(callerType);
  return TYPE_ORDER.filter((t) => t === current || allowed.includes(t as AccountType));
}

/** "2024-05-01T08:30:00.000Z" → "2024-05-01 16:30" in the browser's time zone. */
export function formatDateTime(iso: string): string {
  const d = new Date(iso);
  if (isNaN(d.getTime())) return iso;
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${
    p(d.getMinutes())
  }`;
}
