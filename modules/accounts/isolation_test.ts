/**
 * The isolation matrix: for every account endpoint, a caller from the sibling subtree (distB
 * and a virtual account of distB) is refused and nothing changes, while distA succeeds on
 * its own subtree. The endpoint list comes from the route registry, so a new endpoint under
 * /v3/new/account/ without a matrix entry fails this test.
 */
import assert from "node:assert/strict";
import { createApp } from "../../app/app.ts";
import { CATALOGUE, type ErrorName } from "../../lib/errors.ts";
import { ApiRegistry, type RouteDef } from "../../lib/http/api.ts";
import { type TestApp, testApp } from "../../tests/helpers/harness.ts";
import { registerAccountRoutes } from "./routes.ts";
import { REPORT_NAMES } from "../reports/model.ts";
import { assertCode, assertOk, buildTree, PASSWORD, snapshot, type Tree } from "./test_support.ts";

const PREFIX = "/v3/new/account/";

interface Ctx {
  t: TestApp;
  tree: Tree;
  /** Ids created by earlier steps. */
  made: Record<string, string>;
}

/** A call aimed at the other subtree; `expect` lists the acceptable refusals. */
interface Attempt {
  input: Record<string, unknown>;
  expect: ErrorName[];
}

type Entry =
  /** Acts on an account named in the input: refused across subtrees, allowed below. */
  | {
    kind: "target";
    foreign: (x: Ctx) => Attempt[];
    own: (x: Ctx) => Promise<void>;
  }
  /** Acts only on the caller itself: show that the input cannot reach anyone else. */
  | { kind: "self"; check: (x: Ctx) => Promise<void> }
  /** No session at all (captcha, login). */
  | { kind: "public"; check: (x: Ctx) => Promise<void> };

const NEW_PASSWORD = "Changed123";

async function invoke(
  x: Ctx,
  path: string,
  input: Record<string, unknown>,
  token: string,
): Promise<{ status: number; json: { code: number; msg: string; data: unknown } | null }> {
  const route = routeOf(path);
  if (route.method === "get") {
    const qs = new URLSearchParams(input as Record<string, string>).toString();
    return await x.t.call(`${path}${qs ? `?${qs}` : ""}`, undefined, token);
  }
  return await x.t.call(path, input, token);
}

let registry: RouteDef[] = [];
const routeOf = (path: string) => {
  const r = registry.find((d) => d.path === path);
  assert.ok(r, `no route ${path}`);
  return r;
};

