/**
 * Shared fixtures of the device API tests: envelope assertions and an administrator that
 * creates accounts through the API. Not a test file itself.
 */
import assert from "node:assert/strict";
import type { TestApp } from "../../tests/helpers/harness.ts";
import { CATALOGUE, type ErrorName } from "../../lib/errors.ts";

export const PASSWORD = "Passw0rd11";

export type Call = Awaited<ReturnType<TestApp["call"]>>;

export function code(r: Call, name: ErrorName) {
  assert.equal(r.json?.code, CATALOGUE[name], `expected ${name}, got ${JSON.stringify(r.json)}`);
}

export function ok(r: Call) {
  assert.equal(r.json?.code, 10000, JSON.stringify(r.json));
  return r.json.data;
}

/** The administrator's token and id, and `add(account, parentId, type, extra)` → new id. */
export async function asAdmin(app: TestApp) {
  const admin = await app.adminToken();
  const adminId = (await app.services.accountStore.findIdByLogin("admin"))!;
  const add = async (account: string, parentId: string, type: number, extra = {}) =>
    ok(
      await app.call("/v3/new/account/add", {
        account,
        nickName: `${account} nick`,
        password: PASSWORD,
        accountType: type,
        parentId,
        ...extra,
      }, admin),
    ).id as string;
  return { admin, adminId, add };
}
