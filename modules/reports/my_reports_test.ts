/** The user's own report list (POST /v3/new/report/myReports/get|set) on a real KV file. */
import assert from "node:assert/strict";
import { testApp } from "../../tests/helpers/harness.ts";
import {
  addAccount,
  addVirtual,
  assertCode,
  assertOk,
  PASSWORD,
  whoAmI,
} from "../accounts/test_support.ts";

const GET = "/v3/new/report/myReports/get";
const SET = "/v3/new/report/myReports/set";

Deno.test("my reports: each account keeps its own list; names are checked", async () => {
  const t = await testApp();
  try {
    const admin = await t.adminToken();
    const adminId = await whoAmI(t, admin);
    await addAccount(t, admin, { account: "mrDist", accountType: 8, parentId: adminId });
    const dist = await t.login("mrDist", PASSWORD);
    await addVirtual(t, dist, "mrDistV");
    const virtual = await t.login("mrDistV", PASSWORD);

    const empty = await t.call(GET, {}, dist);
    assertOk(empty);
    assert.deepEqual(empty.json.data, { list: [] });

    // Order kept, duplicates dropped.
    const saved = await t.call(SET, { list: ["mileage", "trips", "mileage"] }, dist);
    assertOk(saved);
    assert.deepEqual(saved.json.data.list, ["mileage", "trips"]);
    assert.deepEqual((await t.call(GET, {}, dist)).json.data.list, ["mileage", "trips"]);

    // A virtual account of the same owner has a list of its own; others see nothing of it.
    assert.deepEqual((await t.call(GET, {}, virtual)).json.data.list, []);
    assertOk(await t.call(SET, { list: ["parking"] }, virtual));
    assert.deepEqual((await t.call(GET, {}, virtual)).json.data.list, ["parking"]);
    assert.deepEqual((await t.call(GET, {}, dist)).json.data.list, ["mileage", "trips"]);
    assert.deepEqual((await t.call(GET, {}, admin)).json.data.list, []);

    // Only reports that exist; nothing else in the body.
    assertCode(await t.call(SET, { list: ["trips", "nope"] }, dist), "illegalParameter");
    assertCode(await t.call(SET, { list: [], extra: 1 }, dist), "illegalParameter");
    assert.deepEqual((await t.call(GET, {}, dist)).json.data.list, ["mileage", "trips"]);
  } finally {
    await t.close();
  }
});

Deno.test("my reports: an account without the view-reports permission is refused", async () => {
  const t = await testApp();
  try {
    const admin = await t.adminToken();
    const adminId = await whoAmI(t, admin);
    const id = await addAccount(t, admin, { account: "mrNo", accountType: 8, parentId: adminId });
    assertOk(
      await t.call("/v3/new/account/update", { id, permissions: { viewReportFlag: 0 } }, admin),
    );
    const token = await t.login("mrNo", PASSWORD);
    assertCode(await t.call(GET, {}, token), "permissionDenied");
    assertCode(await t.call(SET, { list: ["trips"] }, token), "permissionDenied");
  } finally {
    await t.close();
  }
});
