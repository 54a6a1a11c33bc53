/**
 * What spends credits, through real alert delivery: SMS through a real HTTP server standing in
 * for the SMS gateway (SMS_URL), and webhook pushes beyond the free monthly quota.
 */
import assert from "node:assert/strict";
import { testApp } from "../../tests/helpers/harness.ts";
import { accountWithDevices } from "../../tests/helpers/alerting.ts";
import { WalletStore } from "../wallet/store.ts";
import { CreditStore } from "./store.ts";

const IMEI = "359710049300077";

Deno.test("credits: alert SMS through the gateway and pushes beyond the free quota", async (t) => {
  const sms: { to: string; text: string }[] = [];
  const hooks: string[] = [];
  let gatewayDown = false;
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen: () => {} },
    async (req) => {
      const url = new URL(req.url);
      if (url.pathname === "/sms") {
        if (gatewayDown) return new Response("down", { status: 503 });
        sms.push(await req.json());
        return new Response("queued", { status: 202 });
      }
      hooks.push(await req.text());
      return new Response("ok");
    },
  );
  const app = await testApp({
    SMS_URL: `http://127.0.0.1:${server.addr.port}/sms`,
    FREE_PUSHES_PER_MONTH: "1",
    WEBHOOK_ALLOW_PRIVATE: "on",
    WEBHOOK_RETRY_MS: "20",
  });
  try {
    const a = await accountWithDevices(app, "spend_a", [IMEI]);
    // Of its 50 free credits the account has 3 left (47 spent on earlier SMS).
    const store = new CreditStore(app.services.kv, new WalletStore(app.services.kv));
    assert.equal(await store.spend(a.id, 47, "sms", "earlier", () => Promise.resolve(0)), a.id);
    const base = (await app.call("/v3/new/alarm/settings/get", {}, a.token)).json.data;
    const saved = await app.call("/v3/new/alarm/settings/save", {
      ...base,
      userId: undefined,
      silenceMinutes: 0,
      webhook: {
        enabled: true,
        url: `http://127.0.0.1:${server.addr.port}/hook`,
        secret: "s3cret",
        types: ["sos"],
      },
      sms: { enabled: true, phone: "+8613800000001", types: ["sos"] },
    }, a.token);
    assert.equal(saved.json.code, 10000, JSON.stringify(saved.json));
    const device = app.services.directory.get(IMEI)!;
    let second = 0;
    const sos = async () => {
      await app.services.ingestor.submit(device, [{
        type: "status",
        time: new Date(Date.now() - 60_000 + ++second * 1000),
        alarm: "sos",
        attributes: {},
      }]);
      await app.services.alertDelivery.idle();
    };
    const balance = async () => (await app.call("/v3/new/credits/balance", {}, a.token)).json.data;

    await t.step(
      "first alarm: the SMS costs a credit, the webhook is the month's free push",
      async () => {
        await sos();
        assert.equal(sms.length, 1);
        assert.equal(sms[0].to, "+8613800000001");
        assert.equal(sms[0].text, `[Alert] SOS — ${device.deviceName}`);
        assert.equal(hooks.length, 1);
        const b = await balance();
        assert.equal(b.credits, 2);
        assert.deepEqual([b.pushes.free, b.pushes.paid, b.pushes.skipped], [1, 0, 0]);
        assert.equal(b.sms.enabled, true);
      },
    );

    await t.step("beyond the quota a webhook push spends a credit", async () => {
      await sos();
      assert.equal(sms.length, 2);
      assert.equal(hooks.length, 2);
      const b = await balance();
      assert.equal(b.credits, 0);
      assert.deepEqual([b.pushes.free, b.pushes.paid, b.pushes.skipped], [1, 1, 0]);
    });

    await t.step("no credits left: SMS and push are skipped and counted, no error", async () => {
      await sos();
      assert.equal(sms.length, 2);
      assert.equal(hooks.length, 2);
      const b = await balance();
      assert.equal(b.credits, 0);
      assert.deepEqual([b.pushes.free, b.pushes.paid, b.pushes.skipped], [1, 1, 1]);
      // The alarm itself is still in the alert centre.
      const list = await app.call("/v3/new/alarm/list", { pageNum: 1, pageSize: 10 }, a.token);
      assert.equal(list.json.data.total, 3);
      const log = (await app.call("/v3/new/credits/log", {}, a.token)).json.data.list;
      assert.deepEqual(log.map((e: { kind: string }) => e.kind), [
        "push",
        "sms",
        "sms",
        "sms",
        "free",
      ]);
    });

    await t.step("a gateway refusal gives the credit back", async () => {
      await app.services.credits.grantCredits(a.id, 1, a.id);
      gatewayDown = true;
      assert.equal(await app.services.credits.sendSms(a.id, "+8613800000002", "hi"), "failed");
      assert.equal((await balance()).credits, 1);
      gatewayDown = false;
      assert.equal(await app.services.credits.sendSms(a.id, "+8613800000002", "hi"), "paid");
      assert.equal((await balance()).credits, 0);
      assert.deepEqual(sms.at(-1), { to: "+8613800000002", text: "hi" });
    });
  } finally {
    await app.close();
    await server.shutdown();
  }
});
