import type { TestApp } from "./harness.ts";

export const PASSWORD = "Passw0rd11";

/** Creates a distributor under admin with some GT06 devices; returns its id, token and IMEIs. */
export async function accountWithDevices(app: TestApp, account: string, imeis: string[]) {
  const admin = await app.adminToken();
  const adminId = (await app.services.accountStore.findIdByLogin("admin"))!;
  const created = await app.call("/v3/new/account/add", {
    account,
    nickName: account,
    password: PASSWORD,
    accountType: 8,
    parentId: adminId,
  }, admin);
  if (created.json.code !== 10000) throw new Error(JSON.stringify(created.json));
  const id = created.json.data.id as string;
  const token = await app.login(account, PASSWORD);
  if (imeis.length) {
    const r = await app.call("/v3/new/newEquipment/importEquipment", {
      userId: id,
      mcType: "GT06N",
      imeis,
    }, token);
    if (r.json.data?.succeeded !== imeis.length) throw new Error(JSON.stringify(r.json));
  }
  return { id, token, admin };
}

/** A circle fence body around a point. */
export function circleFence(name: string, lat: number, lng: number, radius = 500) {
  return {
    kind: "fence",
    name,
    shape: { kind: "circle", center: { lat, lng }, radius },
    enterAlert: true,
    exitAlert: true,
  };
}

/** A closed square polygon of about `half` metres half-width around a point. */
export function squarePolygon(lat: number, lng: number, half = 500) {
  const dLat = half / 111_195, dLng = dLat / Math.cos((lat * Math.PI) / 180);
  return [
    { lat: lat - dLat, lng: lng - dLng },
    { lat: lat - dLat, lng: lng + dLng },
    { lat: lat + dLat, lng: lng + dLng },
    { lat: lat + dLat, lng: lng - dLng },
    { lat: lat - dLat, lng: lng - dLng },
  ];
}
