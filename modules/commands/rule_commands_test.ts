/**
 * Commands attached to rules (fence `command`, auto broadcast `content`): the send policy
 * when the rule is saved, the owner's current rights when it fires, and the command log.
 */
import assert from "node:assert/strict";
import { type TestApp, testApp } from "../../tests/helpers/harness.ts";
import { accountWithDevices, circleFence, PASSWORD } from "../../tests/helpers/alerting.ts";
import { CATALOGUE } from "../../lib/errors.ts";
import type { Position } from "../gateway/protocols/types.ts";
import { commandWord, protectedInstruction } from "./rule_commands.ts";

const LAT = 22.5431, LNG = 114.0579;
const T0 = Date.UTC(2026, 10, 20, 2, 0, 0);

Deno.test("rule commands: protected instructions are recognised in free text", () => {
  assert.equal(commandWord(" dyd,123456# "), "DYD");
  assert.equal(commandWord("*HQ,4210051415,S20,130305,1,1#"), "S20");
  for (const text of ["DYD,000000#", "dyd,654321#", "HFYD,000000", "RELAY,1#", "RELAY,0#"]) {
    assert.ok(protectedInstruction(text), text);
  }
  assert.equal(protectedInstruction("DYD,000000#"), "engineCut");
  assert.equal(protectedInstruction("FACTORY#"), "factoryReset");
  assert.ok(protectedInstruction("*HQ,4210051415,S20,130305,1,1#"));
  for (const text of ["WHERE#", "STATUS#", "Help is on the way", "TIMER,30,30#"]) {
    assert.equal(protectedInstruction(text), null, text);
  }
  // For a known model, only what that model protects.
  assert.ok(protectedInstruction("RELAY,1#", "GT800"));
  assert.equal(protectedInstruction("RELAY,1#", "JM-VL01"), null);
  assert.equal(protectedInstruction("DYD,000000#", "GT06N"), "engineCut");
});

Deno.test("text sends: a protected instruction typed as text needs the password", async () => {
  const app = await testApp({ ALERT_ENGINE: "off" });
  try {
    const IMEI = "359710049710009";
    const a = await accountWithDevices(app, "rc_direct", [IMEI]);
    /** A sender of text through one of the three send paths: queued offline, password if given. */
    const through =
      (path: string, body: (text: string) => Record<string, unknown>) =>
      (text: string, password?: string) =>
        app.call(path, {
          ...body(text),
          sendType: "offline",
          replace: true,
          ...(password ? { password } : {}),
        }, a.token);
    const send = through("/v3/new/command/send", (content) => ({ imei: IMEI, content }));
    const custom = through(
      "/v3/new/command/sendInstruction",
      (text) => ({ imei: IMEI, code: "custom", params: { text } }),
    );
    // A batch of one device with the same custom text.
    const flags = await app.call("/v3/new/account/update", {
      id: a.id,
      permissions: { isBatchSendIns: 1 },
    }, a.admin);
    assert.equal(flags.json.code, 10000, JSON.stringify(flags.json));
    const batch = through(
      "/v3/new/command/batchSend",
      (text) => ({ imeis: [IMEI], code: "custom", params: { text } }),
    );
    for (const attempt of [send, custom, batch]) {
      for (const password of [undefined, "Wrong1234"]) {
        const r = await attempt("dyd,000000#", password);
        assert.equal(r.json.code, CATALOGUE.commandPasswordIncorrect, JSON.stringify(r.json));
      }
      assert.equal((await attempt("DYD,000000#", PASSWORD)).json.code, 10000);
      assert.equal((await attempt("WHERE#")).json.code, 10000);
    }
  } finally {
    await app.close();
  }
});

/** One fix through the real ingest pipeline, then the engine and delivery settle. */
async function fix(app: TestApp, imei: string, at: number, lat: number, alarm?: "sos") {
  const device = app.services.directory.get(imei)!;
  const position: Position = {
    time: new Date(at),
    valid: true,
    latitude: lat,
    longitude: LNG,
    altitude: 0,
    speed: 0,
    course: 90,
    posType: 1,
    alarm,
    attributes: {},
  };
  await app.services.ingestor.submit(device, [{ type: "position", position }]);
  await app.services.alertEngine.idle();
  await app.services.alertDelivery.idle();
  // Rule commands are sent off the event path; let them land.
  await new Promise((r) => setTimeout(r, 150));
}

async function commandsOf(app: TestApp, token: string, imei: string) {
  const r = await app.call("/v3/new/command/list", { imei, pageSize: 100 }, token);
  assert.equal(r.json.code, 10000, JSON.stringify(r.json));
  return r.json.data.list as { content: string; status: string; reply: string | null }[];
}

