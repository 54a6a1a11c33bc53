import assert from "node:assert/strict";
import { testApp } from "../../tests/helpers/harness.ts";
import { deriveStatus, type DeviceState } from "./model.ts";

const PASSWORD = "Passw0rd11";

Deno.test("device registry API: import rules, listing, visibility, playback limits", async (t) => {
  const app = await testApp();
  try {
    const admin = await app.adminToken();
    const adminId = (await app.services.accountStore.findIdByLogin("admin"))!;
    const add = async (account: string, parentId: string, type = 8) =>
      (await app.call("/v3/new/account/add", {
        account,
        nickName: `${account} nick`,
        password: PASSWORD,
        accountType: type,
        parentId,
      }, admin))
        .json.data.id as string;
    const distA = await add("dev_dist_a", adminId);
    const distB = await add("dev_dist_b", adminId);
    const tokenA = await app.login("dev_dist_a", PASSWORD);
    const tokenB = await app.login("dev_dist_b", PASSWORD);

    await t.step(
      "IMEIs are checked one by one: bad, repeated and existing ones fail with a reason",
      async () => {
        const r = await app.call("/v3/new/newEquipment/importEquipment", {
          userId: distA,
          mcType: "GT06N",
          imeis: [
            "359710049000101",
            "359710049000102",
            "12345",
            "35971004900010X",
            "359710049000101",
            " ",
          ],
        }, tokenA);
        assert.equal(r.json.code, 10000);
        assert.equal(r.json.data.succeeded, 2);
        const reasons = Object.fromEntries(
          r.json.data.failed.map((f: { imei: string; code: number }) => [f.imei, f.code]),
        );
        assert.equal(reasons["12345"], 42001);
        assert.equal(reasons["35971004900010X"], 42001);
        assert.equal(reasons["359710049000101"], 42003);
        assert.equal(reasons[" "], 42002);
        const again = await app.call("/v3/new/newEquipment/importEquipment", {
          userId: distA,
          mcType: "GT06N",
          imeis: ["359710049000102"],
        }, tokenA);
        assert.equal(again.json.data.failed[0].code, 42015);
        assert.ok(again.json.data.failed[0].reason.includes("359710049000102"));
      },
    );

    await t.step("an unknown model and more than 1000 IMEIs are refused", async () => {
      const bad = await app.call("/v3/new/newEquipment/importEquipment", {
        userId: distA,
        mcType: "NOPE",
        imeis: ["359710049000103"],
      }, tokenA);
      assert.equal(bad.json.code, 42005);
      const many = Array.from({ length: 1001 }, (_, i) => String(359710049100000 + i));
      const tooMany = await app.call("/v3/new/newEquipment/importEquipment", {
        userId: distA,
        mcType: "GT06N",
        imeis: many,
      }, tokenA);
      assert.equal(tooMany.json.code, 49004);
      assert.equal(tooMany.json.data.field, "imeis");
    });

    await t.step("a sibling cannot import into, list or play back another subtree", async () => {
      const r = await app.call("/v3/new/newEquipment/importEquipment", {
        userId: distA,
        mcType: "GT06N",
        imeis: ["359710049000109"],
      }, tokenB);
      assert.equal(r.json.code, 49003);
      const list = await app.call("/v3/new/newEquipment/queryEquipmentList", {
        pageNum: 1,
        pageSize: 10,
        userId: distA,
      }, tokenB);
      assert.equal(list.json.code, 49003);
      const own = await app.call("/v3/new/newEquipment/queryEquipmentList", {
        pageNum: 1,
        pageSize: 10,
      }, tokenB);
      assert.equal(own.json.data.total, 0);
      const pb = await app.call("/v3/new/monitor/playback", {
        imei: "359710049000101",
        startTime: "2026-11-01T00:00:00Z",
        endTime: "2026-11-02T00:00:00Z",
      }, tokenB);
      assert.equal(pb.json.code, 42012);
      const cmd = await app.call("/v3/new/command/send", {
        imei: "359710049000101",
        content: "STATUS#",
        sendType: "offline",
      }, tokenB);
      assert.equal(cmd.json.code, 42012);
    });

    await t.step("the parent sees the subtree's devices with status; filters apply", async () => {
      const list = await app.call("/v3/new/newEquipment/queryEquipmentList", {
        pageNum: 1,
        pageSize: 10,
      }, admin);
      assert.equal(list.json.data.total, 2);
      assert.deepEqual(list.json.data.list.map((r: { status: string }) => r.status), [
        "inactive",
        "inactive",
      ]);
      // Never heard from: not activated (5), not offline (4).
      const offline = await app.call("/v3/new/newEquipment/queryEquipmentList", {
        pageNum: 1,
        pageSize: 10,
        status: 4,
      }, admin);
      assert.equal(offline.json.data.total, 0);
      const notActivated = await app.call("/v3/new/newEquipment/queryEquipmentList", {
        pageNum: 1,
        pageSize: 10,
        status: 5,
      }, admin);
      assert.equal(notActivated.json.data.total, 2);
      const moving = await app.call("/v3/new/newEquipment/queryEquipmentList", {
        pageNum: 1,
        pageSize: 10,
        status: 1,
      }, admin);
      assert.equal(moving.json.data.total, 0);
      const byKeyword = await app.call("/v3/new/newEquipment/queryEquipmentList", {
        pageNum: 1,
        pageSize: 10,
        keyword: "000102",
      }, admin);
      assert.equal(byKeyword.json.data.total, 1);
    });

    await t.step("playback range rules: start after end, more than 31 days", async () => {
      const after = await app.call("/v3/new/monitor/playback", {
        imei: "359710049000101",
        startTime: "2026-11-02T00:00:00Z",
        endTime: "2026-11-01T00:00:00Z",
      }, tokenA);
      assert.equal(after.json.code, 44003);
      const long = await app.call("/v3/new/monitor/playback", {
        imei: "359710049000101",
        startTime: "2026-09-01T00:00:00Z",
        endTime: "2026-11-01T00:00:00Z",
      }, tokenA);
      assert.equal(long.json.code, 44002);
      const ok = await app.call("/v3/new/monitor/playback", {
        imei: "359710049000101",
        startTime: "2026-10-01T00:00:00Z",
        endTime: "2026-11-01T00:00:00Z",
      }, tokenA);
      assert.equal(ok.json.code, 10000);
      assert.deepEqual(ok.json.data.points, []);
    });

    await t.step(
      "offline commands: one pending per device, replace needs confirmation, cancel",
      async () => {
        const send = (content: string, replace = false) =>
          app.call("/v3/new/command/send", {
            imei: "359710049000101",
            content,
            sendType: "offline",
            replace,
          }, tokenA);
        const first = await send("STATUS#");
        assert.equal(first.json.data.status, "toBeSent");
        assert.equal((await send("WHERE#")).json.code, 43006);
        assert.equal((await send("WHERE#", true)).json.code, 10000);
        const online = await app.call("/v3/new/command/send", {
          imei: "359710049000101",
          content: "X",
          sendType: "online",
        }, tokenA);
        assert.equal(online.json.code, 42010, "online needs a live connection");
        const list = await app.call("/v3/new/command/list", {
          imei: "359710049000101",
          pageNum: 1,
          pageSize: 10,
        }, tokenA);
        assert.deepEqual(list.json.data.list.map((c: { status: string }) => c.status), [
          "toBeSent",
          "cancelled",
        ]);
        const cancel = await app.call(
          "/v3/new/command/cancel",
          { imei: "359710049000101" },
          tokenA,
        );
        assert.equal(cancel.json.data.status, "cancelled");
      },
    );

    await t.step("an account with devices cannot be deleted (20004)", async () => {
      const r = await app.call("/v3/new/account/delete", { id: distA }, admin);
      assert.equal(r.json.code, 20004);
      assert.equal(
        (await app.call("/v3/new/account/delete", { id: distB }, admin)).json.code,
        10000,
      );
    });
  } finally {
    await app.close();
  }
});

