/**
 * Open API keys in Chromium (issue 22, O1): a distributor creates a key on /openApiKeys, sees
 * the secret once, finds it masked in the list, signs a real /route/rest call with it, and
 * revokes it; the /openApiDocs reference lists every answer code. A distributor registers a push
 * endpoint on the same page, its device's SOS reaches the endpoint and the delivery is listed.
 * Screenshots on a laptop (1440x900) and a phone (390x844) under /tmp/o1shots.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import type { Page } from "playwright-core";
import { launchBrowser } from "../helpers/browser.ts";
import { startServer } from "../helpers/server.ts";
import { ApiClient } from "../helpers/api_client.ts";
import { formLogin, phoneContext } from "../helpers/e2e_pages.ts";
import { devicePorts } from "../helpers/gateway.ts";
import { gt06Login } from "../helpers/gt06_frames.ts";
import { RawDevice } from "../helpers/raw_device.ts";
import { gt06Alarm } from "../../modules/simulator/devices/gt06.ts";
import { sampleFix } from "../../modules/simulator/fix.ts";

const SHOTS = "/tmp/o1shots/";
const ADMIN_PASSWORD = "Admin12345";
const PASSWORD = "Passw0rd11";
const PUSH_IMEI = "359710049470013";
const md5 = (s: string) => createHash("md5").update(s, "utf8").digest("hex");

async function dismissReleaseNotes(page: Page) {
  const dialog = page.locator(".modal .modal-foot .btn-primary");
  if (await dialog.count()) await dialog.first().click();
}

/** A signed token.get as the public description gives it. */
async function tokenGet(url: string, appKey: string, secret: string) {
  const p: Record<string, string> = {
    method: "jimi.oauth.token.get",
    timestamp: new Date().toISOString().slice(0, 19).replace("T", " "),
    app_key: appKey,
    sign_method: "md5",
    v: "1.0",
    format: "json",
    user_id: "ui_dist",
    user_pwd_md5: md5(PASSWORD),
    expires_in: "600",
  };
  const names = Object.keys(p).sort();
  p.sign = md5(secret + names.map((k) => k + p[k]).join("") + secret).toUpperCase();
  const res = await fetch(`${url}/route/rest`, { method: "POST", body: new URLSearchParams(p) });
  return await res.json();
}

Deno.test({
  name: "e2e: open api keys page and reference",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    await Deno.mkdir(SHOTS, { recursive: true });
    const server = await startServer({ ADMIN_PASSWORD });
    const browser = await launchBrowser();
    try {
      const admin = await ApiClient.login(server.url, "admin", ADMIN_PASSWORD);
      const me = await admin.call("/v3/new/account/current");
      await admin.call("/v3/new/account/add", {
        account: "ui_dist",
        nickName: "UI distributor",
        password: PASSWORD,
        accountType: 8,
        parentId: me.userId,
      });
      const dist = await ApiClient.login(server.url, "ui_dist", PASSWORD);
      await dist.call("/v3/new/openapi/key/create", { name: "Dispatch system", scope: ["read"] });

      const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
      page.on("pageerror", (e) => console.error("page error:", e.message));
      await formLogin(page, server.url, "ui_dist", PASSWORD);
      await page.goto(`${server.url}/openApiKeys`);
      await page.waitForSelector("html[data-islands='hydrated']");
      await dismissReleaseNotes(page);
      await page.waitForSelector("[data-app-key]");
      await page.fill("#openapi-name", "ERP integration");
      await page.check("input[name=scope][value=commands]");
      await page.check("input[name=scope][value=manage]");
      await page.click("#openapi-create");
      await page.waitForSelector("#openapi-created");
      const appKey = (await page.textContent("#openapi-appKey"))!;
      const secret = (await page.textContent("#openapi-appSecret"))!;
      assert.match(secret, /^[0-9a-f]{32}$/);
      await page.screenshot({ path: `${SHOTS}keys-created-1440.png` });
      // The secret signs a real call; the list shows it masked only.
      assert.equal((await tokenGet(server.url, appKey, secret)).code, 0);
      await page.click("#openapi-created .btn-primary");
      await page.reload();
      await page.waitForSelector(`[data-app-key="${appKey}"]`);
      const html = await page.content();
      assert.ok(!html.includes(secret));
      assert.ok(html.includes(`••••••••${secret.slice(-4)}`));
      await page.screenshot({ path: `${SHOTS}keys-list-1440.png` });
      page.once("dialog", (d) => d.accept());
      await page.click(`[data-app-key="${appKey}"] .btn-danger`);
      await page.waitForSelector(`[data-app-key="${appKey}"] .openapi-status-revoked`);
      assert.equal((await tokenGet(server.url, appKey, secret)).code, 1007);

      await page.goto(`${server.url}/openApiDocs`);
      for (
        const code of [
          0,
          -1,
          1001,
          1002,
          1003,
          1004,
          1005,
          1006,
          1007,
          1008,
          1100,
          1112,
          1114,
          12001,
          12005,
        ]
      ) {
        assert.equal(await page.locator(`[data-code="${code}"]`).count(), 1, String(code));
      }
      assert.ok(await page.locator('[id="jimi.user.child.create"]').count());
      assert.ok(await page.locator('[id="jimi.device.track.list"]').count());
      await page.screenshot({ path: `${SHOTS}docs-1440.png` });

      const phone = await phoneContext(browser);
      const p2 = await phone.newPage();
      await formLogin(p2, server.url, "ui_dist", PASSWORD);
      await p2.goto(`${server.url}/openApiKeys`);
      await p2.waitForSelector("html[data-islands='hydrated']");
      await dismissReleaseNotes(p2);
      await p2.waitForSelector("[data-app-key]");
      await p2.screenshot({ path: `${SHOTS}keys-390.png`, fullPage: true });
      await p2.goto(`${server.url}/openApiDocs#jimi.oauth.token.get`);
      await p2.screenshot({ path: `${SHOTS}docs-390.png` });
      await phone.close();
    } finally {
      await browser.close();
      await server.stop();
    }
  },
});

