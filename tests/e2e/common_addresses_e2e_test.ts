/**
 * Common addresses in Chromium against a real server and a real GT06 device: added in the
 * device dialog's tab (starting at the device's last fix), saved, and drawn as a circle with
 * its name on the tracking map. Screenshots at 1440x900.
 */
import assert from "node:assert/strict";
import { launchBrowser } from "../helpers/browser.ts";
import { startServer } from "../helpers/server.ts";
import { devicePorts, importDevices, trackLocation } from "../helpers/gateway.ts";
import { RawDevice } from "../helpers/raw_device.ts";
import { gt06Heartbeat, gt06Login } from "../helpers/gt06_frames.ts";
import { formLogin } from "../helpers/e2e_pages.ts";

const SHOTS = new URL("../screenshots/", import.meta.url).pathname;
const ADMIN_PASSWORD = "Admin12345";
const IMEI = "359710049770037";

Deno.test({
  name: "e2e: common addresses in the device dialog and on the tracking map",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const server = await startServer({ ADMIN_PASSWORD });
    const browser = await launchBrowser();
    try {
      const admin = await importDevices(server, ADMIN_PASSWORD, [IMEI]);
      const device = await RawDevice.open(devicePorts(server).gt06);
      await device.send(gt06Login(IMEI, 1));
      await device.take(10);
      await device.send(trackLocation(0));
      await device.send(gt06Heartbeat(12));
      await device.take(10);

      const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
      page.on("pageerror", (e) => console.error("page error:", e.message));
      await formLogin(page, server.url, "admin", ADMIN_PASSWORD);
      await page.goto(`${server.url}/devices`);
      await page.waitForSelector("html[data-islands='hydrated']");
      const notes = page.locator(".modal .modal-foot .btn-primary");
      if (await notes.count()) await notes.first().click();
      await page.locator(`tr[data-imei="${IMEI}"] .dev-name .link-btn`).click();
      // The first row starts at the device's fix once that has loaded.
      const fix = page.waitForResponse((r) => r.url().includes("/v3/new/monitor/objects?imei="));
      await page.click("#tab-addresses");
      await page.waitForSelector(".addresses-tab .empty");
      await fix;
      await page.waitForTimeout(100);
      await page.click("#add-address");
      await page.fill("tr[data-address='0'] input[name=addressName]", "North depot");
      await page.fill("tr[data-address='0'] input[name=radius]", "400");
      assert.equal(await page.inputValue("tr[data-address='0'] input[name=latitude]"), "22.5");
      await page.click("#add-address");
      await page.fill("tr[data-address='1'] input[name=addressName]", "Customer yard");
      await page.fill("tr[data-address='1'] input[name=latitude]", "22.507");
      await page.click("#save-addresses");
      await page.waitForSelector(".toast");
      await page.screenshot({ path: `${SHOTS}common-addresses-dialog.png` });
      const saved = await admin.call("/v3/new/device/commonAddress/list", { imei: IMEI });
      assert.deepEqual(saved.commonAddressList.map((a: { addressName: string }) => a.addressName), [
        "North depot",
        "Customer yard",
      ]);
      assert.equal(saved.commonAddressList[0].color, "#3b7aff");

      await page.goto(`${server.url}/monitorTracking?imei=${IMEI}`);
      await page.waitForSelector("html[data-islands='hydrated']");
      await page.waitForFunction(
        () => {
          const live = (globalThis as { __tpLive?: { base: { map: { getLayers(): unknown } } } })
            .__tpLive;
          // deno-lint-ignore no-explicit-any
          const layers = (live?.base.map.getLayers() as any)?.getArray() ?? [];
          // deno-lint-ignore no-explicit-any
          const layer = layers.find((l: any) => l.get("name") === "commonAddresses");
          return layer?.getSource().getFeatures().length === 2;
        },
        undefined,
        { timeout: 15_000 },
      );
      await page.evaluate(() => {
        // deno-lint-ignore no-explicit-any
        const live = (globalThis as any).__tpLive;
        live.base.map.getView().setZoom(15);
      });
      await page.waitForTimeout(800);
      await page.screenshot({ path: `${SHOTS}common-addresses-tracking.png` });
      await device.done();
    } finally {
      await browser.close();
      await server.stop();
    }
  },
});
