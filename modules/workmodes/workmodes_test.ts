import assert from "node:assert/strict";
import { testApp } from "../../tests/helpers/harness.ts";
import { testConnection, waitFor } from "../commands/test_device.ts";
import { encodeCycle } from "./encode.ts";
import { firstWake } from "./service.ts";
import type { Cycle } from "./schemas.ts";

const PASSWORD = "Passw0rd11";
const ON = "359710049300001";
const OFF = "359710049300002";
const H02 = "359710049300003";

const normal = (extra: Partial<Cycle> = {}) => ({
  mode: "normal",
  syncInterval: 10,
  limitType: "hour",
  limitValue: 2,
  ...extra,
});

Deno.test("working modes: encodings, next wake-up", () => {
  const week: Cycle = {
    mode: "week",
    syncTime: "08:30",
    repeatDays: [5, 1],
    limitType: "unlimited",
  };
  assert.equal(encodeCycle("AT4", week).content, "MODE,3,08:30,15#");
  const timing: Cycle = {
    mode: "timing",
    wakeUpTime: "06:00",
    syncInterval: 60,
    repeatDays: [1, 2, 3],
    limitType: "day",
    limitValue: 3,
  };
  assert.equal(encodeCycle("JM-LL01", timing).content, "MODE,2,06:00,60,123#");
  const n: Cycle = { mode: "normal", syncInterval: 5, repeatDays: [], limitType: "unlimited" };
  assert.deepEqual(encodeCycle("JT808", n).native, {
    kind: "jt808Params",
    params: [{ id: 0x0029, value: 300 }],
  });
  assert.equal(encodeCycle("H02", n).content, "S71,22,300");
  assert.throws(() => encodeCycle("H02", week));
  // Friday 2026-11-20 09:00 UTC → next Monday-or-Friday 08:30 is Monday the 23rd.
  assert.equal(
    new Date(firstWake(week, Date.UTC(2026, 10, 20, 9))!).toISOString(),
    "2026-11-23T08:30:00.000Z",
  );
});

