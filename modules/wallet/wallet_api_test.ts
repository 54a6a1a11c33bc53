/** The wallet API on a real KV file: transfers, logs, card codes and the balance call. */
import assert from "node:assert/strict";
import ExcelJS from "exceljs";
import { type TestApp, testApp } from "../../tests/helpers/harness.ts";
import { asAdmin, code, ok, PASSWORD } from "../devices/test_support.ts";

const W = "/v3/new/wallet";

/** admin → dist (8) → ent (9) → end (12); admin → other (8). */
async function setup() {
  const app = await testApp();
  const { admin, adminId, add } = await asAdmin(app);
  const dist = await add("wl_dist", adminId, 8);
  const ent = await add("wl_ent", dist, 9);
  const end = await add("wl_end", ent, 12);
  const other = await add("wl_other", adminId, 8);
  return {
    app,
    ids: { adminId, dist, ent, end, other },
    tokens: {
      admin,
      dist: await app.login("wl_dist", PASSWORD),
      ent: await app.login("wl_ent", PASSWORD),
      other: await app.login("wl_other", PASSWORD),
    },
  };
}

/** A multipart upload of card codes. */
async function importCodes(app: TestApp, token: string, type: string, file: Blob, name: string) {
  const form = new FormData();
  form.set("type", type);
  form.set("file", new File([file], name));
  const res = await app.app.request(`${W}/cards/import`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  return { status: res.status, json: await res.json(), res };
}

Deno.test("wallet API", async (t) => {
  const { app, ids, tokens } = await setup();
  const call = app.call;
  const balance = async (token: string) => ok(await call(`${W}/balance`, {}, token));
  try {
    await t.step(
      "50 concurrent transfers from 10 coins: exactly 10 pass, never below zero",
      async () => {
        ok(await call(`${W}/allocate`, { targetUserId: ids.dist, coins: 10 }, tokens.admin));
        const runs = await Promise.all(
          Array.from(
            { length: 50 },
            () => call(`${W}/allocate`, { targetUserId: ids.ent, coins: 1 }, tokens.dist),
          ),
        );
        const passed = runs.filter((r) => r.json.code === 10000).length;
        assert.equal(passed, 10);
        for (const r of runs.filter((r) => r.json.code !== 10000)) code(r, "miCoinsInsufficient");
        assert.equal((await balance(tokens.dist)).coins, 0);
        assert.equal((await balance(tokens.ent)).coins, 10);
        // One log entry per movement on each side.
        const out = ok(
          await call(`${W}/log`, { view: "allocation", pageSize: 100 }, tokens.dist),
        );
        assert.equal(out.total, 11, "one received, ten given");
        assert.equal(out.list.filter((e: { kind: string }) => e.kind === "allocateOut").length, 10);
        const received = ok(await call(`${W}/log`, { view: "allocation" }, tokens.ent));
        assert.equal(received.total, 10);
        assert.equal(received.list[0].counterpart, "wl_dist");
      },
    );

    await t.step("allocation rules: not to oneself, not more than held, only below", async () => {
      code(
        await call(`${W}/allocate`, { targetUserId: ids.dist, coins: 1 }, tokens.dist),
        "coinsToSelf",
      );
      code(
        await call(`${W}/allocate`, { targetUserId: ids.ent, coins: 0.01 }, tokens.dist),
        "miCoinsInsufficient",
      );
      code(
        await call(`${W}/allocate`, { targetUserId: ids.ent, cards: { point: 1 } }, tokens.dist),
        "rechargeCardsInsufficient",
      );
      code(
        await call(`${W}/allocate`, { targetUserId: ids.other, coins: 1 }, tokens.dist),
        "permissionDenied",
      );
      ok(
        await call(`${W}/allocate`, {
          targetUserId: ids.dist,
          cards: { point: 5, "1y": 1 },
        }, tokens.admin),
      );
      ok(await call(`${W}/allocate`, { targetUserId: ids.end, cards: { point: 2 } }, tokens.dist));
      const b = await balance(tokens.dist);
      assert.deepEqual(b.cards, { "3m": 0, "6m": 0, "1y": 1, "10y": 0, point: 3 });
    });

    await t.step("logs by view and time, of an account below; xlsx export", async () => {
      const renewals = ok(await call(`${W}/log`, { view: "consumption" }, tokens.ent));
      assert.equal(renewals.total, 0);
      const past = ok(
        await call(`${W}/log`, {
          view: "business",
          endTime: "2020-01-01T00:00:00+08:00",
        }, tokens.dist),
      );
      assert.equal(past.total, 0, "nothing before 2020");
      const since = new Date(Date.now() - 3_600_000).toISOString();
      const byDist = ok(
        await call(
          `${W}/log`,
          { view: "business", userId: ids.end, startTime: since },
          tokens.dist,
        ),
      );
      assert.equal(byDist.total, 1);
      assert.deepEqual(byDist.list[0].cards, { point: 2 });
      code(
        await call(`${W}/log`, { view: "business", userId: ids.dist }, tokens.ent),
        "permissionDenied",
      );
      const file = await call(`${W}/log/export`, { view: "allocation" }, tokens.dist);
      assert.equal(file.status, 200);
      assert.match(file.res.headers.get("content-disposition") ?? "", /wallet-allocation\.xlsx/);
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(await file.res.arrayBuffer());
      const ws = wb.worksheets[0];
      assert.equal(ws.rowCount, 1 + 13, "header and every allocation row");
      assert.equal(ws.getRow(1).getCell(1).value, "Time");
    });

    await t.step("card codes: admin import by content, redeemed once, licence errors", async () => {
      const text = "code\nAB-100001\nAB-100002\nAB-100002\nAB-100003\n";
      const r = ok(await importCodes(app, tokens.admin, "1y", new Blob([text]), "codes.txt"));
      assert.deepEqual(r, { added: 3, existing: 0, repeated: 1 });
      const again = ok(
        await importCodes(app, tokens.admin, "1y", new Blob(["AB-100003\nAB-100004"]), "a.csv"),
      );
      assert.deepEqual(again, { added: 1, existing: 1, repeated: 0 });
      // An xlsx is read from its content, whatever its name says.
      const wb = new ExcelJS.Workbook();
      const ws = wb.addWorksheet("codes");
      ws.addRow(["Code"]);
      for (let i = 0; i < 5; i++) ws.addRow([`PT-2000${i}`]);
      const xlsx = await wb.xlsx.writeBuffer();
      assert.equal(
        ok(await importCodes(app, tokens.admin, "point", new Blob([xlsx]), "codes.txt")).added,
        5,
      );
      code(
        await importCodes(app, tokens.admin, "1y", new Blob(["ok-123456\nbad code!"]), "c.txt"),
        "cardCodesInvalid",
      );
      code(
        await importCodes(app, tokens.admin, "1y", new Blob([new Uint8Array([0, 1, 2, 255])]), "x"),
        "cardCodesInvalid",
      );
      code(
        await importCodes(app, tokens.dist, "1y", new Blob(["AB-900001"]), "c.txt"),
        "permissionDenied",
      );
      const tooMany = Array.from({ length: 10_001 }, (_, i) => `MX-${100000 + i}`).join("\n");
      code(
        await importCodes(app, tokens.admin, "1y", new Blob([tooMany]), "c.txt"),
        "cardCodesInvalid",
      );

      const before = (await balance(tokens.ent)).cards["1y"];
      ok(await call(`${W}/cards/redeem`, { code: "AB-100001", type: "1y" }, tokens.ent));
      assert.equal((await balance(tokens.ent)).cards["1y"], before + 1);
      code(
        await call(`${W}/cards/redeem`, { code: "AB-100001", type: "1y" }, tokens.dist),
        "licenceUsed",
      );
      code(
        await call(`${W}/cards/redeem`, { code: "ZZ-999999", type: "1y" }, tokens.ent),
        "licenceMissing",
      );
      code(
        await call(`${W}/cards/redeem`, { code: "PT-20000", type: "1y" }, tokens.ent),
        "licenceWrongType",
      );
      // Two accounts racing for one code: one wins.
      const race = await Promise.all([
        call(`${W}/cards/redeem`, { code: "AB-100002", type: "1y" }, tokens.ent),
        call(`${W}/cards/redeem`, { code: "AB-100002", type: "1y" }, tokens.dist),
      ]);
      assert.equal(race.filter((x) => x.json.code === 10000).length, 1);
      const log = ok(await call(`${W}/log`, { view: "business" }, tokens.ent));
      assert.equal(log.list[0].kind, "redeem");
      assert.ok(["AB-100001", "AB-100002"].includes(log.list[0].code));

      const used = ok(await call(`${W}/cards/list`, { used: true }, tokens.admin));
      assert.deepEqual(used.list.map((c: { code: string }) => c.code).sort(), [
        "AB-100001",
        "AB-100002",
      ]);
      assert.equal(ok(await call(`${W}/cards/list`, { used: false }, tokens.admin)).total, 7);
      code(await call(`${W}/cards/list`, {}, tokens.dist), "permissionDenied");
    });

    await t.step("point cards pay a renewal: one per month of the term and device", async () => {
      const EQ = "/v3/new/newEquipment";
      const imeis = ["868120400009001", "868120400009002"];
      ok(
        await call(
          `${EQ}/importEquipment`,
          { userId: ids.ent, mcType: "GT06N", imeis },
          tokens.admin,
        ),
      );
      ok(
        await call(`${W}/allocate`, { targetUserId: ids.ent, cards: { point: 30 } }, tokens.admin),
      );
      const quote = ok(
        await call(`${EQ}/renewQuote`, { imeis, term: 12, payWith: "point" }, tokens.ent),
      );
      assert.deepEqual([quote.total.card, quote.total.cards], ["point", 24]);
      assert.equal(quote.plans[0].cards, 12);
      code(
        await call(`${EQ}/renewEquipment`, { imeis, term: 120, payWith: "point" }, tokens.ent),
        "rechargeCardsInsufficient",
      );
      const r = ok(
        await call(`${EQ}/renewEquipment`, { imeis, term: 12, payWith: "point" }, tokens.ent),
      );
      assert.equal(r.renewed, 2);
      assert.equal(r.balance.cards.point, 6);
      const renewals = ok(await call(`${W}/log`, { view: "consumption" }, tokens.ent));
      assert.deepEqual(renewals.list[0].cards, { point: -24 });
      // A model without a rate cannot be renewed, whatever pays.
      ok(await call(`${W}/setRate`, { mcType: "GT06N", rate: null }, tokens.admin));
      const refused = ok(
        await call(`${EQ}/renewEquipment`, { imeis, term: 3, payWith: "point" }, tokens.ent),
      );
      assert.equal(refused.renewed, 0);
      assert.equal(refused.results[0].error, "noRateConfigured");
    });

    await t.step("the balance call answers coins, cards per type and credits", async () => {
      const r = ok(await call("/v3/new/homepage/queryMiCoinsBalance", {}, tokens.dist));
      assert.equal(r.coinNumber, 0);
      assert.equal(r.cards.point, 3);
      assert.equal(r.credits, 50, "a new account's free credits");
    });
  } finally {
    await app.close();
  }
});
