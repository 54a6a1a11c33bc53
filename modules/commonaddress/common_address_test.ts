/**
 * A device's common addresses: saved whole and listed with the default colour, at most 20
 * (the catalogue's refusal), each field checked, a device outside the caller's subtree
 * answered like an unknown IMEI, an empty list clears them.
 */
import assert from "node:assert/strict";
import { testApp } from "../../tests/helpers/harness.ts";
import { accountWithDevices } from "../../tests/helpers/alerting.ts";
import { CATALOGUE } from "../../lib/errors.ts";

const IMEI = "359710049770011";
const OTHER = "359710049770029";
const DEPOT = { addressName: "Depot", radius: 300, latitude: 22.5431, longitude: 114.0579 };

Deno.test("common addresses: save, list, limit, checks, isolation", async () => {
  const app = await testApp();
  try {
    const a = await accountWithDevices(app, "addr_a", [IMEI]);
    const b = await accountWithDevices(app, "addr_b", [OTHER]);
    const save = (imei: string, list: unknown[], token = a.token) =>
      app.call("/v3/new/device/commonAddress/save", { imei, commonAddressList: list }, token);

    const saved = await save(IMEI, [DEPOT, { ...DEPOT, addressName: "Home", color: "#ff8800" }]);
    assert.equal(saved.json.code, 10000, JSON.stringify(saved.json));
    const list = await app.call("/v3/new/device/commonAddress/list", { imei: IMEI }, a.token);
    assert.deepEqual(list.json.data.commonAddressList, [
      { ...DEPOT, color: "#3b7aff" },
      { ...DEPOT, addressName: "Home", color: "#ff8800" },
    ]);

    const tooMany = await save(
      IMEI,
      Array.from({ length: 21 }, (_, i) => ({
        ...DEPOT,
        addressName: `P${i}`,
      })),
    );
    assert.equal(tooMany.json.code, CATALOGUE.commonAddressLimit);
    assert.match(tooMany.json.msg, /20/);
    for (
      const bad of [
        { ...DEPOT, color: "blue" },
        { ...DEPOT, radius: 5 },
        { ...DEPOT, latitude: 91 },
        { ...DEPOT, addressName: "" },
      ]
    ) {
      assert.equal((await save(IMEI, [bad])).json.code, CATALOGUE.illegalParameter);
    }

    // B's device and an IMEI nobody has answer alike; nothing of A's changes.
    const foreign = await save(OTHER, [DEPOT]);
    const unknown = await save("359710049779999", [DEPOT]);
    assert.equal(foreign.json.code, unknown.json.code);
    assert.equal(
      foreign.json.msg.replace(OTHER, "?"),
      unknown.json.msg.replace("359710049779999", "?"),
    );
    const peek = await app.call("/v3/new/device/commonAddress/list", { imei: IMEI }, b.token);
    assert.notEqual(peek.json.code, 10000);

    assert.equal((await save(IMEI, [])).json.code, 10000);
    const empty = await app.call("/v3/new/device/commonAddress/list", { imei: IMEI }, a.token);
    assert.deepEqual(empty.json.data.commonAddressList, []);
  } finally {
    await app.close();
  }
});
