/**
 * Spec §5 and §6 account rules through the API: field validation naming the field in the
 * caller's language, expiry against the parent, transfer errors 1-5, deletion refusals,
 * type rules, nodes, the transfer lock and login uniqueness.
 */
import assert from "node:assert/strict";
import { fieldLabel } from "../../lib/i18n/refusal.ts";
import { CATALOGUE } from "../../lib/errors.ts";
import { testApp } from "../../tests/helpers/harness.ts";
import { RESOURCES, translator } from "../../lib/i18n/i18n.ts";
import * as S from "./schemas.ts";
import {
  addAccount,
  addVirtual,
  assertCode,
  assertOk,
  PASSWORD,
  request,
  whoAmI,
} from "./test_support.ts";

const { en, zh } = RESOURCES;

type R = { status: number; json: { code: number; msg: string; data: { field?: string } | null } };

function assertField(r: R, field: string) {
  assertCode(r, "illegalParameter");
  assert.equal(r.json.data?.field, field, JSON.stringify(r.json));
  // The sentence names the field as people read it ("Login account is required.").
  const label = fieldLabel(translator("en"), field);
  assert.ok(r.json.msg.startsWith(label), `msg names the field: ${r.json.msg}`);
}

const ok = (schema: { safeParse: (v: unknown) => { success: boolean } }, v: unknown) =>
  assert.ok(schema.safeParse(v).success, `should accept ${JSON.stringify(v)}`);
const bad = (schema: { safeParse: (v: unknown) => { success: boolean } }, v: unknown) =>
  assert.ok(!schema.safeParse(v).success, `should refuse ${JSON.stringify(v)}`);

