/**
 * The ReportRunner the export uses: the report's own schema checks the params (paging fields
 * in them are ignored: the runner's page applies), and the API's visibility rule holds.
 */
import assert from "node:assert/strict";
import { BizError } from "../../lib/errors.ts";
import type { Session } from "../../lib/http/env.ts";
import { testApp } from "../../tests/helpers/harness.ts";

const IMEI = "359710049791018";
const FOREIGN = "359710049791026";

Deno.test("ReportRunner: params checked by the report's schema, its own page, visibility", async () => {
  const t = await testApp();
  try {
    const admin = await t.adminToken();
    const me = (await t.call("/v3/new/account/current", undefined, admin)).json.data;
    const imported = await t.call("/v3/new/newEquipment/importEquipment", {
      userId: me.userId,
      mcType: "GT06N",
      imeis: [IMEI],
    }, admin);
    assert.equal(imported.json.data.succeeded, 1);
    const session: Session = {
      accountId: me.userId,
      cAccountId: me.userId,
      isVirtual: false,
      jti: "runner-test",
      via: "bearer",
    };
    const now = Date.now();
    const params = {
      imeis: [IMEI],
      startTime: new Date(now - 86_400_000).toISOString(),
      endTime: new Date(now).toISOString(),
      // The page the query asked for is not the export's.
      pageNum: 7,
      pageSize: 3,
    };
    const page = await t.services.reportRunner.run(session, "vehicleStatus", params, {
      pageNum: 1,
      pageSize: 1000,
    });
    assert.equal(page.total, 1);
    assert.equal(page.list[0].imei, IMEI);

    const refusal = async (p: unknown) => {
      try {
        await t.services.reportRunner.run(session, "trackDetails", p, { pageNum: 1, pageSize: 10 });
      } catch (e) {
        assert.ok(e instanceof BizError);
        return e.key;
      }
      assert.fail("not refused");
    };
    assert.equal(await refusal({ ...params, positioning: "gsm" }), "illegalParameter");
    assert.equal(await refusal("trips"), "illegalParameter");
    assert.equal(await refusal({ ...params, imeis: [IMEI, FOREIGN] }), "deviceNoPermission");
  } finally {
    await t.close();
  }
});