Deno.test("status state machine", () => {
  const now = Date.UTC(2026, 10, 21, 12);
  const base: DeviceState = {
    imei: "1",
    hbTime: now - 1000,
    gpsTime: now - 1000,
    position: null,
    acc: false,
    battery: null,
    signal: null,
    sleeping: false,
    poweredOff: false,
    lastMovingAt: null,
  };
  const pos = (speed: number) => ({
    ...base,
    position: {
      time: now,
      lat: 1,
      lng: 1,
      speed,
      course: 0,
      altitude: 0,
      satellites: 5,
      posType: 1 as const,
      valid: true,
      acc: null,
      mileage: null,
      battery: null,
      signal: null,
      attributes: {},
    },
  });
  const ten = 10 * 60_000;
  assert.equal(deriveStatus(null, now, ten), "inactive");
  assert.equal(deriveStatus({ ...base, hbTime: null }, now, ten), "inactive");
  assert.equal(deriveStatus(pos(40), now, ten), "moving");
  assert.equal(deriveStatus({ ...pos(0), acc: true }, now, ten), "idling");
  assert.equal(deriveStatus(pos(2), now, ten), "stopped", "GPS drift below 5 km/h is not moving");
  assert.equal(deriveStatus({ ...pos(40), hbTime: now - ten - 1 }, now, ten), "offline");
  assert.equal(deriveStatus({ ...base, sleeping: true }, now, ten), "sleeping");
  assert.equal(deriveStatus({ ...base, poweredOff: true }, now, ten), "poweredOff");
});
