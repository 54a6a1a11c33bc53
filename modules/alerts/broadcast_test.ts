import assert from "node:assert/strict";
import { testApp } from "../../tests/helpers/harness.ts";
import { accountWithDevices } from "../../tests/helpers/alerting.ts";
import { CATALOGUE } from "../../lib/errors.ts";
import { MAX_RULES } from "./broadcast.ts";

const rule = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  alarmType: "sos",
  count: 2,
  unitMinutes: 60,
  content: "Help is on the way",
  ...extra,
});

Deno.test("auto broadcast rules API: limits, devices of the account, edit and delete", async (t) => {
  const app = await testApp({ ALERT_ENGINE: "off" });
  try {
    const a = await accountWithDevices(app, "bcast_a", ["359710049700001"]);
    const b = await accountWithDevices(app, "bcast_b", ["359710049700002"]);
    const save = (body: unknown, token = a.token) =>
      app.call("/v3/new/alarm/broadcast/save", body, token);

    await t.step("each refusal names its field", async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ name: "" }, "rule.name"],
        [{ name: "x".repeat(21) }, "rule.name"],
        [{ count: 0 }, "rule.count"],
        [{ count: 101 }, "rule.count"],
        [{ unitMinutes: 1441 }, "rule.unitMinutes"],
        [{ startTime: "25:00" }, "rule.startTime"],
        [{ minSpeed: 80, maxSpeed: 60 }, "rule.maxSpeed"],
        [{ content: "y".repeat(101) }, "rule.content"],
        [{ alarmType: "nonsense" }, "rule.alarmType"],
      ];
      for (const [extra, field] of cases) {
        const r = await save({ rule: rule("Bad", extra) });
        assert.equal(r.json.code, CATALOGUE.illegalParameter, JSON.stringify(extra));
        assert.equal(r.json.data.field, field, JSON.stringify(r.json));
      }
    });

    await t.step("another account's device is refused with its IMEI", async () => {
      const r = await save({ rule: rule("Theirs", { imeis: ["359710049700002"] }) });
      assert.notEqual(r.json.code, 10000);
      // B's device is outside A's subtree: A cannot even see it.
      const own = await save({ rule: rule("Mine", { imeis: ["359710049700001"] }) });
      assert.equal(own.json.code, 10000, JSON.stringify(own.json));
      // The administrator sees both devices but a rule holds only its account's devices.
      const mixed = await save({
        userId: a.id,
        rule: rule("Mixed", { imeis: ["359710049700001", "359710049700002"] }),
      }, a.admin);
      assert.equal(mixed.json.code, CATALOGUE.ruleDeviceOtherUser, JSON.stringify(mixed.json));
      assert.equal(mixed.json.data.field, "imeis");
      assert.match(mixed.json.msg, /359710049700002/);
    });

    await t.step(
      "edit keeps the id; unknown ids are refused; B sees none of A's rules",
      async () => {
        const list = (await app.call("/v3/new/alarm/broadcast/list", {}, a.token)).json.data;
        assert.equal(list.length, 1);
        const edited = await save({ rule: { ...rule("Mine renamed"), id: list[0].id } });
        assert.equal(edited.json.data.id, list[0].id);
        assert.equal(edited.json.data.imeis.length, 0);
        const ghost = await save({ rule: { ...rule("Ghost"), id: "nope" } });
        assert.equal(ghost.json.code, CATALOGUE.dataNotExists);
        assert.equal(
          (await app.call("/v3/new/alarm/broadcast/list", {}, b.token)).json.data.length,
          0,
        );
        const stolen = await app.call(
          "/v3/new/alarm/broadcast/delete",
          { id: list[0].id },
          b.token,
        );
        assert.equal(stolen.json.code, CATALOGUE.dataNotExists);
      },
    );

    await t.step(
      `at most ${MAX_RULES} rules per account, and the rules survive a restart`,
      async () => {
        for (let i = 2; i <= MAX_RULES; i++) {
          const r = await save({ rule: rule(`Rule ${i}`) });
          assert.equal(r.json.code, 10000, JSON.stringify(r.json));
        }
        const over = await save({ rule: rule("One too many") });
        assert.equal(over.json.code, CATALOGUE.quantityLimitExceeded);
        assert.match(over.json.msg, new RegExp(`\\b${MAX_RULES}\\b`));
        // A fresh cache reads the same rules from KV.
        app.services.autoBroadcast["rules"].clear();
        await app.services.autoBroadcast.load();
        assert.equal(app.services.autoBroadcast.list(a.id).length, MAX_RULES);
      },
    );
  } finally {
    await app.close();
  }
});