Deno.test("working modes API: template rules, batch apply, task states from acknowledgements", async (t) => {
  const app = await testApp();
  const s = app.services;
  try {
    const admin = await app.adminToken();
    const adminId = (await s.accountStore.findIdByLogin("admin"))!;
    const distId = (await app.call("/v3/new/account/add", {
      account: "wm_dist",
      nickName: "wm dist",
      password: PASSWORD,
      accountType: 8,
      parentId: adminId,
    }, admin)).json.data.id;
    const token = await app.login("wm_dist", PASSWORD);
    await app.call("/v3/new/newEquipment/importEquipment", {
      userId: distId,
      mcType: "AT4",
      imeis: [ON, OFF],
    }, token);
    await app.call("/v3/new/newEquipment/importEquipment", {
      userId: distId,
      mcType: "H02",
      imeis: [H02],
    }, token);
    const device = testConnection(s.commands, { imei: ON, protocol: "gt06" });
    s.connections.attach(device.conn);
    const save = (body: Record<string, unknown>) =>
      app.call("/v3/new/workMode/template/save", body, token);

    await t.step(
      "validation: repeat days required, only the last cycle unlimited, field named",
      async () => {
        const noDays = await save({
          name: "Week",
          cycles: [{ mode: "week", syncTime: "08:00", repeatDays: [], limitType: "unlimited" }],
        });
        assert.equal(noDays.json.code, 49004);
        assert.equal(noDays.json.data.field, "cycles.0.repeatDays");
        const midUnlimited = await save({
          name: "Two",
          cycles: [normal({ limitType: "unlimited", limitValue: undefined }), normal()],
        });
        assert.equal(midUnlimited.json.data.field, "cycles.0.limitType");
        const badTime = await save({
          name: "T",
          cycles: [{
            mode: "timing",
            wakeUpTime: "25:00",
            syncInterval: 5,
            repeatDays: [1],
            limitType: "unlimited",
          }],
        });
        assert.equal(badTime.json.data.field, "cycles.0.wakeUpTime");
        const noLimit = await save({ name: "L", cycles: [normal({ limitValue: undefined })] });
        assert.equal(noLimit.json.data.field, "cycles.0.limitValue");
      },
    );

    await t.step("at most 10 templates of the same name", async () => {
      for (let i = 0; i < 10; i++) {
        assert.equal((await save({ name: "Same", cycles: [normal()] })).json.code, 10000);
      }
      const r = await save({ name: "Same", cycles: [normal()] });
      assert.equal(r.json.code, 43011);
    });

    let templateId = "";
    await t.step("batch working mode needs isBatchSendFm", async () => {
      templateId = (await save({
        name: "Two cycles",
        cycles: [normal({ limitType: "hour", limitValue: 1 }), {
          mode: "week",
          syncTime: "08:00",
          repeatDays: [1, 3, 5],
          limitType: "times",
          limitValue: 3,
        }],
      })).json.data.id;
      await app.call(
        "/v3/new/account/update",
        { id: distId, permissions: { isBatchSendFm: 0 } },
        admin,
      );
      const r = await app.call("/v3/new/workMode/apply", { templateId, imeis: [ON] }, token);
      assert.equal(r.json.code, 43010);
      await app.call(
        "/v3/new/account/update",
        { id: distId, permissions: { isBatchSendFm: 1 } },
        admin,
      );
    });

    await t.step("waiting → executing → next cycle → about to end → ended", async () => {
      const r = await app.call("/v3/new/workMode/apply", {
        templateId,
        imeis: [ON, OFF, H02],
        sendType: "offline",
      }, token);
      assert.equal(r.json.code, 10000, JSON.stringify(r.json));
      const batchNo = r.json.data.batchNo;
      const tasks = async () =>
        Object.fromEntries(
          (await app.call("/v3/new/workMode/tasks", { batchNo, pageNum: 1, pageSize: 10 }, token))
            .json.data.list.map((x: { imei: string }) => [x.imei, x]),
        );
      const first = await waitFor("ack", async () => {
        const all = await tasks();
        return all[ON]?.state === "executing" && all;
      });
      assert.equal(first[OFF].state, "waiting", "offline device: waits for its connection");
      assert.equal(
        first[H02].state,
        "waiting",
        "H02 takes the normal first cycle when it connects",
      );
      assert.deepEqual(device.seen, ["MODE,1,10#"]);
      const cmd = (await s.commandStore.get(first[ON].commandId))!;
      assert.equal(cmd.status, "executed", "normal mode takes effect on acknowledgement");
      const started = Date.parse(first[ON].cycleStartedAt);
      assert.equal(Date.parse(first[ON].cycleEndsAt) - started, 3_600_000);

      // One hour later the first cycle ends: the week cycle is sent and acknowledged.
      await s.workModes.tick(started + 3_600_000);
      const second = await waitFor("second cycle", async () => {
        const all = await tasks();
        return all[ON].cycle === 2 && all[ON].state === "executing" && all;
      });
      assert.equal(device.seen.at(-1), "MODE,3,08:00,135#");
      const weekCmd = (await s.commandStore.get(second[ON].commandId))!;
      assert.equal(weekCmd.status, "waitingExecution", "week mode waits for its first sync time");
      const ends = Date.parse(second[ON].cycleEndsAt);
      // 3 times × (one week / 3 days) = one week.
      assert.equal(ends - Date.parse(second[ON].cycleStartedAt), 7 * 86_400_000);
      await s.workModes.tick(ends - 30 * 60_000);
      assert.equal((await tasks())[ON].state, "aboutToEnd");
      assert.equal((await s.commandStore.get(second[ON].commandId))!.status, "executed");
      await s.workModes.tick(ends);
      const done = (await tasks())[ON];
      assert.deepEqual([done.state, done.endReason], ["ended", "completed"]);
    });

    await t.step(
      "a cancelled command ends its task; a new batch replaces a running task",
      async () => {
        const r = await app.call("/v3/new/command/cancel", { imei: OFF }, token);
        assert.equal(r.json.code, 10000);
        const list =
          (await app.call("/v3/new/workMode/tasks", { imei: OFF, pageNum: 1, pageSize: 10 }, token))
            .json.data.list;
        assert.deepEqual([list[0].state, list[0].endReason], ["ended", "cancelled"]);
        const st = await app.call("/v3/new/workMode/tasks", {
          state: "ended",
          pageNum: 1,
          pageSize: 10,
        }, token);
        assert.ok(st.json.data.list.every((x: { state: string }) => x.state === "ended"));
        const again = await app.call("/v3/new/workMode/apply", {
          templateId,
          imeis: [H02],
          sendType: "offline",
          replace: true,
        }, token);
        assert.equal(again.json.code, 10000);
        const h02 =
          (await app.call("/v3/new/workMode/tasks", { imei: H02, pageNum: 1, pageSize: 10 }, token))
            .json.data.list;
        assert.deepEqual(h02.map((x: { state: string }) => x.state), ["waiting", "ended"]);
        assert.equal(h02[1].endReason, "replaced");
      },
    );
  } finally {
    s.commands.stop();
    await app.close();
  }
});
