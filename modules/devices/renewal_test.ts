import assert from "node:assert/strict";
import ExcelJS from "exceljs";
import { testApp } from "../../tests/helpers/harness.ts";
import { CATALOGUE } from "../../lib/errors.ts";
import { asAdmin, code, ok, PASSWORD } from "./test_support.ts";
import { addMonths } from "./renewal.ts";

const EQ = "/v3/new/newEquipment";
const W = "/v3/new/wallet";
const imeiOf = (n: number) => String(868120400000000 + n);
const today = () => new Date().toISOString().slice(0, 10);

Deno.test("addMonths clamps to the month's end and crosses years", () => {
  assert.equal(addMonths("2025-01-31", 1), "2025-02-28");
  assert.equal(addMonths("2024-01-31", 1), "2024-02-29");
  assert.equal(addMonths("2025-11-15", 3), "2026-02-15");
  assert.equal(addMonths("2025-06-30", 120), "2035-06-30");
});

/** admin → dist (8, discount 0.5) → ent (9); admin → other (8); dist → noPay (rechargeFlag 0). */
async function setup() {
  const app = await testApp();
  const { admin, adminId, add } = await asAdmin(app);
  const dist = await add("rn_dist", adminId, 8, { discount: 0.5 });
  const ent = await add("rn_ent", dist, 9);
  const other = await add("rn_other", adminId, 8);
  const noPay = await add("rn_nopay", dist, 9, { permissions: { rechargeFlag: 0 } });
  const end = await add("rn_end", ent, 12);
  const tDist = await app.login("rn_dist", PASSWORD);
  ok(
    await app.call("/v3/new/account/virtual/add", {
      account: "rn_virt",
      nickName: "rn_virt",
      password: PASSWORD,
      scope: { instructionsFlag: 1, updateFlag: 1, videoFlag: 1 },
    }, tDist),
  );
  const importTo = async (userId: string, from: number, count: number) =>
    ok(
      await app.call(`${EQ}/importEquipment`, {
        userId,
        mcType: "GT06N",
        imeis: Array.from({ length: count }, (_, i) => imeiOf(from + i)),
      }, admin),
    );
  await importTo(dist, 1, 6);
  await importTo(ent, 10, 2);
  await importTo(other, 20, 1);
  return {
    app,
    ids: { adminId, dist, ent, other, noPay, end },
    tokens: {
      admin,
      dist: tDist,
      ent: await app.login("rn_ent", PASSWORD),
      end: await app.login("rn_end", PASSWORD),
      noPay: await app.login("rn_nopay", PASSWORD),
      virt: await app.login("rn_virt", PASSWORD),
    },
  };
}

