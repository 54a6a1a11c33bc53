/**
 * End to end in Chromium against a real server process: a distributor imports devices from an
 * xlsx file, makes a group and puts devices in it, edits the basic, customer (VIN warning)
 * and sensor tabs with their validation messages, uploads install images, then transfers devices
 * to a sub-account and sees them there and not in a sibling. Screenshots go to /tmp/devices_*.png.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import ExcelJS from "exceljs";
import type { Page } from "playwright-core";
import { launchBrowser } from "../helpers/browser.ts";
import { formLogin, phoneContext } from "../helpers/e2e_pages.ts";
import { startServer } from "../helpers/server.ts";
import { asAdmin, login, post } from "./devices_fixture.ts";

const ADMIN_PASSWORD = "Admin12345";
const PASSWORD = "Passw0rd99";
const SHOT = (name: string) => `/tmp/devices_${name}.png`;
const IMEI = (n: number) => String(359710049500000 + n);

async function xlsxFile(): Promise<string> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet("Import");
  ws.addRow(["IMEI", "Device name", "SIM"]);
  for (let i = 1; i <= 12; i++) ws.addRow([IMEI(i), `Truck ${String(i).padStart(2, "0")}`, ""]);
  ws.addRow(["12345", "bad IMEI", ""]);
  ws.addRow([IMEI(1), "repeated", ""]);
  const path = await Deno.makeTempFile({ suffix: ".xlsx" });
  await Deno.writeFile(path, new Uint8Array(await wb.xlsx.writeBuffer() as ArrayBuffer));
  return path;
}

async function rows(page: Page): Promise<string[]> {
  await page.waitForSelector(".devices-table");
  // Generous: the full suite runs beside this test on two shared cores.
  await page.waitForFunction(() => !document.querySelector(".table-wrap.is-loading"), null, {
    timeout: 60_000,
  });
  return await page.locator("tr[data-imei]").evaluateAll((trs) =>
    trs.map((r) => r.getAttribute("data-imei")!)
  );
}

/** Logs in and opens /devices, dismissing the first visit's notice when it shows. */
async function openDevices(page: Page, base: string, account: string) {
  await formLogin(page, base, account, PASSWORD);
  await page.goto(`${base}/devices`);
  await page.waitForSelector("html[data-islands='hydrated']");
  await page.locator(".modal .modal-foot .btn-primary").click({ timeout: 2000 }).catch(() => {});
}

async function pickAccount(page: Page, nick: string) {
  await page.locator(".devices > .tree-panel [data-tree-id]", { hasText: nick }).first().click();
  await page.waitForFunction(
    (n) => document.querySelector(".scope-chip")?.textContent?.includes(n),
    nick,
  );
}

