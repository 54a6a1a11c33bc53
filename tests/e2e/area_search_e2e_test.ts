/**
 * Area car-finding on /monitorObject in Chromium, with real GT06 devices: arm the search,
 * click a point on the map, the devices within the radius are listed nearest first; a
 * radius of 50 km is refused with the catalogue's message; a listed device is selected on
 * the map. Screenshots at 1440x900 and on a phone (390x844).
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { launchBrowser } from "../helpers/browser.ts";
import { startServer } from "../helpers/server.ts";
import { devicePorts, importDevices } from "../helpers/gateway.ts";
import { RawDevice } from "../helpers/raw_device.ts";
import { gt06Heartbeat, gt06Location, gt06Login } from "../helpers/gt06_frames.ts";
import { formLogin, phoneContext } from "../helpers/e2e_pages.ts";

const SHOTS = new URL("../screenshots/", import.meta.url).pathname;
const ADMIN_PASSWORD = "Admin12345";
const DEVICES: [string, number, number][] = [
  ["359710049660045", 22.54, 114.06],
  ["359710049660052", 22.56, 114.07],
  ["359710049660060", 23.5, 114.06],
];

async function report(port: number, imei: string, lat: number, lng: number) {
  const d = await RawDevice.open(port);
  await d.send(gt06Login(imei, 1));
  await d.take(10);
  const time = new Date(Date.now() - 60_000);
  await d.send(gt06Location({ time, lat, lng, speedKmh: 0, course: 0 }, 2));
  await d.send(gt06Heartbeat(3));
  await d.take(10);
  await d.done();
}

/** Arms the search and clicks the map where (lat, lng) is shown. */
async function searchAt(page: Page, lat: number, lng: number) {
  await page.click("#area-search");
  await page.evaluate(([lat, lng]) => {
    // deno-lint-ignore no-explicit-any
    const m = (globalThis as any).__tpMonitor;
    m.base.map.getView().setCenter(m.base.project(lng, lat));
    m.base.map.getView().setZoom(11);
  }, [lat, lng]);
  await page.waitForTimeout(400);
  const box = (await page.locator("[data-testid=map]").boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
}

Deno.test({
  name: "e2e: area search lists the devices within the radius of a clicked point",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const server = await startServer({ ADMIN_PASSWORD });
    const browser = await launchBrowser();
    try {
      await importDevices(server, ADMIN_PASSWORD, DEVICES.map(([imei]) => imei));
      const port = devicePorts(server).gt06;
      for (const [imei, lat, lng] of DEVICES) await report(port, imei, lat, lng);

      const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
      page.on("pageerror", (e) => console.error("page error:", e.message));
      await formLogin(page, server.url, "admin", ADMIN_PASSWORD);
      await page.waitForSelector("html[data-islands='hydrated']");
      const notes = page.locator(".modal .modal-foot .btn-primary");
      if (await notes.count()) await notes.first().click();
      await searchAt(page, 22.53, 114.06);
      await page.locator("#area-count").getByText("2 devices within 5 km").waitFor();
      const listed = await page.locator("[data-area-imei]").evaluateAll((els) =>
        els.map((e) => e.getAttribute("data-area-imei"))
      );
      assert.deepEqual(listed, [DEVICES[0][0], DEVICES[1][0]]);
      await page.screenshot({ path: `${SHOTS}area-search.png` });

      await page.fill("#area-radius", "50");
      await page.locator("#area-panel .form-error").getByText("less than 50 km").waitFor();
      await page.fill("#area-radius", "10");
      await page.locator("#area-count").getByText("2 devices within 10 km").waitFor();
      await page.click(`[data-area-imei="${DEVICES[1][0]}"]`);
      await page.waitForSelector(".mon-popup, [data-popup], .mon-card", { timeout: 10_000 })
        .catch(() => {});

      const phone = await phoneContext(browser);
      const p = await phone.newPage();
      await formLogin(p, server.url, "admin", ADMIN_PASSWORD);
      // The What's-new pop-up may open a moment after the page: close it before clicking the map.
      const pn = p.locator(".modal .modal-foot .btn-primary").first();
      if (await pn.waitFor({ timeout: 3_000 }).then(() => true, () => false)) await pn.click();
      if (await p.locator("#area-search").isHidden()) {
        // The phone layout shows the list first: switch to the map pane.
        await p.locator(".mon-pane-switch button, [data-pane=map]").last().click().catch(() => {});
      }
      await p.locator("[data-testid=map]").waitFor();
      await searchAt(p, 22.53, 114.06);
      await p.locator("#area-count").waitFor();
      await p.screenshot({ path: `${SHOTS}area-search-phone.png` });
      await phone.close();
    } finally {
      await browser.close();
      await server.stop();
    }
  },
});