Deno.test("account rules of spec §5/§6", async (s) => {
  const t = await testApp();
  const admin = await t.adminToken();
  const adminId = await whoAmI(t, admin);
  const distA = await addAccount(t, admin, { account: "distA", accountType: 8, parentId: adminId });
  const entA = await addAccount(t, admin, { account: "entA", accountType: 9, parentId: distA });
  const userA = await addAccount(t, admin, { account: "userA", accountType: 12, parentId: entA });
  const entA2 = await addAccount(t, admin, { account: "entA2", accountType: 9, parentId: distA });
  const distB = await addAccount(t, admin, { account: "distB", accountType: 8, parentId: adminId });
  const distAToken = await t.login("distA", PASSWORD);

  /** An add body that is valid except for what `patch` changes. */
  const addBody = (patch: Record<string, unknown>) => ({
    account: "fresh_one",
    nickName: "Fresh one",
    password: PASSWORD,
    accountType: 12,
    parentId: entA,
    ...patch,
  });
  const add = (patch: Record<string, unknown>, token = admin) =>
    t.call("/v3/new/account/add", addBody(patch), token) as Promise<R>;
  const update = (patch: Record<string, unknown>, token = admin) =>
    t.call("/v3/new/account/update", { id: userA, ...patch }, token) as Promise<R>;

  try {
    await s.step(
      "login account: 3-50, starts with letter/digit, letters/digits/_ or email",
      async () => {
        for (
          const v of [
            "",
            "ab",
            "a".repeat(51),
            "_abc",
            "-abc",
            "ab c",
            "ab-c",
            "ab.c",
            "用户名",
            "a@b",
          ]
        ) {
          assertField(await add({ account: v }), "account");
        }
        const { account: _omit, ...missing } = addBody({});
        assertField(await t.call("/v3/new/account/add", missing, admin) as R, "account");
        for (
          const v of ["abc", "9abc", "Ab_9", "a".repeat(50), "john.doe@example.com", "a_b@c.io"]
        ) {
          ok(S.loginAccount, v);
        }
        bad(S.loginAccount, `${"a".repeat(46)}@x.io`); // an email longer than 50
        ok(S.loginAccount, `${"a".repeat(45)}@x.io`);
        // Through the API too, at both ends of the length rule.
        await addAccount(t, admin, { account: "abc", accountType: 12, parentId: entA });
        await addAccount(t, admin, {
          account: `u${"x".repeat(49)}`,
          accountType: 12,
          parentId: entA,
        });
        await addAccount(t, admin, {
          account: "ann.lee@example.com",
          accountType: 12,
          parentId: entA,
        });
      },
    );

    await s.step("nickname 3-25", async () => {
      for (const v of ["", "ab", "  ab  ", "n".repeat(26)]) {
        assertField(await add({ nickName: v }), "nickName");
      }
      assertField(await update({ nickName: "n".repeat(26) }), "nickName");
      assertOk(await update({ nickName: "n".repeat(25) }));
      assertOk(await update({ nickName: "abc" }));
    });

    await s.step("password 8-50 with letters and digits; confirmation must match", async () => {
      for (const v of ["abcdefgh", "12345678", "abc1234", `${"a1".repeat(25)}x`, ""]) {
        assertField(await add({ password: v }), "password");
      }
      ok(S.password, "abcd1234");
      ok(S.password, "a1".repeat(25));
      const reset = (password: string, confirmPassword: string) =>
        t.call(
          "/v3/new/account/resetPassword",
          { id: userA, password, confirmPassword },
          admin,
        ) as Promise<R>;
      assertField(await reset("short1", "short1"), "password");
      const mismatch = await reset("abcd1234", "abcd1235");
      assertCode(mismatch, "passwordMismatch");
      assert.equal(mismatch.json.data?.field, "confirmPassword");
      const change = await t.call("/v3/new/account/changePassword", {
        oldPassword: PASSWORD,
        newPassword: "abcd1234",
        confirmPassword: "abcd12345",
      }, distAToken) as R;
      assertCode(change, "passwordMismatch");
      assert.equal(change.json.data?.field, "confirmPassword");
      const wrongOld = await t.call("/v3/new/account/changePassword", {
        oldPassword: "Nope12345",
        newPassword: "abcd1234",
        confirmPassword: "abcd1234",
      }, distAToken) as R;
      assertCode(wrongOld, "wrongOldPassword");
    });

    await s.step("contact ≤ 100, description ≤ 2000, discount 0.01-1", async () => {
      assertField(await update({ contact: "c".repeat(101) }), "contact");
      assertOk(await update({ contact: "c".repeat(100) }));
      assertField(await update({ description: "d".repeat(2001) }), "description");
      assertOk(await update({ description: "d".repeat(2000) }));
      for (const v of [0, 0.005, 1.01, -1, "0.5"]) {
        assertField(await update({ discount: v }), "discount");
      }
      assertOk(await update({ discount: 0.01 }));
      assertOk(await update({ discount: 1 }));
      const saved = await t.services.accountStore.get(userA);
      assert.equal(saved?.contact, "c".repeat(100));
      assert.equal(saved?.description.length, 2000);
      assert.equal(saved?.discount, 1);
      assertField(await add({ discount: 0 }), "discount");
    });

    await s.step("email form; phone digits, + and -", async () => {
      for (const v of ["bad@", "a@b", "no at.com", "a b@c.io", "@x.io"]) {
        assertField(await update({ email: v }), "email");
      }
      assertOk(await update({ email: "" }));
      assertOk(await update({ email: "ops@fleet.example.com" }));
      for (const v of ["123a", "(123) 456", "12 34", "+86.138"]) {
        assertField(await update({ phone: v }), "phone");
      }
      assertField(await update({ phone: "1".repeat(21) }), "phone");
      assertOk(await update({ phone: "+86-138-0000-0000" }));
      assertOk(await update({ phone: "0044123" }));
      assertField(await add({ email: "x@" }), "email");
      assertField(await add({ phone: "abc" }), "phone");
    });

    await s.step("account type must be known and creatable by caller and parent", async () => {
      assertField(await add({ accountType: 10 }), "accountType");
      assertField(await add({ accountType: "9" }), "accountType");
      assertCode(await add({ accountType: 0 }), "accountTypeNotAllowed"); // nobody creates admins
      assertCode(await add({ accountType: 8 }), "accountTypeNotAllowed"); // an enterprise holds 9/12
      assertCode(await add({ accountType: 8, parentId: userA }), "endUserCannotCreate");
    });

    await s.step("unknown fields and ids are refused, naming them", async () => {
      assertField(await add({ role: "root" }), "role");
      assertField(await add({ permissions: { superPower: 1 } }), "permissions.superPower");
      assertField(await add({ parentId: "abc" }), "parentId");
      assertField(await update({ id: "" }), "id");
    });

    await s.step("virtual account login 5-30", async () => {
      const vadd = (account: string) =>
        t.call("/v3/new/account/virtual/add", {
          account,
          nickName: "virtual",
          password: PASSWORD,
          scope: { instructionsFlag: 1, updateFlag: 1, videoFlag: 1 },
        }, distAToken) as Promise<R>;
      for (const v of ["abcd", "v".repeat(31), "_virt1", "virt 1"]) {
        assertField(await vadd(v), "account");
      }
      ok(S.virtualLogin, "v".repeat(30));
      assertOk(await vadd("virt5"));
    });

    await s.step("expiry cannot pass the parent's and is inherited when omitted", async () => {
      const distE = await addAccount(t, admin, {
        account: "distE",
        accountType: 8,
        parentId: adminId,
        expiration: "2099-12-31",
      });
      for (const expiration of ["2100-01-01", null]) {
        const r = await add({ parentId: distE, account: "lateChild", expiration });
        assertCode(r, "expiryAfterParent");
        assert.equal(r.json.data?.field, "expiration");
        assert.match(r.json.msg, /2099-12-31/);
      }
      const entE = await addAccount(t, admin, {
        account: "entE",
        accountType: 9,
        parentId: distE,
      });
      assert.equal((await t.services.accountStore.get(entE))?.expiration, "2099-12-31");
      assertCode(await update({ id: entE, expiration: "2100-01-01" }), "expiryAfterParent");
      assertCode(await update({ id: entE, expiration: null }), "expiryAfterParent");
      assertOk(await update({ id: entE, expiration: "2099-06-30" }));
      // ...and must not fall before activation (the creation day).
      const today = new Date().toISOString().slice(0, 10);
      const past = await update({ id: entE, expiration: "2020-01-01" });
      assertField(past, "expiration");
      assert.match(past.json.msg, new RegExp(today));
      assertField(await add({ expiration: "2020-01-01" }), "expiration");
      assertOk(await update({ id: entE, expiration: today }));
      assertOk(await update({ id: entE, expiration: "2099-06-30" }));
      for (const v of ["2024-02-30", "0000-01-01", "2024-1-1", "31/12/2099", "2099-12-31T00:00"]) {
        assertField(await update({ id: entE, expiration: v }), "expiration");
      }

      // Virtual accounts: bounded by their master, inherited when omitted.
      const entEToken = await t.login("entE", PASSWORD);
      const late = await t.call("/v3/new/account/virtual/add", {
        account: "virtLate",
        nickName: "virtLate",
        password: PASSWORD,
        scope: { instructionsFlag: 1, updateFlag: 1, videoFlag: 1 },
        expiration: "2099-07-01",
      }, entEToken) as R;
      assertCode(late, "expiryAfterParent");
      const early = await t.call("/v3/new/account/virtual/add", {
        account: "virtEarly",
        nickName: "virtEarly",
        password: PASSWORD,
        scope: { instructionsFlag: 1, updateFlag: 1, videoFlag: 1 },
        expiration: "2020-01-01",
      }, entEToken) as R;
      assertField(early, "expiration");
      const vEntE = await addVirtual(t, entEToken, "virtEntE");
      assert.equal((await t.services.accountStore.get(vEntE))?.virtual?.expiration, "2099-06-30");
      // distE (2099-12-31) edits entE's virtual account: entE's expiry still bounds it.
      const distEToken = await t.login("distE", PASSWORD);
      assertCode(
        await t.call(
          "/v3/new/account/virtual/update",
          { id: vEntE, expiration: "2099-09-01" },
          distEToken,
        ) as R,
        "expiryAfterParent",
      );
      assertField(
        await t.call(
          "/v3/new/account/virtual/update",
          { id: vEntE, expiration: "2020-01-01" },
          distEToken,
        ) as R,
        "expiration",
      );
      assertOk(
        await t.call(
          "/v3/new/account/virtual/update",
          { id: vEntE, expiration: "2099-01-01" },
          distEToken,
        ),
      );
    });

    await s.step("move: transfer errors 1-5 exactly", async () => {
      const move = (ids: string[], targetId: string) =>
        t.call("/v3/new/account/move", { ids, targetId }, distAToken) as Promise<R>;
      const cases: [string[], string, number][] = [
        [[entA], entA, 1], // to itself
        [[entA], userA, 2], // under its own child
        [[entA], distB, 3], // target outside the caller's subtree
        [[distB], entA, 3], // account outside the caller's subtree
        [[distA], entA2, 3], // the caller's own account
        [[entA], distA, 4], // already there
        [[entA, userA], entA2, 5], // a parent and its child together
      ];
      const before = await t.services.accountStore.get(entA);
      for (const [ids, target, code] of cases) {
        const r = await move(ids, target);
        assert.equal(r.status, 200);
        assert.equal(r.json.code, code, `${ids} → ${target}: ${JSON.stringify(r.json)}`);
      }
      assert.deepEqual(await t.services.accountStore.get(entA), before);
      assertField(await move([], entA2), "ids");
    });

    await s.step("deletion refused: sub-accounts, Mi coins, recharge cards, devices", async () => {
      const del = (id: string) =>
        t.call("/v3/new/account/delete", { id }, distAToken) as Promise<R>;
      assertCode(await del(entA), "subAccountsExist"); // 20005
      const leaf = await addAccount(t, admin, {
        account: "leaf",
        accountType: 12,
        parentId: entA2,
      });
      const store = t.services.accountStore;
      const set = async (patch: { coinNumber?: number; rechargeCards?: number }) => {
        const a = (await store.get(leaf))!;
        await store.update({ ...a, ...patch });
      };
      await set({ coinNumber: 5 });
      assertCode(await del(leaf), "miCoinsInBalance"); // 20010
      await set({ coinNumber: 0, rechargeCards: 2 });
      assertCode(await del(leaf), "contactServiceProvider"); // 20225
      await set({ rechargeCards: 0 });
      const guard = (a: { id: string }) =>
        Promise.resolve(a.id === leaf ? "devicesStillBound" as const : null);
      t.services.accounts.deletionGuards.push(guard);
      try {
        const r = await del(leaf);
        assertCode(r, "devicesStillBound"); // 20004
        assert.equal(r.json.code, 20004);
      } finally {
        t.services.accounts.deletionGuards.splice(
          t.services.accounts.deletionGuards.indexOf(guard),
          1,
        );
      }
      assert.ok(await store.get(leaf), "nothing deleted while refused");
      assertOk(await del(leaf));
      assert.equal(await store.get(leaf), null);
      assertCode(await del(distA), "permissionDenied"); // not itself
    });

    await s.step("end users cannot create accounts", async () => {
      const userToken = await t.login("userA", PASSWORD);
      assertCode(await add({ parentId: userA }, userToken), "endUserCannotCreate");
      assertCode(await add({ parentId: userA }), "endUserCannotCreate"); // nor hold them
      assertCode(
        await t.call("/v3/new/account/move", { ids: [userA], targetId: userA }, userToken) as R,
        "endUserCannotCreate",
      );
      // Nor receive them by a move.
      const r = await t.call(
        "/v3/new/account/move",
        { ids: [entA2], targetId: userA },
        distAToken,
      ) as R;
      assertCode(r, "endUserCannotCreate");
    });

    await s.step(
      "an enterprise account's type cannot be edited; types must fit children",
      async () => {
        const r = await update({ id: entA, accountType: 8 });
        assertCode(r, "enterpriseTypeLocked");
        assertOk(await update({ id: entA, accountType: 9 })); // unchanged type is fine
        assert.equal((await t.services.accountStore.get(entA))?.accountType, 9);
        const sub = await addAccount(t, admin, {
          account: "distSub",
          accountType: 8,
          parentId: distA,
        });
        await addAccount(t, admin, { account: "distSubSub", accountType: 8, parentId: sub });
        // A sales account cannot hold distributors, an end user holds nobody.
        assertCode(await update({ id: sub, accountType: 11 }), "accountTypeNotAllowed");
        assertCode(await update({ id: sub, accountType: 12 }), "accountTypeNotAllowed");
        assert.equal((await t.services.accountStore.get(sub))?.accountType, 8);
      },
    );

    await s.step("multi-node accounts cannot be moved or deleted; no cross-node move", async () => {
      const entN = await addAccount(t, admin, {
        account: "entN",
        accountType: 9,
        parentId: distA,
        nodeId: 1,
      });
      const childN = await addAccount(t, admin, {
        account: "childN",
        accountType: 12,
        parentId: entN,
        nodeId: 2,
      });
      const move = (ids: string[], targetId: string) =>
        t.call("/v3/new/account/move", { ids, targetId }, distAToken) as Promise<R>;
      assertCode(await move([entN], entA2), "multiNodeAccount");
      assertCode(
        await t.call("/v3/new/account/delete", { id: entN }, distAToken) as R,
        "multiNodeAccount",
      );
      assertCode(await move([childN], entA), "crossNodeRefused");
      assertField(await add({ nodeId: 4 }), "nodeId");
    });

    await s.step("one transfer at a time", async () => {
      const store = t.services.accountStore;
      assert.ok(await store.acquireTransferLock("devices:test"));
      try {
        const r = await t.call(
          "/v3/new/account/move",
          { ids: [userA], targetId: entA2 },
          distAToken,
        ) as R;
        assertCode(r, "transferRunning");
        assert.equal((await store.get(userA))?.parentId, entA);
      } finally {
        await store.releaseTransferLock();
      }
      assertOk(
        await t.call("/v3/new/account/move", { ids: [userA], targetId: entA2 }, distAToken),
      );
      assert.equal((await store.get(userA))?.parentId, entA2);
      // The lock is released after a move.
      assert.ok(await store.acquireTransferLock("check"));
      await store.releaseTransferLock();
    });

    await s.step("login accounts are unique case-insensitively", async () => {
      for (const account of ["DISTA", "DistA", " distA "]) {
        const r = await add({ account });
        assertCode(r, "accountExists");
        assert.equal(r.json.data?.field, "account");
      }
      const v = await t.call("/v3/new/account/virtual/add", {
        account: "ENTA2",
        nickName: "clash",
        password: PASSWORD,
        scope: { instructionsFlag: 0, updateFlag: 0, videoFlag: 0 },
      }, distAToken) as R;
      assertCode(v, "accountExists");
      // And logging in ignores case as well.
      await t.login("DISTA", PASSWORD);
    });

    await s.step("virtual accounts: scope and password limits", async () => {
      const vLimited = await addVirtual(t, distAToken, "virtLimited", {
        scope: { instructionsFlag: 1, updateFlag: 0, videoFlag: 1 },
      });
      const vFull = await addVirtual(t, distAToken, "virtFull");
      const limited = await t.login("virtLimited", PASSWORD);
      assertCode(await add({ account: "byVirtual" }, limited), "permissionDenied");
      assertCode(await update({ nickName: "byVirtual" }, limited), "permissionDenied");
      const full = await t.login("virtFull", PASSWORD);
      // A virtual account cannot reset its own password, nor a fellow virtual account's.
      const reset = (id: string) =>
        t.call("/v3/new/account/resetPassword", {
          id,
          password: "Other1234",
          confirmPassword: "Other1234",
        }, full) as Promise<R>;
      assertCode(await reset(vFull), "permissionDenied");
      assertCode(await reset(vLimited), "permissionDenied");
      // Its own password it cannot change either.
      assertCode(
        await t.call("/v3/new/account/changePassword", {
          oldPassword: PASSWORD,
          newPassword: "Other1234",
          confirmPassword: "Other1234",
        }, full) as R,
        "virtualCannotChangePassword",
      );
      assertCode(
        await t.call("/v3/new/account/forceLogout", { id: vLimited }, full) as R,
        "permissionDenied",
      );
      assertCode(
        await t.call("/v3/new/account/virtual/delete", { id: vLimited }, full) as R,
        "permissionDenied",
      );
      assertOk(await t.call("/v3/new/account/current", undefined, limited));
      // Account management is not in any virtual scope (need manageAccounts): even a
      // full-scope virtual account cannot edit its master's sub-accounts.
      assertCode(await update({ nickName: "byVirtual" }, full), "permissionDenied");
      // A virtual account is not a superior.
      assertCode(await add({ parentId: vFull }), "superiorInvalid");
    });

    await s.step("refusals are translated (x-locale header or locale cookie)", async () => {
      const body = addBody({ nickName: "ab" });
      const viaHeader = await request(t, "/v3/new/account/add", {
        body,
        token: admin,
        headers: { "x-locale": "zh" },
      });
      assert.equal(viaHeader.json.code, CATALOGUE.illegalParameter);
      assert.equal(viaHeader.json.data.field, "nickName");
      assert.equal(viaHeader.json.msg, "昵称至少需要 3 个字符。");
      const viaCookie = await request(t, "/v3/new/account/add", {
        body,
        token: admin,
        cookies: { locale: "zh-CN" },
      });
      assert.equal(viaCookie.json.msg, viaHeader.json.msg);
      const english = await request(t, "/v3/new/account/add", { body, token: admin });
      assert.equal(english.json.msg, "Nickname must be at least 3 characters.");
      assert.doesNotMatch(english.json.msg, /[\u4e00-\u9fff]/);

      // Business refusals too, with their parameters.
      const denied = await request(t, "/v3/new/account/detail?id=999999", {
        token: distAToken,
        headers: { "x-locale": "zh" },
      });
      assert.equal(denied.json.msg, zh.errors.permissionDenied);
      const distE = (await t.services.accountStore.findIdByLogin("distE"))!;
      const late = await request(t, "/v3/new/account/add", {
        body: addBody({ expiration: "2100-01-01", parentId: distE }),
        token: admin,
        cookies: { locale: "zh" },
      });
      assert.equal(late.json.code, CATALOGUE.expiryAfterParent);
      assert.equal(late.json.msg, zh.errors.expiryAfterParent.replace("{{date}}", "2099-12-31"));
      const exists = await request(t, "/v3/new/account/add", {
        body: addBody({ account: "distA" }),
        token: admin,
        headers: { "x-locale": "zh" },
      });
      assert.equal(exists.json.msg, zh.errors.accountExists);
      assert.notEqual(exists.json.msg, en.errors.accountExists);
      // The cookie wins over the header.
      const both = await request(t, "/v3/new/account/add", {
        body: addBody({ account: "distA" }),
        token: admin,
        headers: { "x-locale": "zh" },
        cookies: { locale: "en" },
      });
      assert.equal(both.json.msg, en.errors.accountExists);
    });
  } finally {
    await t.close();
  }
});