const MATRIX: Record<string, Entry> = {
  "/v3/new/account/add": {
    kind: "target",
    foreign: ({ tree: { ids } }) => [
      {
        input: {
          account: "intruder1",
          nickName: "intruder",
          password: PASSWORD,
          accountType: 12,
          parentId: ids.entA,
        },
        expect: ["permissionDenied"],
      },
      {
        input: {
          account: "intruder2",
          nickName: "intruder",
          password: PASSWORD,
          accountType: 12,
          parentId: ids.vA,
        },
        expect: ["permissionDenied"],
      },
    ],
    own: async ({ t, tree: { ids, tokens }, made }) => {
      const r = await t.call("/v3/new/account/add", {
        account: "newUnderEntA",
        nickName: "newUnderEntA",
        password: PASSWORD,
        accountType: 12,
        parentId: ids.entA,
      }, tokens.distA);
      assertOk(r);
      const created = await t.services.accountStore.get(r.json.data.id);
      assert.equal(created?.parentId, ids.entA);
      made.newUnderEntA = r.json.data.id;
    },
  },
  "/v3/new/account/update": {
    kind: "target",
    foreign: ({ tree: { ids } }) => [
      { input: { id: ids.entA, nickName: "hacked" }, expect: ["permissionDenied"] },
      { input: { id: ids.userA, permissions: { webLogin: 0 } }, expect: ["permissionDenied"] },
      { input: { id: ids.distA, nickName: "hacked" }, expect: ["permissionDenied"] },
    ],
    own: async ({ t, tree: { ids, tokens } }) => {
      assertOk(
        await t.call("/v3/new/account/update", { id: ids.entA, contact: "Ann" }, tokens.distA),
      );
      assert.equal((await t.services.accountStore.get(ids.entA))?.contact, "Ann");
    },
  },
  "/v3/new/account/delete": {
    kind: "target",
    foreign: ({ tree: { ids } }) => [
      { input: { id: ids.spareA }, expect: ["permissionDenied"] },
      { input: { id: ids.vA2 }, expect: ["permissionDenied"] },
    ],
    own: async ({ t, tree: { ids, tokens } }) => {
      assertOk(await t.call("/v3/new/account/delete", { id: ids.spareA }, tokens.distA));
      assert.equal(await t.services.accountStore.get(ids.spareA), null);
    },
  },
  "/v3/new/account/move": {
    kind: "target",
    foreign: ({ tree: { ids } }) => [
      // Taking an account of the other subtree.
      { input: { ids: [ids.userA], targetId: ids.entB }, expect: ["transferNotUnderLoginAccount"] },
      // Pushing an own account into the other subtree.
      { input: { ids: [ids.entB], targetId: ids.entA }, expect: ["transferNotUnderLoginAccount"] },
      // Moving the other subtree's root.
      {
        input: { ids: [ids.distA], targetId: ids.distB },
        expect: ["transferNotUnderLoginAccount"],
      },
    ],
    own: async ({ t, tree: { ids, tokens } }) => {
      assertOk(
        await t.call(
          "/v3/new/account/move",
          { ids: [ids.userA], targetId: ids.distA },
          tokens.distA,
        ),
      );
      const moved = await t.services.accountStore.get(ids.userA);
      assert.equal(moved?.parentId, ids.distA);
      assert.equal(moved?.fullParentId, `,${ids.admin},${ids.distA},`);
    },
  },
  "/v3/new/account/resetPassword": {
    kind: "target",
    foreign: ({ tree: { ids } }) => [
      {
        input: { id: ids.entA, password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD },
        expect: ["permissionDenied"],
      },
      {
        input: { id: ids.vA, password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD },
        expect: ["permissionDenied"],
      },
    ],
    own: async ({ t, tree: { ids, tokens } }) => {
      const r = await t.call("/v3/new/account/resetPassword", {
        id: ids.entA,
        password: NEW_PASSWORD,
        confirmPassword: NEW_PASSWORD,
      }, tokens.distA);
      assertOk(r);
      // The old sessions end; the new password works.
      assert.equal((await t.call("/v3/new/account/current", undefined, tokens.entA)).status, 401);
      await t.login("entA", NEW_PASSWORD);
    },
  },
  "/v3/new/account/changePassword": {
    kind: "self",
    check: async ({ t, tree: { ids, tokens } }) => {
      // The body cannot name another account.
      const r = await t.call("/v3/new/account/changePassword", {
        id: ids.distA,
        oldPassword: PASSWORD,
        newPassword: NEW_PASSWORD,
        confirmPassword: NEW_PASSWORD,
      }, tokens.distB);
      assertCode(r, "illegalParameter");
      assert.equal(r.json.data.field, "id");
    },
  },
  "/v3/new/account/updateProfile": {
    kind: "self",
    check: async ({ t, tree: { ids, tokens } }) => {
      const before = await t.services.accountStore.get(ids.distA);
      const r = await t.call(
        "/v3/new/account/updateProfile",
        { id: ids.distA, contact: "x" },
        tokens.distB,
      );
      assertCode(r, "illegalParameter");
      assert.equal(r.json.data.field, "id");
      assertOk(await t.call("/v3/new/account/updateProfile", { contact: "Bob" }, tokens.distB));
      assert.equal((await t.services.accountStore.get(ids.distB))?.contact, "Bob");
      assert.deepEqual(await t.services.accountStore.get(ids.distA), before);
    },
  },
  "/v3/new/account/children": {
    kind: "target",
    foreign: ({ tree: { ids } }) => [
      { input: { parentId: ids.distA }, expect: ["permissionDenied"] },
      { input: { parentId: ids.entA, directOnly: true }, expect: ["permissionDenied"] },
      { input: { parentId: ids.admin }, expect: ["permissionDenied"] },
    ],
    own: async ({ t, tree: { ids, tokens }, made }) => {
      const r = await t.call("/v3/new/account/children", { parentId: ids.entA }, tokens.distA);
      assertOk(r);
      // userA was moved away and spareA deleted by earlier steps.
      assert.deepEqual(r.json.data.list.map((a: { id: string }) => a.id), [made.newUnderEntA]);
      // Without parentId, distB's own listing never shows the other subtree.
      const mine = await t.call("/v3/new/account/children", { pageSize: 100 }, tokens.distB);
      assertOk(mine);
      const seen = mine.json.data.list.map((a: { id: string }) => a.id);
      assert.deepEqual(seen, [ids.entB]);
    },
  },
  "/v3/new/account/tree": {
    kind: "target",
    foreign: ({ tree: { ids } }) => [
      { input: { parentId: ids.distA }, expect: ["permissionDenied"] },
      { input: { parentId: ids.entA }, expect: ["permissionDenied"] },
      { input: { parentId: ids.admin }, expect: ["permissionDenied"] },
    ],
    own: async ({ t, tree: { ids, tokens } }) => {
      const r = await t.call("/v3/new/account/tree", { parentId: ids.distA }, tokens.distA);
      assertOk(r);
      assert.ok(r.json.data.some((n: { id: string }) => n.id === ids.entA));
      const top = await t.call("/v3/new/account/tree", {}, tokens.distB);
      assert.deepEqual(top.json.data.map((n: { id: string }) => n.id), [ids.entB]);
    },
  },
  "/v3/new/account/detail": {
    kind: "target",
    foreign: ({ tree: { ids } }) => [
      { input: { id: ids.entA }, expect: ["permissionDenied"] },
      { input: { id: ids.vA }, expect: ["permissionDenied"] },
      { input: { id: ids.admin }, expect: ["permissionDenied"] },
      // A missing id is refused the same way, so ids cannot be probed.
      { input: { id: "999999" }, expect: ["permissionDenied"] },
    ],
    own: async ({ t, tree: { ids, tokens } }) => {
      const r = await t.call(`/v3/new/account/detail?id=${ids.entA}`, undefined, tokens.distA);
      assertOk(r);
      assert.equal(r.json.data.id, ids.entA);
      assert.equal(r.json.data.parentAccount, "distA");
      assert.equal(r.json.data.passwordHash, undefined);
    },
  },
  "/v3/new/account/forceLogout": {
    kind: "target",
    foreign: ({ tree: { ids } }) => [
      { input: { id: ids.entA }, expect: ["permissionDenied"] },
      { input: { id: ids.vA }, expect: ["permissionDenied"] },
      { input: { id: ids.distA }, expect: ["permissionDenied"] },
    ],
    own: async ({ t, tree: { ids, tokens } }) => {
      const victim = await t.login("virtEntA", PASSWORD);
      const r = await t.call("/v3/new/account/forceLogout", { id: ids.vEntA }, tokens.distA);
      assertOk(r);
      assert.equal(r.json.data.sessions, 1);
      assert.equal((await t.call("/v3/new/account/current", undefined, victim)).status, 401);
    },
  },
  "/v3/new/account/virtual/add": {
    kind: "self",
    check: async ({ t, tree: { ids, tokens } }) => {
      // The master is always the caller: the body cannot choose one.
      const r = await t.call("/v3/new/account/virtual/add", {
        account: "virtIntruder",
        nickName: "virtIntruder",
        password: PASSWORD,
        scope: { instructionsFlag: 1, updateFlag: 1, videoFlag: 1 },
        masterId: ids.distA,
      }, tokens.distB);
      assertCode(r, "illegalParameter");
      assert.equal(r.json.data.field, "masterId");
    },
  },
  "/v3/new/account/virtual/list": {
    kind: "self",
    check: async ({ t, tree: { ids, tokens } }) => {
      for (const token of [tokens.distB, tokens.vB]) {
        const r = await t.call("/v3/new/account/virtual/list", {}, token);
        assertOk(r);
        assert.deepEqual(r.json.data.map((v: { id: string }) => v.id), [ids.vB]);
      }
      const own = await t.call("/v3/new/account/virtual/list", {}, tokens.distA);
      assert.ok(own.json.data.some((v: { id: string }) => v.id === ids.vA));
    },
  },
  "/v3/new/account/virtual/update": {
    kind: "target",
    foreign: ({ tree: { ids } }) => [
      { input: { id: ids.vA, nickName: "hacked" }, expect: ["permissionDenied"] },
      {
        input: { id: ids.vEntA, scope: { instructionsFlag: 0, updateFlag: 0, videoFlag: 0 } },
        expect: ["permissionDenied"],
      },
      // A real account is not a virtual one.
      { input: { id: ids.entA, nickName: "hacked" }, expect: ["permissionDenied"] },
    ],
    own: async ({ t, tree: { ids, tokens } }) => {
      const r = await t.call("/v3/new/account/virtual/update", {
        id: ids.vEntA,
        nickName: "renamedV",
      }, tokens.distA);
      assertOk(r);
      assert.equal((await t.services.accountStore.get(ids.vEntA))?.nickName, "renamedV");
    },
  },
  "/v3/new/account/virtual/delete": {
    kind: "target",
    foreign: ({ tree: { ids } }) => [
      { input: { id: ids.vA2 }, expect: ["permissionDenied"] },
      { input: { id: ids.vEntA }, expect: ["permissionDenied"] },
      { input: { id: ids.entA }, expect: ["permissionDenied"] },
    ],
    own: async ({ t, tree: { ids, tokens } }) => {
      assertOk(await t.call("/v3/new/account/virtual/delete", { id: ids.vA2 }, tokens.distA));
      assert.equal(await t.services.accountStore.get(ids.vA2), null);
      assert.equal(await t.services.accountStore.findIdByLogin("virtA2"), null);
    },
  },

  // Session routes that live under the same prefix (modules/auth/routes.ts).
  "/v3/new/account/captcha": {
    kind: "public",
    check: async ({ t }) => assertOk(await t.call("/v3/new/account/captcha")),
  },
  "/v3/new/account/login": {
    kind: "public",
    check: async ({ t }) => {
      // Logging in never borrows another account: wrong password for distA stays refused.
      assertCode(
        await t.call("/v3/new/account/login", { account: "distA", password: "Wrong1234" }),
        "wrongCredentials",
      );
      // Clear the failure so later steps are unaffected.
      await t.services.authStore.clearFailures("distA");
    },
  },
  "/v3/new/account/logout": {
    kind: "self",
    check: async ({ t, tree: { tokens } }) => {
      // Logging out distB's extra session leaves distA's session alone.
      const extra = await t.login("distB", PASSWORD);
      assertOk(await t.call("/v3/new/account/logout", {}, extra));
      assert.equal((await t.call("/v3/new/account/current", undefined, extra)).status, 401);
      assertOk(await t.call("/v3/new/account/current", undefined, tokens.distA));
    },
  },
  "/v3/new/account/current": {
    kind: "self",
    check: async ({ t, tree: { ids, tokens } }) => {
      // A query naming another account is ignored: it is always the caller.
      const r = await t.call(`/v3/new/account/current?id=${ids.distA}`, undefined, tokens.distB);
      assertOk(r);
      assert.equal(r.json.data.id, ids.distB);
      const v = await t.call("/v3/new/account/current", undefined, tokens.vB);
      assert.equal(v.json.data.id, ids.vB);
      assert.equal(v.json.data.userId, ids.distB);
    },
  },
  "/v3/new/account/loginLogs": {
    kind: "self",
    check: async ({ t, tree: { ids, tokens } }) => {
      const r = await t.call("/v3/new/account/loginLogs", { accountId: ids.distA }, tokens.distB);
      assertCode(r, "illegalParameter");
      assert.equal(r.json.data.field, "accountId");
      const own = await t.call("/v3/new/account/loginLogs", {}, tokens.distB);
      assertOk(own);
      assert.ok(own.json.data.items.length > 0);
      assert.ok(
        own.json.data.items.every((e: { accountId: string }) => e.accountId === ids.distB),
      );
    },
  },
};

