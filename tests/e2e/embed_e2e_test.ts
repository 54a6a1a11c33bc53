/**
 * The embedded map in Chromium: another site (a second loopback server) frames /iframe with
 * an embed key; the map shows the account's device. A site the owner did not allow is refused
 * by the browser (CSP frame-ancestors). Screenshots: the framing site (1440x900), the embed
 * settings page, and the map on a phone (390x844).
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { launchBrowser } from "../helpers/browser.ts";
import { freePort, startServer } from "../helpers/server.ts";
import { devicePorts, importDevices, trackLocation } from "../helpers/gateway.ts";
import { RawDevice } from "../helpers/raw_device.ts";
import { gt06Heartbeat, gt06Login } from "../helpers/gt06_frames.ts";
import { formLogin, phoneContext } from "../helpers/e2e_pages.ts";

const SHOTS = new URL("../screenshots/", import.meta.url).pathname;
const ADMIN_PASSWORD = "Admin12345";
const IMEI = "359710049880020";

/** A page of "another site" that frames the map. */
function hostSite(port: number, src: string) {
  return Deno.serve({ port, hostname: "127.0.0.1", onListen: () => {} }, () =>
    new Response(
      `<!doctype html><html><head><meta charset="utf-8"></head><body style="font-family:sans-serif;margin:24px;background:#f6f7f9">
<h1 style="font-size:20px">Acme Logistics — where are our vans?</h1>
<iframe id="map" src="${src}" width="900" height="520" style="border:1px solid #ccd"></iframe>
</body></html>`,
      { headers: { "content-type": "text/html" } },
    ));
}

async function dismissReleaseNotes(page: Page) {
  const dialog = page.locator(".modal .modal-foot .btn-primary");
  if (await dialog.count()) await dialog.first().click();
}

Deno.test({
  name: "e2e: embedded map framed by an allowed site, refused elsewhere",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const server = await startServer({ ADMIN_PASSWORD });
    const allowedPort = freePort(), otherPort = freePort();
    const browser = await launchBrowser();
    const sites: Deno.HttpServer[] = [];
    try {
      const admin = await importDevices(server, ADMIN_PASSWORD, [IMEI]);
      const device = await RawDevice.open(devicePorts(server).gt06);
      await device.send(gt06Login(IMEI, 1));
      await device.take(10);
      await device.send(trackLocation(0));
      await device.send(gt06Heartbeat(12));
      await device.take(10);
      await device.done();

      const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
      page.on("pageerror", (e) => console.error("page error:", e.message));
      await formLogin(page, server.url, "admin", ADMIN_PASSWORD);
      await page.goto(`${server.url}/embedMap`);
      await page.waitForSelector("html[data-islands='hydrated']");
      await dismissReleaseNotes(page);
      await page.fill("#embed-origins", `http://127.0.0.1:${allowedPort}`);
      await page.click("#embed-save-origins");
      await page.waitForSelector(".toast");
      await page.fill("#embed-label", "Company website");
      await page.click("#embed-create");
      await page.waitForSelector("[data-embed-key]");
      const key = await page.getAttribute("[data-embed-key]", "data-embed-key");
      await page.screenshot({ path: `${SHOTS}embed-settings.png` });
      const settings = await admin.call("/v3/new/embed/keys", {});
      assert.equal(settings.keys[0].key, key);

      const src = `${server.url}/iframe?key=${key}`;
      sites.push(hostSite(allowedPort, src), hostSite(otherPort, src));
      await page.goto(`http://127.0.0.1:${allowedPort}/`);
      const frame = page.frameLocator("#map");
      await frame.locator("#embed-bar").getByText("1 device").waitFor({ timeout: 15_000 });
      await page.waitForTimeout(1000);
      await page.screenshot({ path: `${SHOTS}embed-framed.png` });

      // The same iframe on a site the owner did not name: the browser refuses to show it.
      await page.goto(`http://127.0.0.1:${otherPort}/`);
      await page.waitForTimeout(1500);
      const shown = await page.frameLocator("#map").locator("#embed-bar").count();
      assert.equal(shown, 0, "a site not allowed cannot frame the map");

      const phone = await phoneContext(browser);
      const p = await phone.newPage();
      await p.goto(src);
      await p.locator("#embed-bar").getByText("1 device").waitFor({ timeout: 15_000 });
      await p.waitForTimeout(800);
      await p.screenshot({ path: `${SHOTS}embed-phone.png` });
      await phone.close();
    } finally {
      await browser.close();
      for (const s of sites) await s.shutdown();
      await server.stop();
    }
  },
});