Deno.test({
  name: "e2e: devices import, groups, details tabs, transfer to a sub-account",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const server = await startServer({ ADMIN_PASSWORD });
    const browser = await launchBrowser();
    const file = await xlsxFile();
    let page: Page | null = null;
    try {
      const base = server.url;
      const { adminId, add, token: adminToken } = await asAdmin(base, ADMIN_PASSWORD, PASSWORD);
      const dist = await add("dev_dist", "Northwind Devices", adminId, 8);
      const distToken = await login(base, "dev_dist", PASSWORD);
      // Two one-year cards and 100 Mi coins to renew with.
      await post(base, "/v3/new/wallet/allocate", {
        targetUserId: dist,
        coins: 100,
        cards: { "1y": 2 },
      }, adminToken);
      await add("fleet_a", "Fleet Alpha", dist, 12);
      await add("fleet_b", "Fleet Bravo", dist, 12);

      // One context: a second tab shares the login cookie.
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      page = await context.newPage();
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));
      await openDevices(page, base, "dev_dist");
      await page.waitForSelector(".devices-table");
      assert.deepEqual(await rows(page), []);
      await page.waitForSelector(".empty");

      // Import from an xlsx file: 12 rows imported, 2 refused, each with its reason.
      await page.click("#action-import");
      await page.selectOption("#import-model", "GT06N");
      await page.click("#import-mode-file");
      await page.setInputFiles("#import-file", file);
      await page.click("#import-submit");
      await page.waitForSelector("#import-result");
      assert.equal(await page.locator("tr[data-result=ok]").count(), 12);
      assert.equal(await page.locator("tr[data-result=failed]").count(), 2);
      await page.screenshot({ path: SHOT("import_result") });
      await page.click(".modal-head .icon-btn");
      assert.equal((await rows(page)).length, 10, "first page of 10");
      assert.match(await page.locator(".pagination").innerText(), /12/);
      await page.screenshot({ path: SHOT("list") });

      // A group, and two devices in it.
      await page.click("#action-groups");
      await page.fill("#group-name", "Vans");
      await page.click("#group-add");
      await page.waitForSelector("li[data-group=Vans]");
      await page.fill("#group-name", "vans");
      await page.click("#group-add");
      await page.waitForSelector(".modal .form-error");
      assert.match(await page.locator(".modal .form-error").innerText(), /already exists/);
      await page.screenshot({ path: SHOT("groups") });
      await page.click(".modal-head .icon-btn");
      for (const n of [1, 2]) await page.check(`tr[data-imei="${IMEI(n)}"] .col-check input`);
      await page.click("#action-set-group");
      await page.selectOption("#set-group-id", { label: "Vans" });
      // The dialog names the devices before, and reports each one after.
      assert.equal(await page.locator(".modal tr[data-bulk=pending]").count(), 2);
      await page.click("#set-group-submit");
      await page.waitForSelector("#bulk-result");
      assert.equal(await page.locator(".modal tr[data-bulk=ok]").count(), 2);
      await page.click("#set-group-submit-close");
      await page.waitForSelector(".modal", { state: "detached" });

      // Disable asks first (nothing changes on Cancel), then reports per device.
      await page.click("#action-disable");
      await page.waitForSelector("#bulk-devices");
      assert.match(await page.locator(".modal").innerText(), /Disable these devices\?/);
      await page.click(".modal-foot .btn:not(.btn-primary)");
      await page.waitForSelector(".modal", { state: "detached" });
      const enabledOf = async (n: number) =>
        (await post(base, "/v3/new/newEquipment/getDeviceDetail", { imei: IMEI(n) }, distToken))
          .basic.enabled;
      assert.equal(await enabledOf(1), true, "cancel changes nothing");
      await page.click("#action-disable");
      await page.click("#bulk-submit");
      await page.waitForSelector("#bulk-result");
      assert.equal(await page.locator(".modal tr[data-bulk=ok]").count(), 2);
      assert.match(await page.locator(".modal .result-counts").innerText(), /2 changed/);
      await page.screenshot({ path: SHOT("disable_result") });
      await page.click("#bulk-submit-close");
      assert.equal(await enabledOf(1), false);
      await page.click("#action-enable");
      await page.click("#bulk-submit");
      await page.waitForSelector("#bulk-result");
      await page.click("#bulk-submit-close");
      assert.equal(await enabledOf(1), true);
      await page.selectOption("#filter-groupId", { label: "Vans" });
      await page.waitForFunction(() => document.querySelectorAll("tr[data-imei]").length === 2);
      assert.deepEqual(await rows(page), [IMEI(1), IMEI(2)]);
      await page.selectOption("#filter-groupId", "");

      // Details: basic tab.
      await page.locator(`tr[data-imei="${IMEI(3)}"] .dev-name .link-btn`).click();
      await page.waitForSelector("[data-tab=basic]");
      await page.fill("#basic-deviceName", "");
      await page.click(".tab-save");
      assert.match(await page.locator(".field.has-error .field-error").innerText(), /required/);
      await page.fill("#basic-deviceName", "Reefer 03");
      await page.fill("#basic-sim", "13800138000");
      await page.click(".tab-save");
      await page.waitForFunction(() =>
        (document.querySelector("#basic-deviceName") as HTMLInputElement)?.value === "Reefer 03" &&
        document.querySelector(".modal-head h2")?.textContent?.includes("Reefer 03")
      );
      // Customer tab: a doubtful VIN asks before saving.
      await page.click("#tab-customer");
      await page.fill("#customer-driverName", "Li Lei");
      await page.fill("#customer-carFrame", "NOTAVIN");
      await page.click(".tab-save");
      await page.waitForSelector("#vin-confirm");
      // The reload after this save is held until the user is on the sensors tab: a save that
      // ends after the user moved on must leave the new tab (its errors and input) alone.
      let releaseReload = () => {};
      const reloadHeld = new Promise<void>((r) => releaseReload = r);
      await page.route("**/getDeviceDetail", async (route) => {
        await reloadHeld;
        await route.continue();
      });
      await page.click("#vin-save-anyway");
      await page.waitForSelector("#vin-confirm", { state: "detached" });
      // Sensors tab: battery required, one fuel sensor type, then a valid save.
      await page.click("#tab-sensors");
      await page.click("[data-tab=sensors] .tab-save");
      await page.fill("#sensors-adc", "typed before the reload");
      const reloaded = page.waitForResponse("**/getDeviceDetail");
      releaseReload();
      await reloaded;
      await page.unroute("**/getDeviceDetail");
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 50))));
      assert.match(
        await page.locator("[data-tab=sensors] .has-error").first().innerText(),
        /required/,
      );
      assert.equal(await page.inputValue("#sensors-adc"), "typed before the reload");
      await page.fill("#sensors-adc", "");
      await page.selectOption("#sensors-batteryType", "lithium");
      await page.fill("#sensors-nominalVoltage", "12");
      await page.click("#add-rod");
      await page.click("#add-rod");
      const names = page.locator("input[name=rod-name]");
      await names.nth(0).fill("Rod A");
      await names.nth(1).fill("Rod B");
      await page.locator("select[name=rod-type]").nth(1).selectOption("ultrasonic");
      await page.click(".tab-save");
      await page.waitForSelector("[data-tab=sensors] .tab-foot .form-error");
      assert.match(
        await page.locator("[data-tab=sensors] .tab-foot .form-error").innerText(),
        /one fuel sensor type/i,
      );
      await page.locator("select[name=rod-type]").nth(1).selectOption("capacitive");
      await page.click("#add-tank");
      await page.fill("input[name=tank-name]", "Main tank");
      await page.fill("input[name=tank-tankId]", "T-01");
      await page.fill("input[name=tank-width]", "40");
      await page.fill("input[name=tank-length]", "100");
      await page.fill("input[name=tank-height]", "50");
      await page.click(".tab-save");
      await page.waitForFunction(() =>
        (document.querySelector("input[name=tank-capacity]") as HTMLInputElement)?.value === "200"
      );
      await page.screenshot({ path: SHOT("details") });
      // An irregular tank goes by its calibration table; its capacity is the table's full litres.
      await page.click("#add-tank");
      const second = page.locator("fieldset.tank").nth(1);
      await second.locator("input[name=tank-name]").fill("Saddle tank");
      await second.locator("input[name=tank-tankId]").fill("T-02");
      await second.locator("select[name=tank-shape]").selectOption("irregular");
      await second.locator("textarea[name=tank-calibration]").fill("0.5, 0\n2, 60\n4.5, 150");
      await page.click(".tab-save");
      await page.waitForFunction(() =>
        (document.querySelectorAll("input[name=tank-capacity]")[1] as HTMLInputElement)?.value ===
          "150"
      );
      await page.evaluate(() => document.querySelectorAll("fieldset.tank")[1]?.scrollIntoView());
      await page.screenshot({ path: SHOT("details_calibration") });
      // The same tab on a phone.
      const phone = await phoneContext(browser);
      const phonePage = await phone.newPage();
      await openDevices(phonePage, base, "dev_dist");
      await phonePage.locator(`[data-imei="${IMEI(3)}"] .dev-name .link-btn`).first().click();
      await phonePage.waitForSelector("[data-tab=basic]");
      await phonePage.screenshot({ path: SHOT("details_basic_phone") });
      await phonePage.click("#tab-sensors");
      await phonePage.screenshot({ path: SHOT("details_sensors_phone") });
      await phonePage.waitForSelector("textarea[name=tank-calibration]");
      await phonePage.evaluate(() =>
        document.querySelector("textarea[name=tank-calibration]")?.scrollIntoView()
      );
      await phonePage.screenshot({ path: SHOT("details_calibration_phone") });
      await phone.close();
      await page.click("#tab-basic");
      await page.screenshot({ path: SHOT("details_basic") });
      await page.click(".modal-head .icon-btn");
      await page.waitForFunction(() =>
        document.querySelector('tr[data-imei="359710049500003"] .dev-name')?.textContent?.includes(
          "Reefer 03",
        )
      );

      // Install images: a real PNG named IMEI(n) is stored, a text file named .jpg is refused.
      const png = Buffer.from(
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
        "base64",
      );
      await page.click("#action-images");
      await page.setInputFiles("#images-files", [
        { name: `${IMEI(5)}(1).png`, mimeType: "image/png", buffer: png },
        {
          name: `${IMEI(5)}(2).jpg`,
          mimeType: "image/jpeg",
          buffer: Buffer.from("no"),
        },
      ]);
      await page.click("#images-submit");
      await page.waitForSelector("#upload-rows");
      await page.waitForFunction(() =>
        !document.querySelector("#upload-rows tr[data-task=uploading]")
      );
      assert.equal(await page.locator("#upload-rows tr[data-task=success]").count(), 1);
      assert.equal(await page.locator("#upload-rows tr[data-task=failure]").count(), 1);
      assert.match(await page.locator(".progress-line").innerText(), /2 of 2/);
      // The task list keeps both files with their results.
      await page.click("#images-tab-tasks");
      await page.waitForSelector("#image-tasks tr[data-task]");
      assert.equal(await page.locator("#image-tasks tr[data-task=success]").count(), 1);
      assert.match(
        await page.locator("#image-tasks tr[data-task=failure]").innerText(),
        /not accepted/,
      );
      await page.screenshot({ path: SHOT("image_tasks") });
      await page.click(".modal-head .icon-btn");
      await page.locator(`tr[data-imei="${IMEI(5)}"] .dev-name .link-btn`).click();
      await page.click("#tab-customer");
      // Lazy images load once scrolled into view; then the stored PNG must decode.
      await page.locator(".thumbs img").scrollIntoViewIfNeeded();
      await page.waitForFunction(() => {
        const img = document.querySelector(".thumbs img") as HTMLImageElement | null;
        return !!img && img.complete && img.naturalWidth > 0;
      });
      // Forbid binding by app accounts: the bind form goes, the list marks and filters it.
      await page.click("#tab-basic");
      await page.click("#app-bindable-toggle");
      await page.waitForSelector("#app-bindable [data-bindable=false]");
      assert.equal(await page.locator("#bind-account").count(), 0);
      await page.click(".modal-head .icon-btn");
      await page.waitForSelector(`tr[data-imei="${IMEI(5)}"] .dev-name .badge.muted`);
      await page.selectOption("#filter-appBindable", "false");
      await page.waitForFunction(() => document.querySelectorAll("tr[data-imei]").length === 1);
      assert.deepEqual(await rows(page), [IMEI(5)]);
      await page.selectOption("#filter-appBindable", "");
      await page.waitForFunction(() => document.querySelectorAll("tr[data-imei]").length === 10);

      // Renew three devices: two cards are not enough, 3 months is not offered for the model,
      // one year paid with Mi coins renews all three.
      for (const n of [3, 4, 6]) await page.check(`tr[data-imei="${IMEI(n)}"] .col-check input`);
      await page.click("#action-renew");
      await page.waitForSelector("#renew-quote tr[data-renew]");
      assert.match(await page.locator("#renew-total").innerText(), /not enough recharge cards/);
      assert.ok(await page.locator("#renew-submit").isDisabled());
      await page.click("#renew-term-3");
      await page.waitForFunction(() =>
        document.querySelectorAll("#renew-quote tr[data-renew=failed]").length === 3
      );
      assert.match(
        await page.locator("#renew-quote tr[data-renew=failed]").first().innerText(),
        /renewal type is wrong/,
      );
      await page.click("#renew-term-12");
      await page.click("#renew-pay-coin");
      await page.waitForFunction(() =>
        document.querySelectorAll("#renew-quote tr[data-renew=ok]").length === 3 &&
        document.querySelector("#renew-total")?.textContent?.includes("30")
      );
      // Auto renewal from now on, with the same term and payment.
      await page.check("#renew-auto");
      await page.screenshot({ path: SHOT("renew_quote") });
      await page.click("#renew-submit");
      await page.waitForSelector("#renew-result");
      assert.equal(await page.locator("#renew-result tr[data-renew=ok]").count(), 3);
      assert.match(await page.locator("#renew-balance").innerText(), /70 Mi coins/);
      await page.screenshot({ path: SHOT("renew_result") });
      await page.click("#renew-submit-close");
      const nextYear = new Date();
      nextYear.setUTCFullYear(nextYear.getUTCFullYear() + 1);
      await page.waitForFunction(
        ([imei, date]) =>
          document.querySelector(`tr[data-imei="${imei}"] .col-expiration`)?.textContent ===
            `${date}↻`,
        [IMEI(3), nextYear.toISOString().slice(0, 10)],
      );
      await page.uncheck(`tr[data-imei="${IMEI(6)}"] .col-check input`);
      // The details show auto renewal; it is turned off there.
      await page.locator(`tr[data-imei="${IMEI(6)}"] .dev-name .link-btn`).click();
      await page.waitForSelector("#auto-renewal [data-auto=on]");
      assert.match(await page.locator("#auto-renewal").innerText(), /1 year, paid with Mi coins/);
      await page.locator("#auto-renewal").scrollIntoViewIfNeeded();
      await page.screenshot({ path: SHOT("details_auto_renewal") });
      await page.click("#auto-renew-off");
      await page.waitForSelector("#auto-renewal [data-auto=off]");
      await page.click(".modal-head .icon-btn");
      await page.waitForFunction(
        (imei) => !document.querySelector(`tr[data-imei="${imei}"] .auto-renew`),
        IMEI(6),
      );

      // Transfer two devices to Fleet Alpha: there, and not in Fleet Bravo.
      for (const n of [3, 4]) await page.check(`tr[data-imei="${IMEI(n)}"] .col-check input`);
      await page.click("#action-transfer");
      await page.locator(".picker-tree [data-tree-id]", { hasText: "Fleet Alpha" }).click();
      await page.screenshot({ path: SHOT("transfer") });
      await page.click("#transfer-submit");
      await page.waitForSelector(".modal", { state: "detached" });
      await pickAccount(page, "Fleet Alpha");
      assert.deepEqual(await rows(page), [IMEI(3), IMEI(4)]);
      assert.match(page.url(), /userId=\d+.*nickName=Fleet/);
      await pickAccount(page, "Fleet Bravo");
      assert.deepEqual(await rows(page), []);
      // A new tab opened on the address starts on the same account.
      await pickAccount(page, "Fleet Alpha");
      // Hide the platform expiry from Fleet Alpha: its own login shows a dash.
      await page.uncheck("#show-platform-exp");
      await page.waitForSelector(".toast");
      const alpha = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      const alphaPage = await alpha.newPage();
      await openDevices(alphaPage, base, "fleet_a");
      assert.deepEqual(await rows(alphaPage), [IMEI(3), IMEI(4)]);
      assert.equal(
        await alphaPage.locator(`tr[data-imei="${IMEI(3)}"] .col-expiration`).innerText(),
        "-↻",
      );
      assert.equal(await alphaPage.locator("#action-renew").count(), 1);
      await alphaPage.screenshot({ path: SHOT("list_expiry_hidden") });
      await alpha.close();
      assert.equal(
        await page.locator(`tr[data-imei="${IMEI(3)}"] .col-expiration`).innerText(),
        `${nextYear.toISOString().slice(0, 10)}↻`,
      );
      const tab = await context.newPage();
      await tab.goto(page.url());
      await tab.waitForSelector("html[data-islands='hydrated']");
      assert.match(await tab.locator(".scope-chip").innerText(), /Fleet Alpha/);
      assert.deepEqual(await rows(tab), [IMEI(3), IMEI(4)]);
      // The same page in Simplified Chinese.
      await context.addCookies([{ name: "locale", value: "zh", url: base }]);
      await tab.reload();
      await tab.waitForSelector("html[data-islands='hydrated']");
      await tab.waitForSelector("tr[data-imei]");
      assert.match(await tab.locator(".panel-title h1").innerText(), /设备/);
      await tab.screenshot({ path: SHOT("list_zh") });
      // The renew dialog in Chinese, and the upload task list.
      await tab.check(`tr[data-imei="${IMEI(4)}"] .col-check input`);
      await tab.click("#action-renew");
      await tab.waitForSelector("#renew-quote tr[data-renew]");
      assert.match(await tab.locator(".modal-head h2").innerText(), /续费 1 台设备/);
      await tab.screenshot({ path: SHOT("renew_zh") });
      await tab.click(".modal-head .icon-btn");
      await tab.click("#action-images");
      await tab.click("#images-tab-tasks");
      await tab.waitForSelector("#image-tasks tr[data-task]");
      assert.match(await tab.locator("#image-tasks").innerText(), /成功/);
      assert.deepEqual(errors, []);
    } catch (e) {
      // The state the page was in helps more than the timeout alone.
      await page?.screenshot({ path: SHOT("failure") }).catch(() => {});
      throw e;
    } finally {
      await browser.close();
      await server.stop();
      await Deno.remove(file).catch(() => {});
    }
  },
});