async function opLog(app: TestApp, token: string) {
  const r = await app.call("/v3/new/command/operationLog", { pageSize: 100 }, token);
  assert.equal(r.json.code, 10000, JSON.stringify(r.json));
  return r.json.data.list as { actorAccount: string; target: string; result: string }[];
}

Deno.test("rule commands: saving a fence or broadcast rule with a command", async (t) => {
  const app = await testApp({ ALERT_ENGINE: "off" });
  try {
    const IMEI = "359710049710001";
    const a = await accountWithDevices(app, "rc_save", [IMEI]);
    const setFlags = (permissions: Record<string, number>) =>
      app.call("/v3/new/account/update", { id: a.id, permissions }, a.admin);
    const fence = (command: string, extra: Record<string, unknown> = {}) =>
      app.call("/v3/new/geofence/save", {
        ...circleFence("Gate", LAT, LNG, 300),
        command,
        imeis: [IMEI],
        ...extra,
      }, a.token);
    const rule = (content: string, extra: Record<string, unknown> = {}) =>
      app.call("/v3/new/alarm/broadcast/save", {
        rule: { name: "SOS", alarmType: "sos", count: 1, unitMinutes: 60, content },
        ...extra,
      }, a.token);
    const zones = async () => (await app.services.geofenceStore.ofUser(a.id, "fence")).length;

    await t.step("without sendCommandFlag: refused, nothing stored", async () => {
      assert.equal((await setFlags({ sendCommandFlag: 0 })).json.code, 10000);
      assert.equal((await fence("WHERE#")).json.code, CATALOGUE.permissionDenied);
      assert.equal((await rule("WHERE#")).json.code, CATALOGUE.permissionDenied);
      assert.equal(await zones(), 0);
      assert.equal(app.services.autoBroadcast.list(a.id).length, 0);
      // A fence without a command is not a send: still allowed.
      const plain = await fence("");
      assert.equal(plain.json.code, 10000, JSON.stringify(plain.json));
      await app.call("/v3/new/geofence/delete", { id: plain.json.data.id }, a.token);
      await setFlags({ sendCommandFlag: 1 });
    });

    await t.step("a protected instruction needs the login password", async () => {
      for (const save of [fence, rule]) {
        for (const extra of [{}, { password: "Wrong1234" }]) {
          const r = await save("DYD,000000#", extra);
          assert.equal(r.json.code, CATALOGUE.commandPasswordIncorrect, JSON.stringify(r.json));
          assert.equal(r.json.data.field, "password");
        }
      }
      assert.equal(await zones(), 0);
      assert.equal(app.services.autoBroadcast.list(a.id).length, 0);
      const f = await fence("DYD,000000#", { password: PASSWORD });
      assert.equal(f.json.code, 10000, JSON.stringify(f.json));
      // The password is checked, never stored.
      const stored = await app.services.geofenceStore.get(f.json.data.id);
      assert.equal((stored as unknown as Record<string, unknown>)?.password, undefined);
      assert.equal(f.json.data.password, undefined);
      const r = await rule("RELAY,1#", { password: PASSWORD });
      assert.equal(r.json.code, 10000, JSON.stringify(r.json));
      // Editing other fields keeps the confirmed command without asking again.
      const renamed = await app.call("/v3/new/geofence/save", {
        ...circleFence("Gate 2", LAT, LNG, 300),
        id: f.json.data.id,
        command: "DYD,000000#",
        imeis: [IMEI],
      }, a.token);
      assert.equal(renamed.json.code, 10000, JSON.stringify(renamed.json));
    });

    await t.step("a kept command: renaming needs no right, new devices do", async () => {
      const [gate] = await app.services.geofenceStore.ofUser(a.id, "fence");
      assert.equal((await setFlags({ sendCommandFlag: 0 })).json.code, 10000);
      const body = { ...circleFence("Gate 3", LAT, LNG, 300), id: gate.id, command: gate.command };
      const renamed = await app.call("/v3/new/geofence/save", { ...body, imeis: [IMEI] }, a.token);
      assert.equal(renamed.json.code, 10000, JSON.stringify(renamed.json));
      const widened = await app.call("/v3/new/geofence/save", { ...body, imeis: [] }, a.token);
      assert.equal(widened.json.code, CATALOGUE.permissionDenied);
      const bound = await app.call("/v3/new/geofence/bind", { id: gate.id, imeis: [] }, a.token);
      assert.equal(bound.json.code, CATALOGUE.permissionDenied);
      assert.deepEqual((await app.services.geofenceStore.get(gate.id))?.imeis, [IMEI]);
      const [r] = app.services.autoBroadcast.list(a.id);
      const { userId: _owner, ...rule } = r;
      const kept = await app.call("/v3/new/alarm/broadcast/save", {
        rule: { ...rule, name: "SOS 2" },
      }, a.token);
      assert.equal(kept.json.code, 10000, JSON.stringify(kept.json));
      const moved = await app.call("/v3/new/alarm/broadcast/save", {
        rule: { ...rule, imeis: [IMEI] },
      }, a.token);
      assert.equal(moved.json.code, CATALOGUE.permissionDenied);
      await setFlags({ sendCommandFlag: 1 });
    });

    await t.step("the catalogue's free-text rules apply", async () => {
      const inner = await fence("WHERE#,STATUS");
      assert.equal(inner.json.code, CATALOGUE.illegalParameter);
      assert.equal(inner.json.data.field, "command");
      const wide = await rule("停车");
      assert.equal(wide.json.code, CATALOGUE.illegalParameter);
      assert.equal(wide.json.data.field, "rule.content");
    });
  } finally {
    await app.close();
  }
});