Deno.test({
  name: "e2e: push endpoints are registered in the console and list their deliveries",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    await Deno.mkdir(SHOTS, { recursive: true });
    const received: FormData[] = [];
    const hook = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
      received.push(await req.formData());
      return new Response("ok");
    });
    // Loopback receivers are refused unless the operator allows private addresses.
    const server = await startServer({ ADMIN_PASSWORD, WEBHOOK_ALLOW_PRIVATE: "on" });
    const browser = await launchBrowser();
    let device: RawDevice | null = null;
    try {
      const admin = await ApiClient.login(server.url, "admin", ADMIN_PASSWORD);
      const me = await admin.call("/v3/new/account/current");
      const { id } = await admin.call("/v3/new/account/add", {
        account: "push_dist",
        nickName: "Push distributor",
        password: PASSWORD,
        accountType: 8,
        parentId: me.userId,
      });
      await admin.call("/v3/new/newEquipment/importEquipment", {
        userId: id,
        mcType: "GT06N",
        imeis: [PUSH_IMEI],
      });
      const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
      page.on("pageerror", (e) => console.error("page error:", e.message));
      await formLogin(page, server.url, "push_dist", PASSWORD);
      await page.goto(`${server.url}/openApiKeys`);
      await page.waitForSelector("html[data-islands='hydrated']");
      await dismissReleaseNotes(page);
      await page.fill("#push-url", `http://127.0.0.1:${hook.addr.port}/alarms`);
      await page.click("#push-add");
      await page.waitForSelector("[data-testid=push-endpoints] tbody tr");

      device = await RawDevice.open(devicePorts(server).gt06);
      await device.send(gt06Login(PUSH_IMEI, 1));
      await device.take(10);
      await device.send(gt06Alarm(sampleFix({ time: new Date(), alarm: "sos" }), 2));
      for (let i = 0; i < 100 && !received.length; i++) {
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.equal(received[0]?.get("msgType"), "jimi.push.device.alarm");
      await page.click(".openapi-push .panel-title .btn");
      await page.waitForSelector("[data-testid=push-log] .badge.ok");
      await page.locator("#openapi-push").screenshot({ path: `${SHOTS}push-1440.png` });

      const phone = await phoneContext(browser);
      const p2 = await phone.newPage();
      await formLogin(p2, server.url, "push_dist", PASSWORD);
      await p2.goto(`${server.url}/openApiKeys#openapi-push`);
      await p2.waitForSelector("[data-testid=push-log]");
      await dismissReleaseNotes(p2);
      await p2.locator("#openapi-push").screenshot({ path: `${SHOTS}push-390.png` });
      await phone.close();
    } finally {
      device?.conn.close();
      await browser.close();
      await server.stop();
      await hook.shutdown();
    }
  },
});
