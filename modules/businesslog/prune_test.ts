/** The business log keeps KEEP_DAYS (180) days: the daily job removes older entries and their index keys. */
import assert from "node:assert/strict";
import type { Context } from "hono";
import type { ChangeRecord, RouteDef } from "../../lib/http/api.ts";
import type { AppEnv } from "../../lib/http/env.ts";
import { testApp } from "../../tests/helpers/harness.ts";
import { addAccount, whoAmI } from "../accounts/test_support.ts";
import { KEEP_DAYS } from "./model.ts";
import { BusinessLog } from "./service.ts";
import { BusinessLogStore } from "./store.ts";

const DAY = 86_400_000;

async function keys(kv: Deno.Kv): Promise<number> {
  let n = 0;
  for await (const _ of kv.list({ prefix: ["businessLog"] })) n++;
  return n;
}

Deno.test("business log: entries older than 180 days are removed, newer ones stay", async () => {
  const t = await testApp();
  try {
    const admin = await t.adminToken();
    const adminId = await whoAmI(t, admin);
    // Today's entry, through the API (admin → dist: audience admin only).
    await addAccount(t, admin, { account: "keepDist", accountType: 8, parentId: adminId });
    // An entry written by a clock KEEP_DAYS + 1 days ago.
    const past = new BusinessLog(
      new BusinessLogStore(t.services.kv),
      t.services.access,
      t.services.accountStore,
      () => new Date(Date.now() - (KEEP_DAYS + 1) * DAY),
    );
    const session = {
      accountId: adminId,
      cAccountId: adminId,
      isVirtual: false,
      jti: "x",
      via: "bearer" as const,
    };
    const c = { var: { session, clientIp: "10.1.2.3" } } as unknown as Context<AppEnv>;
    const def = { path: "/v3/new/account/update", tag: "Accounts" } as RouteDef;
    await past.record({ c, def, input: { id: adminId }, form: null } satisfies ChangeRecord);
    const list = () => t.call("/v3/new/businessLog/list", { pageNum: 1, pageSize: 10 }, admin);
    assert.equal((await list()).json.data.total, 2);
    // Totals of time ranges (day counters plus the partial days at the ends).
    const range = async (startTime?: number, endTime?: number) =>
      (await t.call("/v3/new/businessLog/list", {
        pageNum: 1,
        pageSize: 10,
        startTime: startTime === undefined ? undefined : new Date(startTime).toISOString(),
        endTime: endTime === undefined ? undefined : new Date(endTime).toISOString(),
      }, admin)).json.data.total;
    const now = Date.now();
    assert.equal(await range(now - 200 * DAY), 2);
    assert.equal(await range(undefined, now - 100 * DAY), 1);
    assert.equal(await range(now - 100 * DAY, now + DAY), 1);
    assert.equal(await range(now - (KEEP_DAYS + 1) * DAY - 60_000, now - KEEP_DAYS * DAY), 1);
    assert.equal(await range(now - 60_000, now + 60_000), 1);
    assert.equal(await range(now + 60_000), 0);
    const before = await keys(t.services.kv);

    assert.equal(await t.services.businessLog.prune(), 1);
    const after = (await list()).json.data;
    assert.equal(after.total, 1);
    assert.match(after.list[0].action, /account\/add$/);
    // The entry's audience copy, its "all" record and its day's counter are gone.
    assert.equal(await keys(t.services.kv), before - 3);
    assert.equal(await range(), 1);
    assert.equal(await t.services.businessLog.prune(), 0);
  } finally {
    await t.close();
  }
});