Deno.test("isolation matrix covers every account endpoint", async () => {
  const t = await testApp();
  try {
    let full: ApiRegistry | undefined;
    createApp(t.services, (parts) => (full = parts.api));
    const registered = full!.routes.filter((r) => r.path.startsWith(PREFIX)).map((r) => r.path);
    assert.equal(new Set(registered).size, registered.length, "one method per account path");
    assert.deepEqual(Object.keys(MATRIX).sort(), registered.sort());

    // Every route of the accounts module itself acts on accounts: none may be public.
    const own = new ApiRegistry();
    registerAccountRoutes(own, t.services);
    for (const r of own.routes) {
      assert.ok(MATRIX[r.path], `matrix entry for ${r.path}`);
      assert.notEqual(MATRIX[r.path].kind, "public", r.path);
      assert.equal(r.access ?? "session", "session", r.path);
    }
  } finally {
    await t.close();
  }
});

Deno.test("isolation matrix: the sibling subtree is refused, the own subtree succeeds", async (s) => {
  const t = await testApp();
  let full: ApiRegistry | undefined;
  createApp(t.services, (parts) => (full = parts.api));
  registry = full!.routes;
  const x: Ctx = { t, tree: await buildTree(t), made: {} };
  const intruders = { distB: x.tree.tokens.distB, virtualOfDistB: x.tree.tokens.vB };
  try {
    for (const [path, entry] of Object.entries(MATRIX)) {
      await s.step(path, async () => {
        if (entry.kind !== "target") return await entry.check(x);
        for (const [who, token] of Object.entries(intruders)) {
          const attempts: Attempt[] = entry.foreign(x);
          for (const attempt of attempts) {
            const before = await snapshot(t.services.kv);
            const r = await invoke(x, path, attempt.input, token);
            const label: string = `${who} ${path} ${JSON.stringify(attempt.input)} → ${
              JSON.stringify(r.json)
            }`;
            // A virtual account never manages accounts: the need guard refuses it first.
            const expect: ErrorName[] =
              who === "virtualOfDistB" && routeOf(path).need === "manageAccounts"
                ? ["permissionDenied"]
                : attempt.expect;
            assert.equal(r.status, 200, label);
            assert.ok(
              expect.map((e) => CATALOGUE[e] as number).includes(r.json?.code ?? -1),
              `${label}: expected one of ${expect}`,
            );
            assert.equal(await snapshot(t.services.kv), before, `${label}: nothing may change`);
          }
        }
        await entry.own(x);
      });
    }
  } finally {
    await t.close();
  }
});