Deno.test("rule commands: fired with the owner's current rights, and logged", async (t) => {
  const app = await testApp();
  try {
    const FENCE_DEV = "359710049710002", SOS_DEV = "359710049710003";
    const a = await accountWithDevices(app, "rc_fire", [FENCE_DEV, SOS_DEV]);
    const setFlags = (permissions: Record<string, number>) =>
      app.call("/v3/new/account/update", { id: a.id, permissions }, a.admin);
    const f = await app.call("/v3/new/geofence/save", {
      ...circleFence("Depot", LAT, LNG, 300),
      command: "DYD,000000#",
      password: PASSWORD,
      imeis: [FENCE_DEV],
    }, a.token);
    assert.equal(f.json.code, 10000, JSON.stringify(f.json));
    const r = await app.call("/v3/new/alarm/broadcast/save", {
      rule: {
        name: "SOS",
        alarmType: "sos",
        count: 1,
        unitMinutes: 60,
        content: "WHERE#",
        imeis: [SOS_DEV],
      },
    }, a.token);
    assert.equal(r.json.code, 10000, JSON.stringify(r.json));
    const pending = (imei: string) => app.services.commandStore.pendingFor(imei);

    await t.step("with the right: delivered (queued) and in the command log", async () => {
      await fix(app, FENCE_DEV, T0, LAT + 0.05);
      await fix(app, FENCE_DEV, T0 + 60_000, LAT);
      await fix(app, SOS_DEV, T0, LAT + 0.05, "sos");
      const fenceCmds = await commandsOf(app, a.token, FENCE_DEV);
      assert.deepEqual(fenceCmds.map((c) => c.content), ["DYD,000000#"]);
      assert.equal((await pending(FENCE_DEV))?.content, "DYD,000000#");
      assert.deepEqual((await commandsOf(app, a.token, SOS_DEV)).map((c) => c.content), [
        "WHERE#",
      ]);
      const log = await opLog(app, a.token);
      assert.ok(
        log.some((e) =>
          e.actorAccount === "fence:Depot" && e.target === FENCE_DEV && e.result === "ok"
        ),
        JSON.stringify(log),
      );
      assert.ok(
        log.some((e) => e.actorAccount === "broadcast:SOS" && e.target === SOS_DEV),
        JSON.stringify(log),
      );
      // Clear the queue so the next step sees only what it causes.
      assert.equal((await app.call("/v3/new/command/cancelAll", {}, a.token)).json.code, 10000);
    });

    await t.step("sendCommandFlag revoked after the save: nothing is delivered", async () => {
      assert.equal((await setFlags({ sendCommandFlag: 0 })).json.code, 10000);
      await fix(app, FENCE_DEV, T0 + 120_000, LAT + 0.05);
      await fix(app, FENCE_DEV, T0 + 180_000, LAT);
      await fix(app, SOS_DEV, T0 + 120_000, LAT + 0.05, "sos");
      assert.equal(await pending(FENCE_DEV), null);
      assert.equal(await pending(SOS_DEV), null);
      // The refusal is recorded as a failed command with its reason, and in the log.
      const [latest] = await commandsOf(app, a.token, FENCE_DEV);
      assert.equal(latest.status, "failed");
      assert.equal(latest.reply, "permissionDenied");
      const [sos] = await commandsOf(app, a.token, SOS_DEV);
      assert.equal(sos.status, "failed");
      const log = await opLog(app, a.token);
      assert.ok(
        log.some((e) => e.actorAccount === "fence:Depot" && e.result === "failed"),
        JSON.stringify(log),
      );
      assert.ok(
        log.some((e) => e.actorAccount === "broadcast:SOS" && e.result === "failed"),
        JSON.stringify(log),
      );
    });
  } finally {
    await app.close();
  }
});
