/**
 * Mailed codes (password recovery, address verification): at most five checks per code,
 * counted atomically before the comparison; the sixth burns it, even a right one (issue 14).
 */
import assert from "node:assert/strict";
import { testApp } from "../../tests/helpers/harness.ts";
import { addAccount, assertCode, assertOk, PASSWORD, request } from "../accounts/test_support.ts";
import { CodeStore } from "./codes.ts";
import { CodeRecords } from "./store.ts";
import { openTestKv } from "../../tests/helpers/test_kv.ts";

const wrongFor = (code: string) => (code === "000000" ? "111111" : "000000");

async function withStore(fn: (codes: CodeStore) => Promise<void>) {
  const dir = await Deno.makeTempDir({ prefix: "tp-codes-" });
  const kv = await openTestKv(`${dir}/codes.kv`);
  try {
    await fn(new CodeStore(new CodeRecords(kv)));
  } finally {
    kv.close();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("codes: 30 parallel wrong checks burn the code", async () => {
  await withStore(async (codes) => {
    const code = await codes.issue("p", "acc1", "a@x.test");
    const results = await Promise.all(
      Array.from({ length: 30 }, () => codes.check("p", "acc1", "a@x.test", wrongFor(code))),
    );
    assert.ok(results.every((r) => r === false));
    assert.equal(await codes.check("p", "acc1", "a@x.test", code), false, "burnt");
  });
});

Deno.test("codes: five checks, then the code is gone", async () => {
  await withStore(async (codes) => {
    // Four wrong checks leave the right one its turn.
    const code = await codes.issue("p", "acc2", "b@x.test");
    for (let i = 0; i < 4; i++) {
      assert.equal(await codes.check("p", "acc2", "b@x.test", wrongFor(code)), false);
    }
    assert.equal(await codes.check("p", "acc2", "b@x.test", ` ${code} `), true);
    assert.equal(await codes.check("p", "acc2", "b@x.test", code), false, "single use");

    // Five wrong checks: the right code comes sixth and is refused.
    const next = await codes.issue("p", "acc3", "c@x.test");
    for (let i = 0; i < 5; i++) {
      assert.equal(await codes.check("p", "acc3", "c@x.test", wrongFor(next)), false);
    }
    assert.equal(await codes.check("p", "acc3", "c@x.test", next), false);
  });
});

Deno.test("codes: two parallel right checks use the code once", async () => {
  await withStore(async (codes) => {
    const code = await codes.issue("p", "acc4", "d@x.test");
    const results = await Promise.all([
      codes.check("p", "acc4", "d@x.test", code),
      codes.check("p", "acc4", "d@x.test", code),
      codes.check("p", "acc4", "d@x.test", code),
    ]);
    assert.equal(results.filter(Boolean).length, 1);
  });
});

Deno.test("password recovery: 30 parallel wrong codes burn the code over HTTP", async () => {
  const t = await testApp();
  try {
    const admin = await t.adminToken();
    const root = (await t.services.accountStore.findIdByLogin("admin"))!;
    const id = await addAccount(t, admin, { account: "recover1", accountType: 9, parentId: root });
    const acc = (await t.services.accountStore.get(id))!;
    await t.services.accountStore.update({ ...acc, email: "owner@fleet.test" });
    // The code as the mail would carry it (the mail itself is tested with the SMTP receiver).
    const code = await t.services.codes.issue("passwordRecovery", id, "owner@fleet.test");
    const reset = (c: string, ip: string) =>
      request(t, "/v3/new/passwordRecovery/reset", {
        body: {
          account: "recover1",
          code: c,
          password: "NewPassw0rd",
          confirmPassword: "NewPassw0rd",
        },
        ip,
      });
    const burst = await Promise.all(
      Array.from({ length: 30 }, (_, i) => reset(wrongFor(code), `10.60.0.${i + 1}`)),
    );
    for (const r of burst) assertCode(r, "verificationCodeError");
    assertCode(await reset(code, "10.60.1.1"), "verificationCodeError");
    // The password did not change.
    assertOk(
      await request(t, "/v3/new/account/login", {
        body: { account: "recover1", password: PASSWORD },
        ip: "10.60.1.2",
      }),
    );
  } finally {
    await t.close();
  }
});