Deno.test("isolation: no token means 401 on every session route under the prefix", async () => {
  const t = await testApp();
  try {
    let full: ApiRegistry | undefined;
    createApp(t.services, (parts) => (full = parts.api));
    for (const r of full!.routes.filter((r) => r.path.startsWith(PREFIX))) {
      if ((r.access ?? "session") !== "session") continue;
      const res = await t.app.request(r.path, {
        method: r.method.toUpperCase(),
        headers: { "content-type": "application/json" },
        body: r.method === "get" ? undefined : "{}",
      });
      assert.equal(res.status, 401, `${r.method} ${r.path}`);
      assert.equal((await res.json()).code, CATALOGUE.tokenInvalid);
    }
  } finally {
    await t.close();
  }
});

// --- Report routes (issue 17) -------------------------------------------------------------------

const REPORT_PREFIX = "/v3/new/report/";
/** entA's device (distA's subtree) and distB's own. */
const REPORT_DEV_A = "359710049790101";
const REPORT_DEV_B = "359710049790119";

/**
 * What a caller of the sibling subtree sends to each report route, and the refusal: a query
 * naming a device outside the caller's tree is refused whole (alone or beside its own device),
 * an account outside it is refused. null: a route about the caller's own list only.
 */
function reportAttempts(path: string, ids: Tree["ids"]): Attempt[] | null {
  const now = Date.now();
  const range = {
    startTime: new Date(now - 3_600_000).toISOString(),
    endTime: new Date(now).toISOString(),
  };
  const devices = (extra: Record<string, unknown>): Attempt[] =>
    [[REPORT_DEV_A], [REPORT_DEV_B, REPORT_DEV_A]].map((imeis) => ({
      input: { imeis, ...range, ...extra },
      expect: ["deviceNoPermission"],
    }));
  const name = path.slice(REPORT_PREFIX.length);
  if (name === "overview/device") {
    return [{ input: { userId: ids.entA }, expect: ["permissionDenied"] }];
  }
  if (name === "overview/moving" || name === "overview/alert") return devices({});
  if (name === "myReports/get" || name === "myReports/set") return null;
  if (name === "motionRules/get") {
    return [{ input: { userId: ids.entA }, expect: ["permissionDenied"] }];
  }
  if (name === "motionRules/set") {
    return [{
      input: { userId: ids.entA, rules: { stopSeconds: 240 } },
      expect: ["permissionDenied"],
    }];
  }
  if (name === "export") {
    return [{
      input: {
        report: "trips",
        params: { imeis: [REPORT_DEV_A], ...range },
        format: "csv",
        exportType: 1,
      },
      expect: ["deviceNoPermission"],
    }];
  }
  assert.ok((REPORT_NAMES as readonly string[]).includes(name), `no matrix entry for ${path}`);
  return devices({ pageNum: 1, pageSize: 10 });
}

