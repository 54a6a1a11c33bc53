/** Numeric account types (issue #2): the spec's non-enterprise types are 0, 8, 10, 11, 12. */
export const ACCOUNT_TYPES = {
  administrator: 0,
  distributor: 8,
  enterprise: 9,
  sales: 11,
  endUser: 12,
} as const;
export type AccountType = typeof ACCOUNT_TYPES[keyof typeof ACCOUNT_TYPES];
export const ACCOUNT_TYPE_VALUES = Object.values(ACCOUNT_TYPES) as AccountType[];

/** Which types an account of a given type may create below itself (docs/decisions.md). */
export const CREATABLE_TYPES: Record<AccountType, AccountType[]> = {
  0: [8, 11, 9, 12],
  8: [8, 11, 9, 12],
  11: [9, 12],
  9: [9, 12],
  12: [],
};

/** Spec §3 per-account permissions; each flag is 1 (allowed) or 0. */
export const PERMISSION_FLAGS = [
  "webLogin",
  "appLogin",
  "updateDevFlag",
  "appUpdateDevFlag",
  "sendCommandFlag",
  "isBatchSendIns",
  "isBatchSendFm",
  "modifyCommandFlag",
  "modifyDataFlag",
  "viewReportFlag",
  "rechargeFlag",
  "bindAppFlag",
  "videoFlag",
] as const;
export type PermissionFlag = typeof PERMISSION_FLAGS[number];
export type Permissions = Record<PermissionFlag, 0 | 1>;

export const ALL_PERMISSIONS: Permissions = Object.fromEntries(
  PERMISSION_FLAGS.map((f) => [f, 1]),
) as Permissions;

/** A virtual account's authority scope (spec §3). */
export interface VirtualScope {
  instructionsFlag: 0 | 1;
  updateFlag: 0 | 1;
  videoFlag: 0 | 1;
}

export interface Units {
  capacity: "L" | "GAL";
  showUnit: "km" | "mi" | "nmi";
  speed: "km/h" | "mph" | "knot";
  temperature: "°C" | "°F";
}

export const DEFAULT_UNITS: Units = {
  capacity: "L",
  showUnit: "km",
  speed: "km/h",
  temperature: "°C",
};

export interface Account {
  id: string;
  /** Login account, unique case-insensitively. */
  account: string;
  nickName: string;
  accountType: AccountType;
  /** "" for the root administrator. */
  parentId: string;
  /** Ancestor ids from the root, comma-framed (",1,5,") so a subtree test is one `includes`. */
  fullParentId: string;
  nodeId: number;
  contact: string;
  phone: string;
  email: string;
  companyName: string;
  timeZones: string;
  language: string;
  country: string;
  description: string;
  googleMapKey: string;
  /** Lets sub-accounts use this account's maps key. */
  shareGoogleMapKey: 0 | 1;
  discount: number;
  /** ISO date (YYYY-MM-DD) or null for no expiry. */
  expiration: string | null;
  coinNumber: number;
  rechargeCards: number;
  credits: number;
  permissions: Permissions;
  units: Units;
  userMapType: string;
  alarmSoundFlag: 0 | 1;
  passwordHash: string;
  /**
   * scrypt of the password's lower-case MD5 hex, for the Open API's token.get (issue 22);
   * written whenever the password is set or a login succeeds; absent on older accounts until then.
   */
  passwordMd5Hash?: string;
  /** Set for virtual (fictitious) accounts: they work under masterId's subtree. */
  virtual: { masterId: string; scope: VirtualScope; expiration: string | null } | null;
  createdAt: string;
  updatedAt: string;
  /** Bumped on password change and forced logout; tokens carry it and older ones are refused. */
  sessionVersion: number;
}

/** The fields the API returns: never the password hash. */
export type PublicAccount = Omit<Account, "passwordHash" | "passwordMd5Hash" | "sessionVersion">;

export function toPublic(a: Account): PublicAccount {
  const { passwordHash: _p, passwordMd5Hash: _m, sessionVersion: _s, ...rest } = a;
  return rest;
}

export function isDescendantOrSelf(
  account: Pick<Account, "id" | "fullParentId">,
  ancestorId: string,
) {
  return account.id === ancestorId || account.fullParentId.includes(`,${ancestorId},`);
}

export function childPath(parent: Pick<Account, "id" | "fullParentId">): string {
  return `${parent.fullParentId || ","}${parent.id},`;
}

/** Summary kept in the subtree index so searches need not load every record. */
export interface AccountSummary {
  account: string;
  nickName: string;
  accountType: number;
  parentId: string;
  nodeId: number;
}

/**
 * What other modules read of accounts (a port: AccountStore implements it, so no module
 * imports the accounts store itself).
 */
/** Writes the MD5 verifier after a login proved the password (the auth area; issue 22). */
export interface Md5VerifierWriter {
  /** Only while the account's password is still `passwordHash`; false otherwise. */
  setMd5Verifier(id: string, passwordHash: string, verifier: string): Promise<boolean>;
}

export interface AccountLookup {
  get(id: string): Promise<Account | null>;
  getMany(ids: string[]): Promise<Account[]>;
  findIdByLogin(login: string): Promise<string | null>;
  /** Every account below one, with its summary. */
  subtree(ancestorId: string): AsyncGenerator<{ id: string; summary: AccountSummary }>;
  virtualIds(masterId: string): Promise<string[]>;
}

/**
 * The writes other modules make to account records: the wallet keeps the balance copy an
 * account carries, device transfers hold the transfer lock accounts moves also take.
 */
export interface AccountRecords extends AccountLookup {
  update(a: Account): Promise<boolean>;
  acquireTransferLock(owner: string, ttlMs?: number): Promise<boolean>;
  releaseTransferLock(): Promise<void>;
}
