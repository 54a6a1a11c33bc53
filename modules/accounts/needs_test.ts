import assert from "node:assert/strict";
import { NEEDS } from "../../lib/http/api.ts";
import { type Account, ALL_PERMISSIONS, type PermissionFlag, type VirtualScope } from "./model.ts";
import { NEED_RULES, needRefusal } from "./needs.ts";

/** An account with every flag but `off`; virtual with `scope` when given. */
function account(
  o: { type?: number; off?: PermissionFlag[]; scope?: Partial<VirtualScope> } = {},
): Account {
  const permissions = { ...ALL_PERMISSIONS };
  for (const f of o.off ?? []) permissions[f] = 0;
  return {
    id: "1",
    accountType: o.type ?? 8,
    permissions,
    virtual: o.scope
      ? {
        masterId: "1",
        scope: { instructionsFlag: 0, updateFlag: 0, videoFlag: 0, ...o.scope },
        expiration: null,
      }
      : null,
  } as unknown as Account;
}

/** needRefusal for `self` working as `owner` (a virtual account's master). */
const check = (need: typeof NEEDS[number], self: Account, owner: Account = self) =>
  needRefusal(need, self, owner);

Deno.test("needs: every need but public/read/self has a rule", () => {
  const ruled = Object.keys(NEED_RULES).sort();
  const expected = NEEDS.filter((n) => !["public", "read", "self"].includes(n)).sort();
  assert.deepEqual(ruled, expected);
});

Deno.test("needs: a real account needs the owner's flags", () => {
  const full = account();
  for (const need of NEEDS) assert.equal(check(need, full), null, need);
  const cases: [typeof NEEDS[number], PermissionFlag, string][] = [
    ["editData", "updateDevFlag", "permissionDenied"],
    ["sendCommands", "sendCommandFlag", "permissionDenied"],
    ["batchSendCommands", "isBatchSendIns", "batchSendNotAllowed"],
    ["batchWorkMode", "isBatchSendFm", "batchSendNotAllowed"],
    ["batchWorkMode", "sendCommandFlag", "permissionDenied"],
    ["modifyCommands", "modifyCommandFlag", "permissionDenied"],
    ["viewReports", "viewReportFlag", "permissionDenied"],
    ["video", "videoFlag", "permissionDenied"],
    ["recharge", "rechargeFlag", "permissionDenied"],
    ["bindApp", "bindAppFlag", "permissionDenied"],
  ];
  for (const [need, flag, refusal] of cases) {
    const a = account({ off: [flag] });
    assert.equal(check(need, a), refusal, `${need} without ${flag}`);
    // Reading and own settings never depend on a flag.
    assert.equal(check("read", a), null);
    assert.equal(check("self", a), null);
  }
  // The app-edit flag is not the web one: the API counts as the web console.
  assert.equal(check("editData", account({ off: ["appUpdateDevFlag"] })), null);
  // Batch sends do not need the single-send flag, nor single sends the batch flag.
  assert.equal(check("batchSendCommands", account({ off: ["sendCommandFlag"] })), null);
  assert.equal(check("sendCommands", account({ off: ["isBatchSendIns"] })), null);
});

Deno.test("needs: manageAccounts is for real accounts whose type may create accounts", () => {
  for (const type of [0, 8, 9, 11]) assert.equal(check("manageAccounts", account({ type })), null);
  assert.equal(check("manageAccounts", account({ type: 12 })), "endUserCannotCreate");
  // An end user still manages its own virtual accounts.
  assert.equal(check("manageVirtual", account({ type: 12 })), null);
});

Deno.test("needs: a virtual account also needs the scope flag, and never manages accounts", () => {
  const master = account();
  const none = account({ scope: {} });
  const full = account({ scope: { instructionsFlag: 1, updateFlag: 1, videoFlag: 1 } });
  const refusedWithoutScope = {
    editData: "permissionDenied",
    sendCommands: "permissionDenied",
    batchSendCommands: "batchSendNotAllowed",
    batchWorkMode: "permissionDenied",
    modifyCommands: "permissionDenied",
    video: "permissionDenied",
    recharge: "permissionDenied",
    bindApp: "permissionDenied",
    manageAccounts: "permissionDenied",
    manageVirtual: "permissionDenied",
  } as const;
  for (const [need, refusal] of Object.entries(refusedWithoutScope)) {
    assert.equal(check(need as typeof NEEDS[number], none, master), refusal, need);
  }
  for (const need of ["public", "read", "self", "viewReports"] as const) {
    assert.equal(check(need, none, master), null, need);
  }
  // Full scope: everything its master has, except money and account management.
  for (const need of NEEDS) {
    const expected = ["recharge", "manageAccounts", "manageVirtual"].includes(need)
      ? "permissionDenied"
      : null;
    assert.equal(check(need, full, master), expected, need);
  }
  // Each scope flag grants only its own needs.
  const onlyData = account({ scope: { updateFlag: 1 } });
  assert.equal(check("editData", onlyData, master), null);
  assert.equal(check("bindApp", onlyData, master), null);
  assert.equal(check("sendCommands", onlyData, master), "permissionDenied");
  assert.equal(check("video", onlyData, master), "permissionDenied");
  const onlyVideo = account({ scope: { videoFlag: 1 } });
  assert.equal(check("video", onlyVideo, master), null);
  assert.equal(check("editData", onlyVideo, master), "permissionDenied");
  // The scope never exceeds the master's own flags.
  assert.equal(check("editData", full, account({ off: ["updateDevFlag"] })), "permissionDenied");
  assert.equal(check("video", full, account({ off: ["videoFlag"] })), "permissionDenied");
});
