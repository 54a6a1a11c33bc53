/** Which routes are business operations (the business log's rule, lib/http/api.ts changesState). */
import assert from "node:assert/strict";
import { changesState, type Need } from "./api.ts";

const route = (need: Need, method: "get" | "post" | "delete", path: string, audit?: boolean) => ({
  need,
  method,
  path,
  audit,
});

Deno.test("changesState: changing needs on non-GET routes, lists and gets excepted", () => {
  assert.equal(
    changesState(route("editData", "post", "/v3/new/newEquipment/transferEquipment")),
    true,
  );
  assert.equal(changesState(route("manageAccounts", "post", "/v3/new/account/move")), true);
  assert.equal(changesState(route("editData", "delete", "/v3/new/newEquipment/deleteGroup")), true);
  // Reading needs and own changes are not business operations.
  for (const need of ["read", "self", "public", "viewReports", "video"] as Need[]) {
    assert.equal(changesState(route(need, "post", "/v3/new/x/save")), false, need);
  }
  // A read behind a changing permission.
  assert.equal(changesState(route("manageAccounts", "post", "/v3/new/wallet/cards/list")), false);
  assert.equal(changesState(route("viewReports", "post", "/v3/new/report/motionRules/get")), false);
  assert.equal(
    changesState(route("editData", "get", "/v3/new/newEquipment/importTemplate")),
    false,
  );
  // The route's own flag decides when set.
  assert.equal(changesState(route("read", "post", "/v3/new/x/do", true)), true);
  assert.equal(changesState(route("editData", "post", "/v3/new/x/preview", false)), false);
});