Deno.test("wallet, device renewal, platform expiry visibility and app binding API", async (t) => {
  const { app, ids, tokens } = await setup();
  const call = app.call;
  const device = (n: number) => app.services.directory.get(imeiOf(n))!;
  const setExpiry = (n: number, expiration: string | null, userExpiration: string | null = null) =>
    app.services.devices.save([{
      before: device(n),
      after: { ...device(n), expiration, userExpiration },
    }]);
  const renew = (token: string, ns: number[], term: number, payWith: "card" | "coin") =>
    call(`${EQ}/renewEquipment`, { imeis: ns.map(imeiOf), term, payWith }, token);
  try {
    await t.step(
      "the administrator issues coins and cards; others give from their balance",
      async () => {
        const b = ok(
          await call(`${W}/allocate`, {
            targetUserId: ids.dist,
            coins: 100,
            cards: { "1y": 3, "10y": 1 },
          }, tokens.admin),
        );
        assert.equal(b.unlimited, true);
        const mine = ok(await call(`${W}/balance`, {}, tokens.dist));
        assert.deepEqual(mine, {
          coins: 100,
          cards: { "3m": 0, "6m": 0, "1y": 3, "10y": 1, point: 0 },
          unlimited: false,
        });
        // The account record carries the copy the shell's balance call shows.
        const shell = ok(await call("/v3/new/homepage/queryMiCoinsBalance", {}, tokens.dist));
        assert.equal(shell.coinNumber, 100);
        assert.equal(shell.rechargeCards, 4);

        code(
          await call(`${W}/allocate`, { targetUserId: ids.dist, coins: 1 }, tokens.dist),
          "coinsToSelf",
        );
        code(
          await call(`${W}/allocate`, { targetUserId: ids.other, coins: 1 }, tokens.dist),
          "permissionDenied",
        );
        code(
          await call(`${W}/allocate`, { targetUserId: ids.ent, coins: 500 }, tokens.dist),
          "miCoinsInsufficient",
        );
        code(
          await call(`${W}/allocate`, { targetUserId: ids.ent, cards: { "6m": 1 } }, tokens.dist),
          "rechargeCardsInsufficient",
        );
        const r = await call(`${W}/allocate`, { targetUserId: ids.ent, coins: 0 }, tokens.dist);
        assert.equal(r.json.code, CATALOGUE.illegalParameter);
        ok(await call(`${W}/allocate`, { targetUserId: ids.ent, coins: 10.5 }, tokens.dist));
        assert.equal(ok(await call(`${W}/balance`, {}, tokens.dist)).coins, 89.5);
        assert.equal(ok(await call(`${W}/balance`, { userId: ids.ent }, tokens.dist)).coins, 10.5);
        code(await call(`${W}/balance`, { userId: ids.other }, tokens.dist), "permissionDenied");

        const log = ok(await call(`${W}/ledger`, { pageNum: 1, pageSize: 10 }, tokens.dist));
        assert.equal(log.total, 2);
        assert.deepEqual(log.list.map((e: { kind: string; coins: number }) => [e.kind, e.coins]), [
          ["allocateOut", -10.5],
          ["allocateIn", 100],
        ]);
      },
    );

    await t.step(
      "the ledger, not the account record's copy, blocks deleting an account",
      async () => {
        const leaf = ok(
          await call("/v3/new/account/add", {
            account: "rn_leaf",
            nickName: "rn_leaf",
            password: PASSWORD,
            accountType: 12,
            parentId: ids.dist,
          }, tokens.admin),
        ).id as string;
        ok(await call(`${W}/allocate`, { targetUserId: leaf, cards: { "3m": 1 } }, tokens.admin));
        // A stale copy on the record (an edit saved over it) does not let the account go.
        const record = (await app.services.accountStore.get(leaf))!;
        await app.services.accountStore.update({ ...record, coinNumber: 0, rechargeCards: 0 });
        code(
          await call("/v3/new/account/delete", { id: leaf }, tokens.dist),
          "contactServiceProvider",
        );
        const shell = ok(
          await call(
            "/v3/new/homepage/queryMiCoinsBalance",
            {},
            await app.login("rn_leaf", PASSWORD),
          ),
        );
        assert.equal(shell.rechargeCards, 1);
      },
    );

    await t.step("renewing needs rechargeFlag and a real user", async () => {
      code(await renew(tokens.noPay, [10], 12, "card"), "permissionDenied");
      code(await renew(tokens.virt, [1], 12, "card"), "permissionDenied");
      const bad = await call(`${EQ}/renewEquipment`, {
        imeis: [imeiOf(1)],
        term: 5,
        payWith: "card",
      }, tokens.dist);
      assert.equal(bad.json.code, CATALOGUE.illegalParameter);
    });

    await t.step(
      "a card extends from today, from the current expiry, or from today once expired",
      async () => {
        const future = addMonths(today(), 2);
        await setExpiry(2, future);
        await setExpiry(3, "2020-03-01", "2020-02-01");
        const quote = ok(
          await call(`${EQ}/renewQuote`, {
            imeis: [1, 2, 3].map(imeiOf),
            term: 12,
            payWith: "card",
          }, tokens.dist),
        );
        assert.equal(quote.total.cards, 3);
        assert.equal(quote.total.card, "1y");
        assert.equal(quote.balance.cards["1y"], 3);
        assert.equal(device(1).expiration, null, "a quote changes nothing");
        const r = ok(await renew(tokens.dist, [1, 2, 3], 12, "card"));
        assert.equal(r.renewed, 3);
        assert.deepEqual(r.results.map((x: { newExpiration: string }) => x.newExpiration), [
          addMonths(today(), 12),
          addMonths(future, 12),
          addMonths(today(), 12),
        ]);
        assert.equal(device(2).expiration, addMonths(future, 12));
        // The user expiry set by the distributor moves on by the same term.
        assert.equal(device(3).userExpiration, addMonths(today(), 12));
        assert.equal(r.balance.cards["1y"], 0);
        const log = ok(await call(`${W}/ledger`, { pageNum: 1, pageSize: 10 }, tokens.dist));
        // One consumption entry for the operation, naming each device.
        const renewals = log.list.filter((e: { kind: string }) => e.kind === "renew");
        assert.equal(renewals.length, 1);
        assert.deepEqual(renewals[0].cards, { "1y": -3 });
        assert.deepEqual(
          renewals[0].devices.map((x: { imei: string }) => x.imei),
          [1, 2, 3].map(imeiOf),
        );
      },
    );

    await t.step("not enough cards refuses the whole operation", async () => {
      const before = device(4).expiration;
      code(await renew(tokens.dist, [4, 5], 12, "card"), "rechargeCardsInsufficient");
      assert.equal(device(4).expiration, before);
    });

    await t.step("Mi coins: the model's rate times the payer's discount", async () => {
      const r = ok(await renew(tokens.dist, [4, 5], 12, "coin"));
      // Built-in rate: 10 coins a year; dist pays half.
      assert.deepEqual(r.results.map((x: { coins: number }) => x.coins), [5, 5]);
      assert.equal(r.balance.coins, 79.5);
      code(await renew(tokens.ent, [10, 11, 10], 120, "coin"), "miCoinsInsufficient");
    });

    await t.step("renewal type wrong, no rate, unit price error: per device", async () => {
      const three = ok(await renew(tokens.dist, [6], 3, "coin"));
      assert.equal(three.renewed, 0);
      assert.equal(three.results[0].code, CATALOGUE.renewalTypeWrong);
      assert.match(three.results[0].reason, /renewal type/i);
      code(
        await call(`${W}/setRate`, { mcType: "GT06N", rate: null }, tokens.dist),
        "permissionDenied",
      );
      const badRate = await call(`${W}/setRate`, {
        mcType: "GT06N",
        rate: { option: 2, prices: { "3": -1 } },
      }, tokens.admin);
      assert.equal(badRate.json.code, CATALOGUE.illegalParameter);
      ok(
        await call(
          `${W}/setRate`,
          { mcType: "GT06N", rate: { option: 2, prices: { "3": 3 } } },
          tokens.admin,
        ),
      );
      const q = ok(
        await call(
          `${EQ}/renewQuote`,
          { imeis: [imeiOf(6)], term: 3, payWith: "coin" },
          tokens.dist,
        ),
      );
      assert.equal(q.plans[0].coins, 1.5);
      const six = ok(await renew(tokens.dist, [6], 6, "coin"));
      assert.equal(six.results[0].code, CATALOGUE.unitPriceError);
      ok(await call(`${W}/setRate`, { mcType: "GT06N", rate: null }, tokens.admin));
      const none = ok(await renew(tokens.dist, [6], 3, "coin"));
      assert.equal(none.results[0].code, CATALOGUE.noRateConfigured);
      const rates = ok(await call(`${W}/rates`, undefined, tokens.dist));
      assert.equal(rates.find((x: { mcType: string }) => x.mcType === "GT06N").rate, null);
      ok(
        await call(`${W}/setRate`, {
          mcType: "GT06N",
          rate: { option: 1, prices: { "12": 10, "120": 80 } },
        }, tokens.admin),
      );
    });

    await t.step("at most ten years of platform term", async () => {
      ok(await renew(tokens.dist, [6], 120, "card"));
      assert.equal(device(6).expiration, addMonths(today(), 120));
      ok(await call(`${W}/allocate`, { targetUserId: ids.dist, cards: { "1y": 1 } }, tokens.admin));
      const r = ok(await renew(tokens.dist, [6], 12, "card"));
      assert.equal(r.results[0].code, CATALOGUE.platformTermTooLong);
      assert.equal(r.balance.cards["1y"], 1, "nothing is charged for a refused device");
    });

    await t.step("moved out of the subtree, never visible, unknown", async () => {
      ok(
        await call(
          `${EQ}/transferEquipment`,
          { imeis: [imeiOf(5)], targetUserId: ids.other },
          tokens.admin,
        ),
      );
      const r = ok(await renew(tokens.dist, [5, 20, 99], 12, "card"));
      assert.deepEqual(r.results.map((x: { error: string }) => x.error), [
        "deviceMovedOut",
        "deviceNoPermission",
        "deviceNoPermission",
      ]);
      assert.match(r.results[0].reason, new RegExp(`${imeiOf(5)}.*moved out`));
      // A device never in the subtree answers exactly like an unknown IMEI: no name, model, expiry.
      const { imei: _a, ...foreign } = r.results[1];
      const { imei: _b, ...unknown } = r.results[2];
      assert.deepEqual(foreign, unknown);
      assert.equal(foreign.mcType, "");
    });

    await t.step(
      "showPlatformExpiration 0 hides the platform expiry below the account",
      async () => {
        await setExpiry(10, "2031-05-01");
        const expOf = async (token: string) =>
          ok(
            await call(`${EQ}/queryEquipmentList`, {
              imeis: [imeiOf(10)],
              pageNum: 1,
              pageSize: 10,
            }, token),
          );
        assert.equal((await expOf(tokens.ent)).list[0].expiration, "2031-05-01");
        code(
          await call(`${EQ}/setShowPlatformExpiration`, { userId: ids.ent, show: 0 }, tokens.ent),
          "permissionDenied",
        );
        code(
          await call(
            `${EQ}/setShowPlatformExpiration`,
            { userId: ids.other, show: 0 },
            tokens.dist,
          ),
          "permissionDenied",
        );
        ok(
          await call(`${EQ}/setShowPlatformExpiration`, { userId: ids.ent, show: 0 }, tokens.dist),
        );
        const page = await expOf(tokens.ent);
        assert.equal(page.showPlatformExpiration, 0);
        assert.equal(page.list[0].expiration, null);
        // The export leaves the cell empty too.
        const sheet = await exported(tokens.ent);
        const col = sheet[0].indexOf("Platform expiry");
        assert.ok(col > 0);
        assert.equal(sheet.find((r) => r[0] === imeiOf(10))![col], "");
        assert.equal(
          (await exported(tokens.dist)).find((r) => r[0] === imeiOf(10))![col],
          "2031-05-01",
        );
        const detail = ok(await call(`${EQ}/getDeviceDetail`, { imei: imeiOf(10) }, tokens.ent));
        assert.equal(detail.basic.expiration, null);
        assert.equal(detail.basic.showPlatformExpiration, 0);
        const q = ok(
          await call(
            `${EQ}/renewQuote`,
            { imeis: [imeiOf(10)], term: 12, payWith: "coin" },
            tokens.ent,
          ),
        );
        assert.equal(q.hidden, true);
        assert.equal(q.plans[0].newExpiration, null);
        // The account below inherits it; the superior and the administrator still see it.
        const below = ok(
          await call(`${EQ}/getShowPlatformExpiration`, { userId: ids.end }, tokens.ent),
        );
        assert.deepEqual(below, { show: 1, inheritedHidden: true, editable: true });
        await setExpiry(11, "2031-05-01");
        ok(
          await call(`${EQ}/transferEquipment`, {
            imeis: [imeiOf(11)],
            targetUserId: ids.end,
          }, tokens.ent),
        );
        const endDetail = ok(await call(`${EQ}/getDeviceDetail`, { imei: imeiOf(11) }, tokens.end));
        assert.equal(endDetail.basic.expiration, null);
        assert.equal((await expOf(tokens.dist)).list[0].expiration, "2031-05-01");
        assert.equal((await expOf(tokens.admin)).list[0].expiration, "2031-05-01");
        ok(
          await call(`${EQ}/setShowPlatformExpiration`, { userId: ids.ent, show: 1 }, tokens.dist),
        );
        assert.equal((await expOf(tokens.ent)).list[0].expiration, "2031-05-01");
      },
    );

    await t.step("a device not bindable by app accounts refuses binding", async () => {
      const list = async (body: Record<string, unknown>) =>
        ok(
          await call(
            `${EQ}/queryEquipmentList`,
            { ...body, pageNum: 1, pageSize: 10 },
            tokens.dist,
          ),
        );
      assert.equal((await list({ imeis: [imeiOf(1)] })).list[0].appBindable, true);
      ok(await call(`${EQ}/setAppBindable`, { imeis: [imeiOf(1)], bindable: false }, tokens.dist));
      code(
        await call(`${EQ}/setAppBindable`, { imeis: [imeiOf(20)], bindable: false }, tokens.dist),
        "deviceNoPermission",
      );
      const r = await call(
        `${EQ}/bindAppAccount`,
        { imei: imeiOf(1), appAccount: "rn_end" },
        tokens.dist,
      );
      code(r, "appBindNotAllowed");
      assert.match(r.json.msg, /may not be bound/);
      const forbidden = await list({ appBindable: false });
      assert.deepEqual(forbidden.list.map((d: { imei: string }) => d.imei), [imeiOf(1)]);
      assert.equal((await list({ appBindable: true })).total, 6);
      const detail = ok(await call(`${EQ}/getDeviceDetail`, { imei: imeiOf(1) }, tokens.dist));
      assert.equal(detail.basic.appBindable, false);
      ok(await call(`${EQ}/setAppBindable`, { imeis: [imeiOf(1)], bindable: true }, tokens.dist));
      ok(
        await call(`${EQ}/bindAppAccount`, { imei: imeiOf(1), appAccount: "rn_end" }, tokens.dist),
      );
      assert.equal(device(1).bindUserAccount, "rn_end");
    });

    await t.step(
      "auto renewal: on with a term the model offers, renewed a day before expiry",
      async () => {
        const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
        await setExpiry(4, tomorrow);
        const set = (token: string, n: number, autoRenew: unknown) =>
          call(`${EQ}/setAutoRenew`, { imeis: [imeiOf(n)], autoRenew }, token);
        code(await set(tokens.dist, 4, { term: 3, payWith: "coin" }), "renewalTypeWrong");
        code(await set(tokens.noPay, 10, { term: 12, payWith: "coin" }), "permissionDenied");
        ok(await set(tokens.dist, 4, { term: 12, payWith: "coin" }));
        const row = ok(
          await call(
            `${EQ}/queryEquipmentList`,
            { imeis: [imeiOf(4)], pageNum: 1, pageSize: 10 },
            tokens.dist,
          ),
        ).list[0];
        assert.equal(row.autoRenew, true);
        const detail = ok(await call(`${EQ}/getDeviceDetail`, { imei: imeiOf(4) }, tokens.dist));
        assert.deepEqual(detail.basic.autoRenew, { term: 12, payWith: "coin" });
        const coins = ok(await call(`${W}/balance`, {}, tokens.dist)).coins;
        // Not yet due for a device a year away; due for the one expiring tomorrow.
        const run = await app.services.deviceRenewal.autoRenewDue();
        assert.deepEqual(run, { renewed: 1, refused: [] });
        assert.equal(device(4).expiration, addMonths(tomorrow, 12));
        assert.equal(ok(await call(`${W}/balance`, {}, tokens.dist)).coins, coins - 5);
        assert.deepEqual(await app.services.deviceRenewal.autoRenewDue(), {
          renewed: 0,
          refused: [],
        });
        // A payer without the balance is reported (the daily job posts a balance reminder).
        await setExpiry(10, today());
        ok(await set(tokens.ent, 10, { term: 120, payWith: "coin" }));
        const refused = await app.services.deviceRenewal.autoRenewDue();
        assert.deepEqual(refused.refused, [
          { payerId: ids.ent, imeis: [imeiOf(10)], error: "miCoinsInsufficient" },
        ]);
        assert.equal(device(10).expiration, today());
        ok(await set(tokens.ent, 10, null));
        assert.equal(device(10).autoRenew, null);
        assert.deepEqual(await app.services.deviceRenewal.autoRenewDue(), {
          renewed: 0,
          refused: [],
        });
      },
    );

    await t.step("one operation renews up to 1000 devices (KV commit limits)", async () => {
      const many = Array.from({ length: 1000 }, (_, i) => String(868120410000000 + i));
      ok(
        await call(
          `${EQ}/importEquipment`,
          { userId: ids.dist, mcType: "GT06N", imeis: many },
          tokens.admin,
        ),
      );
      ok(
        await call(
          `${W}/allocate`,
          { targetUserId: ids.dist, cards: { "1y": 1000 } },
          tokens.admin,
        ),
      );
      const started = performance.now();
      const r = ok(
        await call(`${EQ}/renewEquipment`, { imeis: many, term: 12, payWith: "card" }, tokens.dist),
      );
      assert.equal(r.renewed, 1000);
      assert.equal(r.balance.cards["1y"], 1);
      assert.equal(app.services.directory.get(many[999])!.expiration, addMonths(today(), 12));
      console.log(`renewed 1000 devices in ${Math.round(performance.now() - started)} ms`);
    });
  } finally {
    await app.close();
  }

  /** The caller's export (xlsx) as rows of cell texts. */
  async function exported(token: string): Promise<string[][]> {
    const res = await call(`${EQ}/exportEquipment`, { imeis: [imeiOf(10)] }, token);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(await res.res.arrayBuffer());
    const out: string[][] = [];
    wb.worksheets[0].eachRow((row) =>
      out.push((row.values as unknown[]).slice(1).map((v) => String(v ?? "")))
    );
    return out;
  }
});
