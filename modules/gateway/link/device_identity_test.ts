/**
 * JT/T 808 auth codes and the life of a device record: a code issued before the device's
 * record was created (an IMEI imported anew) never authenticates, and importing an IMEI
 * deletes any code it had. Real KV files in temp folders.
 */
import assert from "node:assert/strict";
import { testApp } from "../../../tests/helpers/harness.ts";
import { DeviceIdentity } from "./device_identity.ts";
import { type AuthCode, GatewayStore } from "./store.ts";
import { openTestKv } from "../../../tests/helpers/test_kv.ts";

const STALE_IMEI = "359710049000201";
const LIVE_IMEI = "359710049000202";
const codeKey = (imei: string) => ["gateway", "jt808Code", imei];

Deno.test("DeviceIdentity.verify: only a code issued since the device record was created", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tp-identity-" });
  const kv = await openTestKv(`${dir}/tracking.kv`);
  try {
    const identity = new DeviceIdentity(new GatewayStore(kv), "strict", 60_000);
    const imported = { imei: STALE_IMEI, createdAt: new Date(Date.now() - 60_000).toISOString() };
    const code = await identity.issue(STALE_IMEI, "127.0.0.1:1");
    assert.equal(await identity.verify(imported, code), true);
    assert.equal(await identity.verify(imported, code.toLowerCase()), false, "another text");
    // The same IMEI imported anew after the code was issued: the code belongs to its old life.
    const reimported = { imei: STALE_IMEI, createdAt: new Date(Date.now() + 1).toISOString() };
    assert.equal(await identity.verify(reimported, code), false);
  } finally {
    kv.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("importing an IMEI deletes its old JT/T 808 auth code; a failed import keeps a live one", async () => {
  const app = await testApp();
  try {
    const kv = app.services.kv;
    const stale: AuthCode = { code: "OLDCODEOLDCODE22", issuedAt: 1, remote: "192.0.2.1:5000" };
    await kv.set(codeKey(STALE_IMEI), stale);
    const admin = await app.adminToken();
    const userId = (await app.services.accountStore.findIdByLogin("admin"))!;
    const importImeis = async (imeis: string[]) =>
      (await app.call("/v3/new/newEquipment/importEquipment", {
        userId,
        mcType: "GT06N",
        imeis,
      }, admin)).json.data as { succeeded: number };

    assert.equal((await importImeis([STALE_IMEI, LIVE_IMEI])).succeeded, 2);
    assert.equal((await kv.get(codeKey(STALE_IMEI))).value, null, "the old code is gone");

    // A device that exists keeps the code its terminal holds: importing it again fails.
    const live: AuthCode = { code: "LIVECODELIVECODE", issuedAt: Date.now(), remote: "x" };
    await kv.set(codeKey(LIVE_IMEI), live);
    assert.equal((await importImeis([LIVE_IMEI])).succeeded, 0);
    assert.deepEqual((await kv.get(codeKey(LIVE_IMEI))).value, live);
  } finally {
    await app.close();
  }
});
