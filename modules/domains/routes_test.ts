/**
 * White-label configuration per host (spec §1, §3, §9): defaults, administrator-only
 * changes, validation, per-host lookup by the Host of the request, the "*" fallback, the
 * default language and full image addresses.
 */
import assert from "node:assert/strict";
import { CATALOGUE } from "../../lib/errors.ts";
import { RESOURCES } from "../../lib/i18n/i18n.ts";
import { testApp } from "../../tests/helpers/harness.ts";
import {
  addAccount,
  addVirtual,
  assertCode,
  assertOk,
  PASSWORD,
  whoAmI,
} from "../accounts/test_support.ts";
import { DEFAULT_DOMAIN, type DomainConfig, DomainStore, imageUrl } from "./store.ts";
import { openTestKv } from "../../tests/helpers/test_kv.ts";

const CONFIG = "/v3/new/domain/config";

const validBody = (patch: Record<string, unknown> = {}) => ({
  host: "track.example.com",
  domainTitle: "Fleet One",
  defaultLanguage: "zh",
  themeColor: "#112233",
  hoverColor: "#445566",
  selectedColor: "#AABBCC",
  view: "newlogin",
  resourceDomain: "https://cdn.example.com/",
  attr1: "bg/login.jpg",
  twoDimensionalCodeImage: "",
  domainLogin: "/logo.png",
  loginPageIllustration: "",
  demoPageIllustration: "",
  siteIcon: "icon.png",
  ...patch,
});

Deno.test("domain configuration", async (s) => {
  const t = await testApp();
  const admin = await t.adminToken();
  const adminId = await whoAmI(t, admin);
  await addAccount(t, admin, { account: "distA", accountType: 8, parentId: adminId });
  const distA = await t.login("distA", PASSWORD);
  await addVirtual(t, admin, "virtAdmin");
  const virtAdmin = await t.login("virtAdmin", PASSWORD);
  const save = (body: unknown, token = admin) => t.call("/v3/new/domain/save", body, token);
  const configOf = async (host: string, headers: Record<string, string> = {}) => {
    const res = await t.app.request(`http://${host}${CONFIG}`, { headers });
    assert.equal(res.status, 200);
    const json = await res.json();
    assert.equal(json.code, CATALOGUE.success);
    return json.data as Omit<DomainConfig, "updatedAt">;
  };

  try {
    await s.step("public config falls back to the defaults", async () => {
      const r = await t.call(CONFIG); // no token needed
      assertOk(r);
      const { updatedAt: _u, ...defaults } = DEFAULT_DOMAIN;
      assert.deepEqual(r.json.data, defaults);
      assert.equal(r.json.data.domainTitle, "Tracking Platform");
      assert.equal(r.json.data.themeColor, "#3b7aff");
      assert.equal(r.json.data.defaultLanguage, "en");
      assert.equal(r.json.data.view, "newlogin");
      assert.equal(r.json.data.attr1, "");
      assert.equal("updatedAt" in r.json.data, false);
      assert.deepEqual(await configOf("unknown.example.org"), defaults);
    });

    await s.step("only the administrator can save, list or delete", async () => {
      for (const token of [distA, virtAdmin]) {
        assertCode(await save(validBody(), token), "permissionDenied");
        assertCode(await t.call("/v3/new/domain/list", {}, token), "permissionDenied");
        assertCode(
          await t.call("/v3/new/domain/delete", { host: "track.example.com" }, token),
          "permissionDenied",
        );
      }
      const anon = await t.call("/v3/new/domain/save", validBody());
      assertCode(anon, "tokenInvalid", 401);
      assert.deepEqual(await t.services.domains.list(), []);
    });

    await s.step("colours, host, addresses and paths are validated", async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ themeColor: "3b7aff" }, "themeColor"],
        [{ themeColor: "#3b7afg" }, "themeColor"],
        [{ themeColor: "#fff" }, "themeColor"],
        [{ hoverColor: "red" }, "hoverColor"],
        [{ selectedColor: "#1122334" }, "selectedColor"],
        [{ host: "bad host" }, "host"],
        [{ host: "exa_mple.com" }, "host"],
        [{ host: "" }, "host"],
        [{ host: "a.com/evil" }, "host"],
        [{ host: "x".repeat(254) }, "host"],
        [{ domainTitle: "" }, "domainTitle"],
        [{ domainTitle: "t".repeat(61) }, "domainTitle"],
        [{ defaultLanguage: "fr" }, "defaultLanguage"],
        [{ resourceDomain: "ftp://cdn.example.com" }, "resourceDomain"],
        [{ resourceDomain: "javascript:alert(1)" }, "resourceDomain"],
        [{ attr1: "a b.png" }, "attr1"],
        [{ siteIcon: '"><script>' }, "siteIcon"],
        [{ owner: "me" }, "owner"],
      ];
      for (const [patch, field] of cases) {
        const r = await save(validBody(patch));
        assertCode(r, "illegalParameter");
        assert.equal(r.json.data.field, field, JSON.stringify(patch));
      }
      const { siteIcon: _s, ...missing } = validBody();
      assert.equal((await save(missing)).json.data.field, "siteIcon");
      assert.deepEqual(await t.services.domains.list(), []);
    });

    await s.step("a host's configuration applies by the Host of the request", async () => {
      assertOk(await save(validBody()));
      const own = await configOf("track.example.com");
      assert.equal(own.domainTitle, "Fleet One");
      assert.equal(own.themeColor, "#112233");
      assert.equal(own.defaultLanguage, "zh");
      // Image fields come back as full addresses (spec §3), or "" when unset.
      assert.equal(own.attr1, "https://cdn.example.com/tracker/domain/background/bg/login.jpg");
      assert.equal(own.domainLogin, "https://cdn.example.com/tracker/domain/logo.png");
      assert.equal(own.siteIcon, "https://cdn.example.com/tracker/domain/icon.png");
      assert.equal(own.twoDimensionalCodeImage, "");
      assert.equal(own.loginPageIllustration, "");
      // The port and the case of the host do not matter; other hosts keep the defaults.
      assert.deepEqual(await configOf("track.example.com:8443"), own);
      assert.deepEqual(await configOf("TRACK.Example.COM"), own);
      assert.equal((await configOf("other.example.com")).domainTitle, "Tracking Platform");
      // The administrator's list keeps the raw paths for editing.
      const list = await t.call("/v3/new/domain/list", {}, admin);
      assertOk(list);
      assert.equal(list.json.data.defaults.domainTitle, "Tracking Platform");
      assert.equal(list.json.data.list.length, 1);
      assert.equal(list.json.data.list[0].attr1, "bg/login.jpg");
      assert.ok(list.json.data.list[0].updatedAt);
    });

    await s.step("the host's default language applies unless a locale is chosen", async () => {
      const url = "http://track.example.com/v3/new/account/current";
      const zh = await (await t.app.request(url)).json();
      assert.equal(zh.code, CATALOGUE.tokenInvalid);
      assert.equal(zh.msg, RESOURCES.zh.errors.tokenInvalid);
      const en = await (await t.app.request(url, { headers: { cookie: "locale=en" } })).json();
      assert.equal(en.msg, RESOURCES.en.errors.tokenInvalid);
      const other = await (await t.app.request("http://other.example.com/v3/new/account/current"))
        .json();
      assert.equal(other.msg, RESOURCES.en.errors.tokenInvalid);
    });

    await s.step("saving again replaces the configuration at once", async () => {
      assertOk(await save(validBody({ domainTitle: "Fleet Two", attr1: "" })));
      const own = await configOf("track.example.com");
      assert.equal(own.domainTitle, "Fleet Two");
      assert.equal(own.attr1, "");
      assert.equal((await t.services.domains.list()).length, 1);
    });

    await s.step('"*" is the fallback for hosts without their own entry', async () => {
      assertOk(
        await save(validBody({ host: "*", domainTitle: "Everywhere", resourceDomain: "" })),
      );
      const other = await configOf("other.example.com");
      assert.equal(other.domainTitle, "Everywhere");
      // Without a resource domain the address is this server's (as the request reached it).
      assert.equal(other.attr1, "http://other.example.com/tracker/domain/background/bg/login.jpg");
      assert.equal((await configOf("track.example.com")).domainTitle, "Fleet Two");
      assertOk(await t.call("/v3/new/domain/delete", { host: "*" }, admin));
      assert.equal((await configOf("other.example.com")).domainTitle, "Tracking Platform");
      assertOk(await t.call("/v3/new/domain/delete", { host: "track.example.com" }, admin));
      assert.equal((await configOf("track.example.com")).domainTitle, "Tracking Platform");
    });

    await s.step("random Host names cannot grow the cache without bound", async () => {
      for (let i = 0; i < 1200; i++) {
        await t.services.domains.forHost(`h${i}.example.net`);
      }
      const cache = (t.services.domains as unknown as { cache: Map<string, unknown> }).cache;
      assert.ok(cache.size <= 500, String(cache.size));
    });
  } finally {
    await t.close();
  }
});

