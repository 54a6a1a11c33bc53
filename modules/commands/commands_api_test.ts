import assert from "node:assert/strict";
import ExcelJS from "exceljs";
import { type TestApp, testApp } from "../../tests/helpers/harness.ts";
import { CommandService } from "./service.ts";
import { jt808 } from "../gateway/protocols/jt808/index.ts";
import { jt808GeneralReply, jt808LocationReply } from "../simulator/devices/jt808.ts";
import { sampleFix } from "../simulator/fix.ts";
import { jt808TerminalNumber } from "../simulator/imei.ts";
import { testConnection, waitFor } from "./test_device.ts";

const PASSWORD = "Passw0rd11";
const GT = ["359710049200001", "359710049200002", "359710049200003"];
const VL01 = "359710049200004";
const JT = "359710049200005";
const PHONE = "359710049200006";
const ASLEEP = "359710049200007";

async function setup(app: TestApp) {
  const admin = await app.adminToken();
  const adminId = (await app.services.accountStore.findIdByLogin("admin"))!;
  const add = async (account: string) =>
    (await app.call("/v3/new/account/add", {
      account,
      nickName: `${account} nick`,
      password: PASSWORD,
      accountType: 8,
      parentId: adminId,
    }, admin)).json.data.id as string;
  const distId = await add("cmd_dist");
  const token = await app.login("cmd_dist", PASSWORD);
  const imp = async (mcType: string, imeis: string[]) => {
    const r = await app.call("/v3/new/newEquipment/importEquipment", {
      userId: distId,
      mcType,
      imeis,
    }, token);
    assert.equal(r.json.data.succeeded, imeis.length, JSON.stringify(r.json));
  };
  await imp("GT06N", [...GT, ASLEEP]);
  await imp("JM-VL01", [VL01]);
  await imp("JT808", [JT]);
  await imp("OsmAnd", [PHONE]);
  return { admin, adminId, distId, token, add };
}

