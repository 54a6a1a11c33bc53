/**
 * Account info export (spec §9): an account's details and sub-accounts as a real xlsx, once
 * every ten minutes per account (the catalogue's exportTooOften), another account unaffected,
 * a caller outside the subtree refused without taking the slot.
 */
import assert from "node:assert/strict";
import ExcelJS from "exceljs";
import { testApp } from "../../tests/helpers/harness.ts";
import { CATALOGUE } from "../../lib/errors.ts";
import { addAccount, PASSWORD } from "../accounts/test_support.ts";
import { AccountInfoExport } from "./service.ts";
import { AccountInfoStore } from "./store.ts";

async function sheetRows(bytes: ArrayBuffer) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(bytes);
  return wb.worksheets.map((ws) => {
    const rows: unknown[][] = [];
    ws.eachRow((r) => rows.push((r.values as unknown[]).slice(1)));
    return rows;
  });
}

Deno.test("account info export: xlsx of the account and its subtree, once every ten minutes", async () => {
  const app = await testApp();
  try {
    const admin = await app.adminToken();
    const dist = await addAccount(app, admin, {
      account: "info_dist",
      parentId: "1",
      accountType: 8,
      contact: "Dana",
      email: "dana@info.test",
    });
    await addAccount(app, admin, { account: "info_ent", parentId: dist, accountType: 9 });
    const other = await addAccount(app, admin, {
      account: "info_other",
      parentId: "1",
      accountType: 8,
    });
    const otherToken = await app.login("info_other", PASSWORD);

    // Outside the subtree: refused, and the slot stays free.
    const foreign = await app.call("/v3/new/accountInfo/export", { id: dist }, otherToken);
    assert.equal(foreign.json.code, CATALOGUE.permissionDenied);

    const r = await app.call("/v3/new/accountInfo/export", { id: dist }, admin);
    assert.equal(r.status, 200);
    assert.match(r.res.headers.get("content-type") ?? "", /spreadsheetml/);
    assert.match(r.res.headers.get("content-disposition") ?? "", /account-info_dist\.xlsx/);
    const [details, subs] = await sheetRows(await r.res.arrayBuffer());
    assert.deepEqual(details[0], ["Account", "info_dist"]);
    assert.ok(details.some((row) => row[0] === "E-mail" && row[1] === "dana@info.test"));
    assert.deepEqual(subs[0], ["Account", "Name", "Type", "Superior", "Devices"]);
    assert.deepEqual(subs.slice(1).map((row) => [row[0], row[2], row[3]]), [
      ["info_ent", "Enterprise", "info_dist"],
    ]);

    const again = await app.call("/v3/new/accountInfo/export", { id: dist }, admin);
    assert.equal(again.json.code, CATALOGUE.exportTooOften);
    assert.equal(again.json.msg, "Account information can be exported once every ten minutes.");
    // Per account: another account is exported at once.
    const second = await app.call("/v3/new/accountInfo/export", { id: other }, admin);
    assert.equal(second.status, 200);
    assert.equal(second.json, null);

    // Ten minutes later (the same store, a clock moved on) the slot is free again.
    let now = Date.now() + 9 * 60_000;
    const later = new AccountInfoExport({
      access: app.services.access,
      accounts: app.services.accountStore,
      directory: app.services.directory,
      store: new AccountInfoStore(app.services.kv),
      now: () => now,
    });
    const session = {
      accountId: "1",
      cAccountId: "1",
      isVirtual: false,
      jti: "x",
      via: "bearer" as const,
    };
    const t = (k: string) => k;
    await assert.rejects(() => later.export(session, dist, t), /exportTooOften/);
    now += 61_000;
    const file = await later.export(session, dist, t);
    assert.ok(file.bytes.length > 1000);
  } finally {
    await app.close();
  }
});
