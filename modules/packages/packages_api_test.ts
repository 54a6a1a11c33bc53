/** Business centre packages through the API on a real KV file. */
import assert from "node:assert/strict";
import { testApp } from "../../tests/helpers/harness.ts";
import { asAdmin, code, ok, PASSWORD } from "../devices/test_support.ts";

const P = "/v3/new/package";
const W = "/v3/new/wallet";

const yearly = {
  name: "Yearly + SMS",
  price: 9.9,
  currency: "EUR",
  months: 12,
  smsCount: 100,
  coins: 20,
  discount: 0.5,
};
const quarter = {
  name: "Quarter",
  price: 300,
  currency: "JPY",
  months: 3,
  smsCount: 0,
  coins: 5,
  discount: 1,
};

Deno.test("packages API", async (t) => {
  const app = await testApp();
  const call = app.call;
  try {
    const { admin, adminId, add } = await asAdmin(app);
    const dist = await add("pk_dist", adminId, 8);
    const ent = await add("pk_ent", dist, 9);
    await add("pk_other", adminId, 8);
    const tokens = {
      dist: await app.login("pk_dist", PASSWORD),
      ent: await app.login("pk_ent", PASSWORD),
      other: await app.login("pk_other", PASSWORD),
    };
    const balance = async (token: string) => ok(await call(`${W}/balance`, {}, token));
    let adminPkg = "";
    let distPkg = "";

    await t.step("administrators and distributors define packages; others cannot", async () => {
      adminPkg = ok(await call(`${P}/add`, yearly, admin)).id;
      distPkg = ok(await call(`${P}/add`, quarter, tokens.dist)).id;
      code(await call(`${P}/add`, quarter, tokens.ent), "permissionDenied");
      code(await call(`${P}/add`, { ...quarter, discount: 0 }, tokens.dist), "illegalParameter");
      code(await call(`${P}/add`, { ...quarter, discount: 1.5 }, tokens.dist), "illegalParameter");
      code(
        await call(`${P}/add`, { ...quarter, currency: "CNY" }, tokens.dist),
        "illegalParameter",
      );
      code(await call(`${P}/add`, { ...quarter, months: 7 }, tokens.dist), "illegalParameter");
    });

    await t.step("a sub-account sees the packages offered from above, at their cost", async () => {
      const mine = ok(await call(`${P}/list`, {}, tokens.ent));
      assert.equal(mine.canOffer, false);
      assert.deepEqual(mine.own, []);
      const byName = Object.fromEntries(
        mine.offered.map((p: { name: string }) => [p.name, p]),
      );
      assert.equal(byName["Yearly + SMS"].cost, 10, "20 coins × 0.5");
      assert.equal(byName["Yearly + SMS"].currency, "EUR");
      assert.equal(byName["Yearly + SMS"].seller, "admin");
      assert.equal(byName.Quarter.seller, "pk_dist");
      const other = ok(await call(`${P}/list`, {}, tokens.other));
      assert.deepEqual(other.offered.map((p: { id: string }) => p.id), [adminPkg]);
      assert.equal(other.canOffer, true);
    });

    await t.step("buying pays coins × discount and grants the card and SMS credits", async () => {
      code(await call(`${P}/buy`, { id: adminPkg }, tokens.dist), "miCoinsInsufficient");
      ok(await call(`${W}/allocate`, { targetUserId: dist, coins: 10 }, admin));
      const creditsBefore = ok(await call("/v3/new/homepage/queryMiCoinsBalance", {}, tokens.dist))
        .credits;
      const after = ok(await call(`${P}/buy`, { id: adminPkg }, tokens.dist));
      assert.equal(after.coins, 0);
      assert.equal(after.cards["1y"], 1);
      const shell = ok(await call("/v3/new/homepage/queryMiCoinsBalance", {}, tokens.dist));
      assert.equal(shell.credits, creditsBefore + 100, "100 SMS granted as credits");
      code(await call(`${P}/buy`, { id: distPkg }, tokens.dist), "cannotSellToSelf");
      code(await call(`${P}/buy`, { id: distPkg }, tokens.other), "packageNotFound");
    });

    await t.step("a distributor's sale moves its own card and receives the coins", async () => {
      ok(await call(`${W}/allocate`, { targetUserId: ent, coins: 5 }, admin));
      code(await call(`${P}/buy`, { id: distPkg }, tokens.ent), "rechargeCardsInsufficient");
      assert.equal((await balance(tokens.ent)).coins, 5, "a refused sale changes nothing");
      ok(await call(`${W}/allocate`, { targetUserId: dist, cards: { "3m": 1 } }, admin));
      const bought = ok(await call(`${P}/buy`, { id: distPkg }, tokens.ent));
      assert.equal(bought.coins, 0);
      assert.equal(bought.cards["3m"], 1);
      const seller = await balance(tokens.dist);
      assert.equal(seller.coins, 5);
      assert.equal(seller.cards["3m"], 0);
      const bought2 = ok(await call(`${W}/log`, { view: "consumption" }, tokens.ent));
      assert.equal(bought2.list[0].kind, "packageBuy");
      assert.equal(bought2.list[0].packageName, "Quarter");
      const sold = ok(await call(`${W}/log`, { view: "business" }, tokens.dist));
      assert.equal(sold.list[0].kind, "packageSale");
      assert.equal(sold.list[0].counterpart, "pk_ent");
    });

    await t.step("only the owner updates or deletes its packages", async () => {
      code(
        await call(`${P}/update`, { ...quarter, id: distPkg, coins: 6 }, tokens.other),
        "packageNotFound",
      );
      const changed = ok(
        await call(`${P}/update`, { ...quarter, id: distPkg, coins: 6 }, tokens.dist),
      );
      assert.equal(changed.coins, 6);
      code(await call(`${P}/delete`, { id: adminPkg }, tokens.dist), "packageNotFound");
      ok(await call(`${P}/delete`, { id: distPkg }, tokens.dist));
      assert.deepEqual(ok(await call(`${P}/list`, {}, tokens.dist)).own, []);
    });
  } finally {
    await app.close();
  }
});