Deno.test("commands API: catalogue, typed sends, every state, offline queue, templates, batches, permissions", async (t) => {
  const app = await testApp();
  const s = app.services;
  try {
    const { admin, distId, token, add } = await setup(app);
    const devices = new Map<string, ReturnType<typeof testConnection>>();
    for (const imei of [...GT, VL01]) {
      const d = testConnection(s.commands, { imei, protocol: "gt06" });
      s.connections.attach(d.conn);
      devices.set(imei, d);
    }
    const jt = testConnection(s.commands, { imei: JT, protocol: "jt808" });
    s.connections.attach(jt.conn);
    const status = async (id: string) => (await s.commandStore.get(id))!;
    const settled = (id: string) =>
      waitFor(`command ${id}`, async () => {
        const c = await status(id);
        return c.status !== "sending" && c.status !== "toBeSent" && c;
      });
    const send = (body: Record<string, unknown>, tk = token) =>
      app.call("/v3/new/command/sendInstruction", {
        sendType: "online",
        params: {},
        ...body,
      }, tk);

    await t.step("a device's instructions follow its model; a phone has none (43004)", async () => {
      const r = await app.call(`/v3/new/command/instructions?imei=${GT[0]}`, undefined, token);
      assert.equal(r.json.code, 10000);
      const codes = r.json.data.instructions.map((i: { code: string }) => i.code);
      assert.ok(codes.includes("engineCut") && codes.includes("reportInterval"));
      const phone = await app.call(`/v3/new/command/instructions?imei=${PHONE}`, undefined, token);
      assert.equal(phone.json.code, 43004);
      const cat = await app.call("/v3/new/command/catalogue", undefined, token);
      assert.ok(cat.json.data.models.some((m: { mcType: string }) => m.mcType === "H02"));
    });

    await t.step("online: to be sent → sending → succeeded with the device's reply", async () => {
      const r = await send({ imei: GT[0], code: "locate" });
      assert.equal(r.json.code, 10000);
      assert.equal(r.json.data.status, "sending");
      const done = await settled(r.json.data.id);
      assert.equal(done.status, "succeeded");
      assert.equal(done.reply, "OK");
      assert.deepEqual(done.phases!.map((p) => p.status), ["toBeSent", "sending", "succeeded"]);
      assert.deepEqual(devices.get(GT[0])!.seen, ["WHERE#"]);
    });

    await t.step("protected instructions need the login password (43003)", async () => {
      assert.equal((await send({ imei: GT[0], code: "engineCut" })).json.code, 43003);
      assert.equal(
        (await send({ imei: GT[0], code: "engineCut", password: "Wrong1234" })).json.code,
        43003,
      );
      const ok = await send({ imei: GT[0], code: "engineCut", password: PASSWORD });
      assert.equal(ok.json.code, 10000);
      await settled(ok.json.data.id);
      assert.equal(devices.get(GT[0])!.seen.at(-1), "DYD,000000#");
      // JM-VL01 relays need no password.
      const vl = await send({ imei: VL01, code: "engineCut" });
      assert.equal(vl.json.code, 10000);
      await settled(vl.json.data.id);
      assert.equal(devices.get(VL01)!.seen.at(-1), "RELAY,1#");
    });

    await t.step("typed parameters are validated, naming the field", async () => {
      const r = await send({ imei: GT[0], code: "reportInterval", params: { seconds: 1 } });
      assert.equal(r.json.code, 49004);
      assert.equal(r.json.data.field, "params.seconds");
      const unsupported = await send({ imei: VL01, code: "armAlarm" });
      assert.equal(unsupported.json.code, 43001);
    });

    await t.step("JT/T 808 locate now: 0x8201 → 0x0201 → succeeded with the location", async () => {
      const offered = await app.call(`/v3/new/command/instructions?imei=${JT}`, undefined, token);
      const codes = offered.json.data.instructions.map((i: { code: string }) => i.code);
      assert.ok(codes.includes("locate"), codes.join());
      const r = await send({ imei: JT, code: "locate" });
      assert.equal(r.json.data.content, "0x8201");
      const done = await settled(r.json.data.id);
      assert.equal(done.status, "succeeded");
      assert.equal(jt.seen.at(-1), "0x8201");
      assert.match(done.reply!, /^Lat:22\.543096,Lon:114\.057865,.*Time:2024-05-17 08:30:15 UTC$/);
    });

    await t.step(
      "JT/T 808 echoes 16-bit serials: ids past 65,535 match, out of order, strays ignored",
      async () => {
        s.connections.detach(jt.conn);
        const held = testConnection(s.commands, {
          imei: JT,
          protocol: "jt808",
          answer: () => null,
        });
        s.connections.attach(held.conn);
        const who = { id: distId, account: "cmd_dist", ownerId: distId };
        const input = {
          device: s.directory.get(JT)!,
          content: "0x8201",
          sendType: "online" as const,
          replace: false,
        };
        const a = await s.commands.send(
          { ...input, native: { kind: "jt808Locate" }, id: 0x10007 },
          who,
        );
        const b = await s.commands.send(
          { ...input, native: { kind: "jt808Control", word: 4 }, id: 0x20009 },
          who,
        );
        assert.deepEqual(held.seen, ["0x8201", "0x8105"]);
        // The terminal answers the later command first; each reply names only 16 bits.
        const answer = async (frame: Uint8Array) => {
          for (const f of jt808.createSplitter().push(frame)) {
            for (const m of jt808.decode(f, held.session).messages) {
              if (m.type === "commandReply") await s.commands.onReply(held.conn, m);
            }
          }
        };
        const terminal = jt808TerminalNumber(JT);
        await answer(jt808GeneralReply(terminal, 1, 0x0009, 0x8105, 0));
        assert.equal((await status(b.id)).status, "succeeded");
        assert.equal((await status(a.id)).status, "sending");
        // A late answer to a query no longer in flight settles nothing.
        await answer(jt808LocationReply(terminal, 2, 0x0006, sampleFix()));
        assert.equal((await status(a.id)).status, "sending");
        await answer(jt808LocationReply(terminal, 3, 0x0007, sampleFix()));
        const doneA = await status(a.id);
        assert.equal(doneA.status, "succeeded");
        assert.match(doneA.reply!, /^Lat:22\.543096,/);
        s.connections.detach(held.conn);
        s.connections.attach(jt.conn);
      },
    );

    await t.step("JT/T 808: 0x8105 acknowledged → succeeded; a refusal → failed", async () => {
      const r = await send({ imei: JT, code: "reboot" });
      assert.equal((await settled(r.json.data.id)).status, "succeeded");
      assert.equal(jt.seen.at(-1), "0x8105");
      s.connections.detach(jt.conn);
      const refusing = testConnection(s.commands, { imei: JT, protocol: "jt808", jt808Result: 3 });
      s.connections.attach(refusing.conn);
      const r2 = await send({ imei: JT, code: "reportInterval", params: { seconds: 60 } });
      const failed = await settled(r2.json.data.id);
      assert.equal(failed.status, "failed");
      assert.equal(refusing.seen.at(-1), "0x8103");
      assert.match(failed.reply!, /not supported/);
    });

    await t.step("a silent device → timeout", async () => {
      const quick = new CommandService(s.commandStore, s.connections, 50);
      const silent = testConnection(quick, { imei: GT[2], protocol: "gt06", answer: () => null });
      s.connections.attach(silent.conn);
      const device = s.directory.get(GT[2])!;
      const r = await quick.send(
        { device, content: "STATUS#", sendType: "online", replace: false },
        { id: distId, account: "cmd_dist", ownerId: distId },
      );
      await waitFor("timeout", async () => (await status(r.id)).status === "timeout");
      quick.stop();
      s.connections.detach(silent.conn);
      s.connections.attach(devices.get(GT[2])!.conn);
    });

    await t.step("after a restart, commands left sending time out on the next sweep", async () => {
      const before = new CommandService(s.commandStore, s.connections, 3_600_000);
      const silent = testConnection(before, { imei: GT[1], protocol: "gt06", answer: () => null });
      s.connections.attach(silent.conn);
      const r = await before.send(
        { device: s.directory.get(GT[1])!, content: "STATUS#", sendType: "online", replace: false },
        { id: distId, account: "cmd_dist", ownerId: distId },
      );
      before.stop(); // the process is gone; its timers with it
      const after = new CommandService(s.commandStore, s.connections);
      assert.equal(await after.sweep(Date.now()), 0, "not yet 60 s old");
      assert.equal(await after.sweep(Date.now() + 61_000), 1);
      const c = await status(r.id);
      assert.equal(c.status, "timeout");
      assert.equal(await after.sweep(Date.now() + 61_000), 0, "the index is cleared");
      s.connections.detach(silent.conn);
      s.connections.attach(devices.get(GT[1])!.conn);
    });

    await t.step(
      "offline: one pending per device, replace cancels the old, delivered on connect",
      async () => {
        const off = (replace = false) =>
          send({
            imei: ASLEEP,
            code: "reportInterval",
            params: { seconds: 60 },
            sendType: "offline",
            replace,
          });
        const online = await send({ imei: ASLEEP, code: "locate" });
        assert.equal(online.json.code, 42010, "online needs a live connection");
        const first = await off();
        assert.equal(first.json.data.status, "toBeSent");
        assert.equal((await off()).json.code, 43006);
        const second = await off(true);
        assert.equal(second.json.code, 10000);
        assert.equal((await status(first.json.data.id)).status, "cancelled");
        const d = testConnection(s.commands, { imei: ASLEEP, protocol: "gt06" });
        s.connections.attach(d.conn);
        await s.commands.onConnected(d.conn);
        const done = await settled(second.json.data.id);
        assert.equal(done.status, "succeeded");
        assert.deepEqual(d.seen, ["TIMER,60,60#"]);
        s.connections.detach(d.conn);
      },
    );

    await t.step("cancel one, or every pending command at once", async () => {
      const a = await send({ imei: ASLEEP, code: "locate", sendType: "offline" });
      assert.equal(a.json.data.status, "toBeSent");
      const phone = await app.call("/v3/new/command/send", {
        imei: PHONE,
        content: "hello",
        sendType: "offline",
      }, token);
      assert.equal(phone.json.code, 10000);
      const all = await app.call("/v3/new/command/cancelAll", {}, token);
      assert.equal(all.json.data.cancelled, 2);
      assert.equal((await status(a.json.data.id)).status, "cancelled");
      assert.equal((await status(phone.json.data.id)).status, "cancelled");
      const none = await app.call("/v3/new/command/cancel", { imei: ASLEEP }, token);
      assert.equal(none.json.code, 49006);
    });

    await t.step("templates: name ≤ 20, unique, at most 5 per account", async () => {
      const save = (name: string, extra = {}) =>
        app.call("/v3/new/command/template/save", {
          name,
          code: "reportInterval",
          params: { seconds: 30 },
          ...extra,
        }, token);
      const long = await save("x".repeat(21));
      assert.equal(long.json.data.field, "name");
      const bad = await save("bad", { params: { seconds: 0 } });
      assert.equal(bad.json.data.field, "params.seconds");
      for (let i = 1; i <= 5; i++) assert.equal((await save(`T${i}`)).json.code, 10000);
      assert.equal((await save("T1")).json.code, 43009);
      assert.equal((await save("T6")).json.code, 43008);
      const list = await app.call("/v3/new/command/template/list", {}, token);
      assert.equal(list.json.data.list.length, 5);
      const id = list.json.data.list[0].id;
      assert.equal((await save("T1 renamed", { id })).json.code, 10000, "editing is not adding");
      assert.equal(
        (await app.call("/v3/new/command/template/delete", { id }, token)).json.code,
        10000,
      );
      assert.equal((await save("T6")).json.code, 10000);
    });

    await t.step("batch: instructions offered for the chosen devices' models", async () => {
      const r = await app.call("/v3/new/command/batchInstructions", {
        imeis: [GT[0], VL01, PHONE, "359710049299999"],
      }, token);
      assert.equal(r.json.data.devices, 3);
      assert.equal(r.json.data.rejected, 1);
      const by = Object.fromEntries(
        r.json.data.instructions.map((i: { code: string }) => [i.code, i]),
      );
      assert.equal(by.engineCut.devices, 2, "GT06N and JM-VL01, not the phone");
      assert.equal(by.engineCut.passwordRequired, true, "GT06N protects it");
      assert.equal(by.armAlarm, undefined, "no chosen model arms alarms");
    });

    await t.step(
      "batch: every device gets a record with the batch number and its own result",
      async () => {
        const r = await app.call("/v3/new/command/batchSend", {
          imeis: [...GT, ASLEEP, PHONE, "359710049299999"],
          code: "locate",
          params: {},
          sendType: "online",
        }, token);
        assert.equal(r.json.code, 10000, JSON.stringify(r.json));
        assert.equal(r.json.data.deviceCount, 5);
        assert.deepEqual(r.json.data.rejected.map((x: { imei: string }) => x.imei), [
          "359710049299999",
        ]);
        const batchNo = r.json.data.batchNo;
        assert.match(batchNo, /^B\d{18}$/);
        const detail = await waitFor("batch replies", async () => {
          const d = await app.call("/v3/new/command/batchDetail", { batchNo }, token);
          return d.json.data.counts.succeeded === 3 && d.json.data;
        });
        const byImei = Object.fromEntries(
          detail.list.map((c: { imei: string; status: string; reply: string }) => [c.imei, c]),
        );
        assert.equal(byImei[ASLEEP].status, "failed");
        assert.equal(byImei[ASLEEP].reply, "deviceOffline");
        assert.equal(byImei[PHONE].reply, "modelHasNoInstructions");
        const batches = await app.call(
          "/v3/new/command/batchList",
          { pageNum: 1, pageSize: 10 },
          token,
        );
        const b = batches.json.data.list[0];
        assert.deepEqual([b.batchNo, b.category, b.deviceCount, b.senderAccount], [
          batchNo,
          "command",
          5,
          "cmd_dist",
        ]);
        const st = await app.call(
          "/v3/new/command/status",
          { batchNo, pageNum: 1, pageSize: 10 },
          token,
        );
        assert.equal(st.json.data?.total, 5, JSON.stringify(st.json));
        const failed = await app.call("/v3/new/command/status", {
          status: "failed",
          pageNum: 1,
          pageSize: 10,
        }, token);
        assert.ok(failed.json.data.list.every((c: { status: string }) => c.status === "failed"));
        const xlsx = await app.app.request(
          `/v3/new/command/status/export?batchNo=${batchNo}&lang=en`,
          { headers: { authorization: `Bearer ${token}` } },
        );
        assert.equal(
          xlsx.headers.get("content-type"),
          "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        );
        assert.match(xlsx.headers.get("content-disposition")!, /filename="commands-.*\.xlsx"/);
        const wb = new ExcelJS.Workbook();
        await wb.xlsx.load(await xlsx.arrayBuffer());
        const sheet = wb.worksheets[0];
        assert.equal(sheet.rowCount, 6);
        assert.equal(sheet.getCell(1, 1).text, "IMEI");
        const cells = [2, 3, 4, 5, 6].map((n) =>
          (sheet.getRow(n).values as unknown[]).map((v) => String(v ?? ""))
        );
        assert.ok(cells.every((r) => /^\d{15}$/.test(r[1])), JSON.stringify(cells));
        assert.equal(sheet.getCell(2, 1).type, ExcelJS.ValueType.String);
        const flat = cells.flat().join("\n");
        assert.match(flat, /Succeeded/);
        assert.match(flat, /The device is offline/);
        const csv = await app.app.request(
          `/v3/new/command/status/export?batchNo=${batchNo}&lang=en&format=csv`,
          { headers: { authorization: `Bearer ${token}` } },
        );
        const text = await csv.text();
        assert.match(csv.headers.get("content-disposition")!, /attachment; filename="commands-/);
        assert.equal(text.trim().split("\r\n").length, 6);
        assert.match(text, /Succeeded/);
        assert.match(text, /The device is offline/);
      },
    );

    await t.step(
      "permissions: isBatchSendIns, sendCommandFlag, modifyCommandFlag, virtual instructionsFlag",
      async () => {
        const body = { imeis: [GT[0]], code: "locate", params: {}, sendType: "online" };
        const setFlags = (permissions: Record<string, number>) =>
          app.call("/v3/new/account/update", { id: distId, permissions }, admin);
        assert.equal((await setFlags({ isBatchSendIns: 0 })).json.code, 10000);
        assert.equal((await app.call("/v3/new/command/batchSend", body, token)).json.code, 43010);
        assert.equal(
          (await send({ imei: GT[0], code: "locate" })).json.code,
          10000,
          "single still ok",
        );
        await setFlags({ isBatchSendIns: 1, sendCommandFlag: 0 });
        assert.equal((await send({ imei: GT[0], code: "locate" })).json.code, 49003);
        await setFlags({ sendCommandFlag: 1, modifyCommandFlag: 0 });
        const tpl = await app.call("/v3/new/command/template/save", {
          name: "Not allowed",
          code: "locate",
          params: {},
        }, token);
        assert.equal(tpl.json.code, 49003, "templates need modifyCommandFlag");
        const wm = await app.call("/v3/new/workMode/template/save", {
          name: "Not allowed",
          cycles: [{ mode: "normal", syncInterval: 5, limitType: "unlimited" }],
        }, token);
        assert.equal(wm.json.code, 49003);
        await setFlags({ modifyCommandFlag: 1 });
        for (const [account, flag] of [["cmdVirtualNo", 0], ["cmdVirtualYes", 1]] as const) {
          const v = await app.call("/v3/new/account/virtual/add", {
            account,
            nickName: account,
            password: PASSWORD,
            scope: { instructionsFlag: flag, updateFlag: 0, videoFlag: 0 },
          }, token);
          assert.equal(v.json.code, 10000, JSON.stringify(v.json));
          const vt = await app.login(account, PASSWORD);
          const batch = await app.call("/v3/new/command/batchSend", body, vt);
          assert.equal(batch.json.code, flag ? 10000 : 43010);
          assert.equal(
            (await send({ imei: GT[0], code: "locate" }, vt)).json.code,
            flag ? 10000 : 49003,
          );
        }
        void add;
      },
    );

    await t.step("the operation log says who did what, when, with what result", async () => {
      const r = await app.call(
        "/v3/new/command/operationLog",
        { pageNum: 1, pageSize: 100 },
        token,
      );
      const actions = r.json.data.list.map((e: { action: string }) => e.action);
      for (const a of ["send", "batchSend", "cancelAll", "templateSave", "templateDelete"]) {
        assert.ok(actions.includes(a), a);
      }
      const failed = r.json.data.list.find((e: { result: string }) => e.result === "failed");
      assert.ok(failed, "refused sends are logged as failed");
      assert.ok(
        r.json.data.list.some((e: { actorAccount: string }) => e.actorAccount === "cmdVirtualYes"),
      );
    });
  } finally {
    s.commands.stop();
    await app.close();
  }
});
