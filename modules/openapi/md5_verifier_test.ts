/**
 * The MD5 verifier kept with the password (issue 22): written when an account is created and
 * when its password changes, and at the next successful login for an account that has none.
 */
import assert from "node:assert/strict";
import { testApp } from "../../tests/helpers/harness.ts";
import { passwordMd5, verifyPassword } from "../auth/password.ts";

const PASSWORD = "Passw0rd11";

Deno.test("the MD5 verifier follows the password and is filled in at login", async () => {
  const app = await testApp();
  try {
    const store = app.services.accountStore;
    const admin = await app.adminToken();
    const adminId = (await store.findIdByLogin("admin"))!;
    const add = await app.call("/v3/new/account/add", {
      account: "md5_user",
      nickName: "md5 user",
      password: PASSWORD,
      accountType: 8,
      parentId: adminId,
    }, admin);
    assert.equal(add.json.code, 10000);
    const id = add.json.data.id as string;
    const created = (await store.get(id))!;
    assert.ok(await verifyPassword(passwordMd5(PASSWORD), created.passwordMd5Hash!));
    assert.ok(!await verifyPassword(PASSWORD, created.passwordMd5Hash!));

    // A password reset writes a new verifier; the old MD5 no longer matches.
    const reset = await app.call("/v3/new/account/resetPassword", {
      id,
      password: "N3wPassword",
      confirmPassword: "N3wPassword",
    }, admin);
    assert.equal(reset.json.code, 10000, JSON.stringify(reset.json));
    const after = (await store.get(id))!;
    assert.ok(await verifyPassword(passwordMd5("N3wPassword"), after.passwordMd5Hash!));
    assert.ok(!await verifyPassword(passwordMd5(PASSWORD), after.passwordMd5Hash!));

    // An account from before the verifier existed gets it at its next successful login.
    const { passwordMd5Hash: _gone, ...older } = after;
    await store.update(older);
    assert.equal((await store.get(id))!.passwordMd5Hash, undefined);
    await app.login("md5_user", "N3wPassword");
    const filled = (await store.get(id))!;
    assert.ok(await verifyPassword(passwordMd5("N3wPassword"), filled.passwordMd5Hash!));
    // Never shown by the API.
    const detail = await app.call("/v3/new/account/detail", { id }, admin);
    assert.ok(!JSON.stringify(detail.json).includes("passwordMd5Hash"));
  } finally {
    await app.close();
  }
});
