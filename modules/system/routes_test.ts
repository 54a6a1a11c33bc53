/** Shared calls of spec §7: translations, locale switch, countries, nodes, balances, resources. */
import assert from "node:assert/strict";
import { CATALOGUE } from "../../lib/errors.ts";
import { LOCALE_COOKIE_MAX_AGE, RESOURCES } from "../../lib/i18n/i18n.ts";
import { testApp } from "../../tests/helpers/harness.ts";
import {
  addAccount,
  addVirtual,
  assertCode,
  assertOk,
  PASSWORD,
  request,
  whoAmI,
} from "../accounts/test_support.ts";
import { COUNTRIES } from "./countries.ts";

Deno.test("system routes", async (s) => {
  const t = await testApp();
  const admin = await t.adminToken();
  const adminId = await whoAmI(t, admin);
  const distA = await addAccount(t, admin, { account: "distA", accountType: 8, parentId: adminId });
  await addAccount(t, admin, { account: "entA", accountType: 9, parentId: distA });
  const distAToken = await t.login("distA", PASSWORD);
  await addVirtual(t, distAToken, "virtA1");
  const virtual = await t.login("virtA1", PASSWORD);

  try {
    await s.step("translations by language, else the caller's language", async () => {
      const zh = await t.call("/v3/new/tools/i18n?lang=zh");
      assertOk(zh);
      assert.equal(zh.json.data.lang, "zh");
      assert.deepEqual(zh.json.data.resources, RESOURCES.zh);
      const byCookie = await request(t, "/v3/new/tools/i18n", { cookies: { locale: "zh" } });
      assert.equal(byCookie.json.data.lang, "zh");
      assert.equal((await t.call("/v3/new/tools/i18n")).json.data.lang, "en");
      assertCode(await t.call("/v3/new/tools/i18n?lang=xx"), "illegalParameter");
    });

    await s.step("locale switch sets the locale cookie for 360 days", async () => {
      const r = await t.call("/v3/new/tools/locale", { lang: "zh" });
      assertOk(r);
      const cookie = r.res.headers.getSetCookie().find((c) => c.startsWith("locale="));
      assert.ok(cookie, "locale cookie");
      assert.match(cookie, /^locale=zh;/);
      assert.match(cookie, new RegExp(`Max-Age=${LOCALE_COOKIE_MAX_AGE}`));
      assert.equal(LOCALE_COOKIE_MAX_AGE, 360 * 24 * 3600);
      assert.match(cookie, /Path=\//);
    });

    await s.step("countries are public", async () => {
      const r = await t.call("/v3/new/tools/country/all");
      assertOk(r);
      assert.deepEqual(r.json.data, COUNTRIES);
      const codes = COUNTRIES.map((c) => c.code);
      assert.equal(new Set(codes).size, codes.length, "unique codes");
      assert.ok(codes.every((c) => /^[A-Z]{2}$/.test(c)));
    });

    await s.step("service nodes HK=1, EU=2, US=3, translated, need a session", async () => {
      assertCode(await t.call("/v3/new/newDevice/getNodeList"), "tokenInvalid", 401);
      const r = await t.call("/v3/new/newDevice/getNodeList", undefined, distAToken);
      assertOk(r);
      assert.deepEqual(
        r.json.data.map((n: { nodeId: number; code: string }) => [n.nodeId, n.code]),
        [
          [1, "HK"],
          [2, "EU"],
          [3, "US"],
        ],
      );
      assert.equal(r.json.data[0].name, "Hong Kong");
      const zh = await request(t, "/v3/new/newDevice/getNodeList", {
        token: distAToken,
        headers: { "x-locale": "zh" },
      });
      assert.equal(zh.json.data[0].name, "香港");
    });

    await s.step("balances are the caller's (the master's for a virtual user)", async () => {
      // Credits come from modules/credits: 50 free, plus 20 granted (a package's SMS).
      await t.services.credits.grantCredits(distA, 20, adminId);
      // Coins and cards come from the wallet's ledger (modules/wallet).
      assertOk(
        await t.call("/v3/new/wallet/allocate", {
          targetUserId: distA,
          coins: 12,
          cards: { "1y": 2, "3m": 1 },
        }, admin),
      );
      for (const token of [distAToken, virtual]) {
        const r = await t.call("/v3/new/homepage/queryMiCoinsBalance", {}, token);
        assertOk(r);
        assert.deepEqual(r.json.data, {
          coinNumber: 12,
          rechargeCards: 3,
          cards: { "3m": 1, "6m": 0, "1y": 2, "10y": 0, point: 0 },
          credits: 70,
        });
      }
      const fresh = await t.call("/v3/new/homepage/queryMiCoinsBalance", {}, admin);
      assert.equal(fresh.json.data.coinNumber, 0);
      assert.equal(fresh.json.data.credits, 50, "a new account has 50 free credits");
      assertCode(
        await t.call("/v3/new/homepage/queryMiCoinsBalance", { accountId: adminId }, distAToken),
        "illegalParameter",
      );
    });

    await s.step("resource counts cover the caller's subtree only", async () => {
      const mine = await t.call("/v3/new/homepage/getResourcesInfo", undefined, distAToken);
      assertOk(mine);
      assert.deepEqual(mine.json.data, { accounts: 1, virtualAccounts: 1 });
      const all = await t.call("/v3/new/homepage/getResourcesInfo", undefined, admin);
      assert.deepEqual(all.json.data, { accounts: 2, virtualAccounts: 0 });
      const v = await t.call("/v3/new/homepage/getResourcesInfo", undefined, virtual);
      assert.deepEqual(v.json.data, mine.json.data);
      assert.equal(v.json.code, CATALOGUE.success);
    });
  } finally {
    await t.close();
  }
});