Deno.test("imageUrl joins the resource domain and the folder", () => {
  const c = { ...DEFAULT_DOMAIN, resourceDomain: "https://cdn.example.com/" };
  assert.equal(imageUrl({ ...c, attr1: "" }, "attr1"), "");
  assert.equal(
    imageUrl({ ...c, attr1: "/bg.jpg" }, "attr1"),
    "https://cdn.example.com/tracker/domain/background/bg.jpg",
  );
  assert.equal(
    imageUrl({ ...c, demoPageIllustration: "demo/x.png" }, "demoPageIllustration"),
    "https://cdn.example.com/tracker/domain/demo/x.png",
  );
});

Deno.test("DomainStore.forHost: own entry, then '*', then defaults", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tp-domains-" });
  const kv = await openTestKv(`${dir}/d.kv`);
  try {
    const store = new DomainStore(kv);
    assert.equal((await store.forHost("a.example.com")).domainTitle, "Tracking Platform");
    await store.save({ ...DEFAULT_DOMAIN, host: "*", domainTitle: "Star" });
    assert.equal((await store.forHost("a.example.com")).domainTitle, "Star");
    await store.save({ ...DEFAULT_DOMAIN, host: "A.Example.com", domainTitle: "Own" });
    assert.equal((await store.forHost("a.example.com:80")).domainTitle, "Own");
    await store.remove("a.example.com");
    assert.equal((await store.forHost("a.example.com")).domainTitle, "Star");
  } finally {
    kv.close();
    await Deno.remove(dir, { recursive: true });
  }
});