Deno.test("isolation matrix: report routes refuse the sibling subtree's devices and accounts", async (s) => {
  const t = await testApp();
  let full: ApiRegistry | undefined;
  createApp(t.services, (parts) => (full = parts.api));
  try {
    const tree = await buildTree(t);
    for (const [userId, imei] of [[tree.ids.entA, REPORT_DEV_A], [tree.ids.distB, REPORT_DEV_B]]) {
      assertOk(
        await t.call("/v3/new/newEquipment/importEquipment", {
          userId,
          mcType: "GT06N",
          imeis: [imei],
        }, tree.tokens.admin),
      );
    }
    const paths = full!.routes.filter((r) => r.path.startsWith(REPORT_PREFIX)).map((r) => r.path);
    for (const name of REPORT_NAMES) assert.ok(paths.includes(`${REPORT_PREFIX}${name}`), name);
    for (const path of paths) {
      await s.step(path, async () => {
        const attempts: Attempt[] | null = reportAttempts(path, tree.ids);
        if (!attempts) return;
        for (const token of [tree.tokens.distB, tree.tokens.vB]) {
          for (const attempt of attempts) {
            const before = await snapshot(t.services.kv);
            const r = await t.call(path, attempt.input, token);
            const label: string = `${path} ${JSON.stringify(attempt.input)} → ${
              JSON.stringify(r.json)
            }`;
            assert.ok(
              attempt.expect.map((e) => CATALOGUE[e] as number).includes(r.json?.code ?? -1),
              `${label}: expected one of ${attempt.expect}`,
            );
            const after = await snapshot(t.services.kv);
            assert.equal(after, before, `${label}: nothing may change`);
          }
        }
        // The owner's side of the same query succeeds (export and overviews included).
        if (path.endsWith("/export")) return;
        const own = attempts[0].input.imeis
          ? { ...attempts[0].input, imeis: [REPORT_DEV_A] }
          : { ...attempts[0].input, userId: tree.ids.entA };
        assertOk(await t.call(path, own, tree.tokens.distA));
        // New rules recompute the account's days in the background: let it finish first.
        await t.services.motion.idle();
      });
    }
    const overview = await t.call(`${REPORT_PREFIX}overview/device`, {}, tree.tokens.distB);
    assert.equal(overview.json.data.total, 1, "distB counts only its own device");
  } finally {
    await t.close();
  }
});
