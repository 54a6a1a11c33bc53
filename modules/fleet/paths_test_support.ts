/** Accounts and devices for the route-planning tests. */
import type { TestApp } from "../../tests/helpers/harness.ts";

export const PASSWORD = "Passw0rd11";

/** Creates an account of `accountType` under admin (or `parentToken`'s account) with GT06 devices. */
export async function fleetAccount(
  app: TestApp,
  account: string,
  accountType: number,
  imeis: string[] = [],
) {
  const admin = await app.adminToken();
  const adminId = (await app.services.accountStore.findIdByLogin("admin"))!;
  const created = await app.call("/v3/new/account/add", {
    account,
    nickName: account,
    password: PASSWORD,
    accountType,
    parentId: adminId,
  }, admin);
  if (created.json.code !== 10000) throw new Error(JSON.stringify(created.json));
  const id = created.json.data.id as string;
  if (imeis.length) {
    const r = await app.call("/v3/new/newEquipment/importEquipment", {
      userId: id,
      mcType: "GT06N",
      imeis,
    }, admin);
    if (r.json.data?.succeeded !== imeis.length) throw new Error(JSON.stringify(r.json));
  }
  return { id, token: await app.login(account, PASSWORD), admin };
}

/** A point `eastM` metres east and `northM` metres north of (lat, lng). */
export function offsetPoint(lat: number, lng: number, eastM: number, northM = 0) {
  const dLat = northM / 111_195;
  const dLng = eastM / (111_195 * Math.cos((lat * Math.PI) / 180));
  return { lat: lat + dLat, lng: lng + dLng };
}
