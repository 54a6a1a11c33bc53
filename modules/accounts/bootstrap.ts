import { generatePassword, passwordHashes } from "../auth/password.ts";
import { type Account, ALL_PERMISSIONS, DEFAULT_UNITS } from "./model.ts";
import type { AccountStore } from "./store.ts";

export const ADMIN_LOGIN = "admin";

/**
 * Creates the `admin` administrator on first start. Returns the password only when it was
 * generated here, so the caller can print it once.
 */
export async function ensureAdministrator(
  store: AccountStore,
  configuredPassword?: string,
): Promise<{ created: boolean; generatedPassword?: string }> {
  if (await store.findIdByLogin(ADMIN_LOGIN)) return { created: false };
  const password = configuredPassword ?? generatePassword();
  const now = new Date().toISOString();
  const admin: Account = {
    id: await store.newId(),
    account: ADMIN_LOGIN,
    nickName: "Administrator",
    accountType: 0,
    parentId: "",
    fullParentId: "",
    nodeId: 1,
    contact: "",
    phone: "",
    email: "",
    companyName: "",
    timeZones: "UTC",
    language: "en",
    country: "",
    description: "",
    googleMapKey: "",
    shareGoogleMapKey: 0,
    discount: 1,
    expiration: null,
    coinNumber: 0,
    rechargeCards: 0,
    credits: 50,
    permissions: { ...ALL_PERMISSIONS },
    units: { ...DEFAULT_UNITS },
    userMapType: "OpenStreetMap",
    alarmSoundFlag: 0,
    ...await passwordHashes(password),
    virtual: null,
    createdAt: now,
    updatedAt: now,
    sessionVersion: 1,
  };
  const created = await store.insert(admin);
  return created && !configuredPassword ? { created, generatedPassword: password } : { created };
}
