/**
 * Fleet reminders in Chromium: an enterprise adds a reminder that is already overdue and one
 * on schedule, sees them ordered overdue first, marks the overdue one done. Screenshots
 * (laptop 1440x900, phone 390x844) go to tests/screenshots/.
 */
import assert from "node:assert/strict";
import { launchBrowser } from "../helpers/browser.ts";
import { formLogin, phoneContext } from "../helpers/e2e_pages.ts";
import { enterpriseWithDevices, ready } from "../helpers/fleet.ts";
import { startServer } from "../helpers/server.ts";

const ADMIN_PASSWORD = "Admin12345";
const PASSWORD = "Passw0rd11";
const IMEI = "359710049440001";
const SHOTS = new URL("../screenshots/", import.meta.url).pathname;
const day = (offset: number) =>
  new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

Deno.test({
  name: "e2e fleet reminders: add, overdue first, mark done",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const server = await startServer({ ADMIN_PASSWORD });
    const browser = await launchBrowser();
    try {
      const { ent } = await enterpriseWithDevices(server.url, {
        adminPassword: ADMIN_PASSWORD,
        account: "remind_e2e",
        password: PASSWORD,
        imeis: [IMEI],
      });
      await ent.call("/v3/new/fleet/reminder/add", {
        name: "Annual inspection",
        type: "inspection",
        imei: IMEI,
        every: 1,
        unit: "year",
        advance: 30,
        startDate: day(-200),
      });

      const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(String(e)));
      await formLogin(page, server.url, "remind_e2e", PASSWORD);
      await page.goto(`${server.url}/fleetReminder`);
      await ready(page);
      await page.waitForSelector("[data-testid=reminder-card]");
      await page.click("#fr-add");
      await page.waitForSelector("#reminder-form");
      await page.fill("#reminder-form input[name=name]", "Oil change");
      await page.selectOption("#reminder-form select[name=imei]", IMEI);
      await page.fill("#reminder-form input[name=every]", "3");
      await page.fill("#reminder-form input[name=advance]", "10");
      await page.fill("#reminder-form input[name=startDate]", day(-100));
      await page.fill("#reminder-form input[name=email]", "workshop@harbour.test");
      await page.screenshot({ path: `${SHOTS}fleet-reminder-form-laptop.png` });
      await page.click("#fr-save");
      await page.waitForSelector("#reminder-form", { state: "detached" });
      await page.waitForSelector("[data-testid=reminder-card] >> text=Oil change");
      const names = await page.locator("[data-testid=reminder-card] h3").allTextContents();
      assert.deepEqual(names, ["Oil change", "Annual inspection"], "overdue first");
      assert.equal(await page.locator(".fr-chip.overdue").count(), 1);
      await page.screenshot({ path: `${SHOTS}fleet-reminders-laptop.png` });

      await page.locator("[data-testid=reminder-card]").first().locator(".btn-primary").click();
      await page.fill(".modal input >> nth=1", "5W-30, filter");
      await page.click("#fr-done-save");
      await page.waitForSelector(".fr-chip.overdue", { state: "detached" });
      const { list } = await ent.call("/v3/new/fleet/reminder/list", {});
      const oil = list.find((r: { name: string }) => r.name === "Oil change");
      assert.equal(oil.lastDone, day(0));
      assert.equal(oil.status.state, "ok");

      const phone = await phoneContext(browser);
      const p = await phone.newPage();
      p.on("pageerror", (e) => errors.push(String(e)));
      await formLogin(p, server.url, "remind_e2e", PASSWORD);
      await p.goto(`${server.url}/fleetReminder`);
      await ready(p);
      await p.waitForSelector("[data-testid=reminder-card]");
      await p.screenshot({ path: `${SHOTS}fleet-reminders-phone.png`, fullPage: true });
      await phone.close();
      assert.deepEqual(errors, []);
    } catch (e) {
      console.log(server.output().slice(-3000));
      throw e;
    } finally {
      await browser.close();
      await server.stop();
    }
  },
});
