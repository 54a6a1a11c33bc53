import assert from "node:assert/strict";
import { testApp } from "../../tests/helpers/harness.ts";
import { accountWithDevices, PASSWORD } from "../../tests/helpers/alerting.ts";
import { mailText, startSmtp } from "../../tests/helpers/smtp.ts";
import { sign } from "../notifications/webhook.ts";

const IMEI = "359710049300001";

Deno.test("delivery: verified alert mail over real SMTP, signed webhook with retry, password recovery", async (t) => {
  const smtp = await startSmtp();
  // A webhook receiver that fails the first call and accepts the retry.
  const calls: { headers: Headers; body: string }[] = [];
  const receiver = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen: () => {} },
    async (req) => {
      calls.push({ headers: req.headers, body: await req.text() });
      return new Response(calls.length === 1 ? "busy" : "ok", {
        status: calls.length === 1 ? 503 : 200,
      });
    },
  );
  const app = await testApp({
    SMTP_HOST: "127.0.0.1",
    SMTP_PORT: String(smtp.port),
    SMTP_FROM: "Tracking <alerts@tracking.test>",
    WEBHOOK_RETRY_MS: "50",
    // The receiver is on loopback, which webhooks may only reach when allowed.
    WEBHOOK_ALLOW_PRIVATE: "on",
  });
  try {
    const a = await accountWithDevices(app, "mail_a", [IMEI]);
    const base = (await app.call("/v3/new/alarm/settings/get", {}, a.token)).json.data;
    const settings = {
      ...base,
      userId: undefined,
      email: { enabled: true, address: "ops@fleet.test", types: ["sos"] },
      webhook: {
        enabled: true,
        url: `http://127.0.0.1:${receiver.addr.port}/hook`,
        secret: "s3cret",
        types: ["sos"],
      },
    };

    await t.step(
      "a new address cannot be saved before it is verified by the mailed code",
      async () => {
        const refused = await app.call("/v3/new/alarm/settings/save", settings, a.token);
        assert.equal(refused.json.code, 46001);
        const sent = await app.call(
          "/v3/new/alarm/email/sendCode",
          { email: "ops@fleet.test" },
          a.token,
        );
        assert.equal(sent.json.code, 10000, JSON.stringify(sent.json));
        const again = await app.call(
          "/v3/new/alarm/email/sendCode",
          { email: "ops@fleet.test" },
          a.token,
        );
        assert.equal(again.json.code, 40008); // once a minute
        const [mail] = await smtp.waitFor(1);
        assert.deepEqual(mail.to, ["ops@fleet.test"]);
        assert.equal(mail.subject, "Your verification code");
        const code = mailText(mail.raw).match(/\b(\d{6})\b/)![1];
        const wrong = await app.call("/v3/new/alarm/email/verify", {
          email: "ops@fleet.test",
          code: code === "000000" ? "111111" : "000000",
        }, a.token);
        assert.equal(wrong.json.code, 46005);
        const ok = await app.call(
          "/v3/new/alarm/email/verify",
          { email: "ops@fleet.test", code },
          a.token,
        );
        assert.equal(ok.json.code, 10000);
        const saved = await app.call("/v3/new/alarm/settings/save", settings, a.token);
        assert.equal(saved.json.code, 10000, JSON.stringify(saved.json));
      },
    );

    await t.step(
      "an SOS alarm is mailed and posted to the webhook, signed, retried after a failure",
      async () => {
        const device = app.services.directory.get(IMEI)!;
        await app.services.ingestor.submit(device, [{
          type: "status",
          time: new Date(),
          alarm: "sos",
          attributes: {},
        }]);
        await app.services.alertDelivery.idle();
        const mails = await smtp.waitFor(2);
        assert.equal(mails[1].subject, `[Alert] SOS — ${device.deviceName}`);
        assert.match(
          mailText(mails[1].raw),
          new RegExp(`Device: ${device.deviceName} \\(${IMEI}\\)`),
        );
        assert.equal(calls.length, 2);
        const { headers, body } = calls[1];
        const ts = headers.get("x-webhook-timestamp")!;
        assert.equal(
          headers.get("x-webhook-signature"),
          `sha256=${await sign("s3cret", ts, body)}`,
        );
        assert.equal(calls[0].headers.get("x-webhook-id"), headers.get("x-webhook-id"));
        const payload = JSON.parse(body);
        assert.equal(payload.event, "alert");
        assert.equal(payload.data.type, "sos");
        assert.equal(payload.data.imei, IMEI);
        const logs = await app.call("/v3/new/alarm/webhook/logs", {}, a.token);
        assert.equal(logs.json.data[0].ok, true);
        assert.deepEqual(logs.json.data[0].attempts.map((x: { status: number }) => x.status), [
          503,
          200,
        ]);
      },
    );

    await t.step(
      "password recovery: code to the account's email, then a new password",
      async () => {
        const admin = await app.adminToken();
        const acc = await app.services.accountStore.get(a.id);
        await app.services.accountStore.update({ ...acc!, email: "owner@fleet.test" });
        const noMail = await app.call("/v3/new/passwordRecovery/sendCode", { account: "admin" });
        assert.equal(noMail.json.code, 40013);
        const sent = await app.call("/v3/new/passwordRecovery/sendCode", { account: "mail_a" });
        assert.equal(sent.json.code, 10000, JSON.stringify(sent.json));
        assert.equal(sent.json.data.email, "ow***@fleet.test");
        const mails = await smtp.waitFor(3);
        const code = mailText(mails[2].raw).match(/\b(\d{6})\b/)![1];
        const bad = await app.call("/v3/new/passwordRecovery/reset", {
          account: "mail_a",
          code: code === "000000" ? "111111" : "000000",
          password: "NewPassw0rd",
          confirmPassword: "NewPassw0rd",
        });
        assert.equal(bad.json.code, 40010);
        const ok = await app.call("/v3/new/passwordRecovery/reset", {
          account: "mail_a",
          code,
          password: "NewPassw0rd",
          confirmPassword: "NewPassw0rd",
        });
        assert.equal(ok.json.code, 10000, JSON.stringify(ok.json));
        // The old session is gone, the old password too; the new one works.
        assert.equal((await app.call("/v3/new/alarm/settings/get", {}, a.token)).status, 401);
        const old = await app.call("/v3/new/account/login", {
          account: "mail_a",
          password: PASSWORD,
        });
        assert.notEqual(old.json.code, 10000);
        assert.ok(await app.login("mail_a", "NewPassw0rd"));
        void admin;
      },
    );
  } finally {
    await app.close();
    await receiver.shutdown();
    await smtp.close();
  }
});
