/** The credits API on a real KV file: free credits, buying with coins, sharing, the log. */
import assert from "node:assert/strict";
import { testApp } from "../../tests/helpers/harness.ts";
import { asAdmin, code, ok, PASSWORD } from "../devices/test_support.ts";
import { WalletStore } from "../wallet/store.ts";
import { MAX_SHARED_ACCOUNTS } from "./model.ts";
import { CreditStore } from "./store.ts";

const C = "/v3/new/credits";
const W = "/v3/new/wallet";

/** admin → dist (8) → ent (9) → end (12); admin → other (8). */
async function setup() {
  const app = await testApp({ FREE_PUSHES_PER_MONTH: "1" });
  const { admin, adminId, add } = await asAdmin(app);
  const dist = await add("cr_dist", adminId, 8);
  const ent = await add("cr_ent", dist, 9);
  const end = await add("cr_end", ent, 12);
  const other = await add("cr_other", adminId, 8);
  return {
    app,
    ids: { adminId, dist, ent, end, other },
    tokens: {
      admin,
      dist: await app.login("cr_dist", PASSWORD),
      ent: await app.login("cr_ent", PASSWORD),
      other: await app.login("cr_other", PASSWORD),
    },
  };
}

Deno.test("credits API", async (t) => {
  const { app, ids, tokens } = await setup();
  const call = app.call;
  const credits = async (token: string, userId?: string) =>
    ok(await call(`${C}/balance`, userId ? { userId } : {}, token));
  const coins = async (token: string) => ok(await call(`${W}/balance`, {}, token)).coins;
  try {
    await t.step("a new account has 50 free credits, logged once", async () => {
      // Granted when the account was created (the accountCreated event), before any read.
      const created = ok(await call(`${C}/log`, {}, tokens.dist));
      assert.deepEqual(created.list.map((e: { kind: string }) => e.kind), ["free"]);
      const b = await credits(tokens.dist);
      assert.equal(b.credits, 50);
      assert.equal(b.coinsPerCredit, 0.014);
      assert.equal(b.usdPerCredit, 0.007);
      assert.equal((await credits(tokens.dist)).credits, 50);
      const log = ok(await call(`${C}/log`, {}, tokens.dist));
      assert.equal(log.total, 1);
      assert.deepEqual([log.list[0].kind, log.list[0].credits], ["free", 50]);
      // A superior reads an account below it; the account's own read agrees.
      assert.equal((await credits(tokens.dist, ids.end)).credits, 50);
    });

    await t.step("coins buy whole credits, rounded down; only their price is taken", async () => {
      ok(await call(`${W}/allocate`, { targetUserId: ids.dist, coins: 10 }, tokens.admin));
      // 0.5 coins: 35.7 credits → 35, which cost 0.49 coins (1 credit = 0.014 coins).
      const r = ok(await call(`${C}/buy`, { coins: 0.5 }, tokens.dist));
      assert.deepEqual(r, { bought: 35, coinsPaid: 0.49, credits: 85 });
      assert.equal(await coins(tokens.dist), 9.51);
      // Asking for credits: 10 credits cost 0.14 coins.
      assert.equal(ok(await call(`${C}/buy`, { credits: 10 }, tokens.dist)).credits, 95);
      assert.equal(await coins(tokens.dist), 9.37);
      code(await call(`${C}/buy`, { coins: 0.01 }, tokens.dist), "creditsTooFewCoins");
      code(await call(`${C}/buy`, { coins: 1, credits: 5 }, tokens.dist), "illegalParameter");
      // Both logs have the purchase: the wallet's consumption and the credits log.
      const ledger = ok(await call(`${W}/ledger`, { pageNum: 1, pageSize: 10 }, tokens.dist));
      const bought = ledger.list.filter((e: { kind: string }) => e.kind === "creditsBuy");
      assert.deepEqual(bought.map((e: { coinCents: number }) => e.coinCents), [-14, -49]);
      const log = ok(await call(`${C}/log`, {}, tokens.dist)).list;
      assert.deepEqual(log.map((e: { kind: string; credits: number }) => [e.kind, e.credits]), [
        ["buy", 10],
        ["buy", 35],
        ["free", 50],
      ]);
    });

    await t.step("too few coins: refused, nothing moves", async () => {
      code(await call(`${C}/buy`, { credits: 1_000_000 }, tokens.dist), "miCoinsInsufficient");
      assert.equal(await coins(tokens.dist), 9.37);
      assert.equal((await credits(tokens.dist)).credits, 95);
      // Concurrent purchases never overdraw: 9.37 coins pay for at most 9 of 1 coin each.
      const runs = await Promise.all(
        Array.from({ length: 12 }, () => call(`${C}/buy`, { coins: 1 }, tokens.dist)),
      );
      const passed = runs.filter((r) => r.json.code === 10000).length;
      assert.equal(passed, 9);
      assert.equal(await coins(tokens.dist), 0.37);
      assert.equal((await credits(tokens.dist)).credits, 95 + 9 * 71);
    });

    await t.step("without the recharge permission buying is refused", async () => {
      const acc = (await app.services.accountStore.get(ids.other))!;
      await app.services.accountStore.update({
        ...acc,
        permissions: { ...acc.permissions, rechargeFlag: 0 },
      });
      code(await call(`${C}/buy`, { credits: 1 }, tokens.other), "permissionDenied");
    });

    await t.step("sharing: only below the caller, outside refused like a missing one", async () => {
      const shared = ok(await call(`${C}/share`, { userId: ids.ent }, tokens.dist));
      assert.deepEqual(shared.sharedWith.map((s: { account: string }) => s.account), ["cr_ent"]);
      assert.equal(shared.maxShared, MAX_SHARED_ACCOUNTS);
      ok(await call(`${C}/share`, { userId: ids.ent }, tokens.dist)); // again: no change
      code(await call(`${C}/share`, { userId: ids.other }, tokens.dist), "permissionDenied");
      code(await call(`${C}/share`, { userId: "999999" }, tokens.dist), "permissionDenied");
      code(await call(`${C}/share`, { userId: ids.dist }, tokens.dist), "permissionDenied");
      code(await call(`${C}/balance`, { userId: ids.other }, tokens.dist), "permissionDenied");
      code(await call(`${C}/log`, { userId: ids.other }, tokens.dist), "permissionDenied");
      // An account already using a pool cannot join another one.
      code(await call(`${C}/share`, { userId: ids.ent }, tokens.admin), "creditAlreadyShared");
      const view = await credits(tokens.ent);
      assert.equal(view.pool.account, "cr_dist");
    });

    await t.step("a shared account spends from the sharer's pool", async () => {
      const before = (await credits(tokens.dist)).credits;
      const svc = app.services.credits;
      assert.equal(await svc.takePush(ids.ent, "webhook"), "free"); // the month's free one
      assert.equal(await svc.takePush(ids.ent, "webhook"), "paid");
      assert.equal((await credits(tokens.dist)).credits, before - 1);
      assert.equal((await credits(tokens.ent)).credits, 50);
      const [entry] = ok(await call(`${C}/log`, {}, tokens.dist)).list;
      assert.deepEqual(
        [entry.kind, entry.credits, entry.spenderId, entry.spenderAccount, entry.detail],
        ["push", -1, ids.ent, "cr_ent", "webhook"],
      );
      const pushes = (await credits(tokens.ent)).pushes;
      assert.deepEqual([pushes.free, pushes.paid, pushes.skipped, pushes.quota], [1, 1, 0, 1]);
    });

    await t.step("a pool is shared with at most 100 accounts", async () => {
      // 98 more members (the store's own records), plus cr_ent: 99; cr_end is the 100th.
      const store = new CreditStore(app.services.kv, new WalletStore(app.services.kv));
      for (let i = 0; i < MAX_SHARED_ACCOUNTS - 2; i++) {
        assert.equal(await store.share(ids.dist, `90000${i}`, MAX_SHARED_ACCOUNTS, ids.dist), "ok");
      }
      ok(await call(`${C}/share`, { userId: ids.end }, tokens.dist));
      const { add } = await asAdmin(app);
      const late = await add("cr_late", ids.ent, 12);
      const r = await call(`${C}/share`, { userId: late }, tokens.dist);
      code(r, "creditShareLimit");
      assert.match(r.json.msg, /100/);
      ok(await call(`${C}/unshare`, { userId: ids.end }, tokens.dist));
      ok(await call(`${C}/share`, { userId: late }, tokens.dist));
      // Moved out of the subtree, the account can still be let go by its sharer.
      ok(await call("/v3/new/account/move", { ids: [late], targetId: ids.other }, tokens.admin));
      code(await call(`${C}/share`, { userId: late }, tokens.dist), "permissionDenied");
      const left = ok(await call(`${C}/unshare`, { userId: late }, tokens.dist));
      assert.equal(left.sharedWith.length, MAX_SHARED_ACCOUNTS - 1);
    });

    await t.step("unshare: the account spends its own credits again", async () => {
      ok(await call(`${C}/unshare`, { userId: ids.ent }, tokens.dist));
      code(await call(`${C}/unshare`, { userId: ids.ent }, tokens.dist), "creditNotShared");
      assert.equal((await credits(tokens.ent)).pool, null);
      assert.equal(await app.services.credits.takePush(ids.ent, "mail"), "paid");
      assert.equal((await credits(tokens.ent)).credits, 49);
    });
  } finally {
    await app.close();
  }
});
