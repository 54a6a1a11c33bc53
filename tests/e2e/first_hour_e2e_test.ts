/**
 * First-hour polish in Chromium against a real server process: the "What's new" pop-up is
 * readable (dark text on its white card) at laptop and phone sizes, and a command picker
 * starts on a harmless instruction while an engine cut asks for confirmation naming the
 * command and the device. Screenshots go to /tmp/first_hour_*.png.
 */
import assert from "node:assert/strict";
import type { Browser, Page } from "playwright-core";
import { launchBrowser } from "../helpers/browser.ts";
import { formLogin } from "../helpers/e2e_pages.ts";
import { startServer } from "../helpers/server.ts";
import { asAdmin, login, post } from "./devices_fixture.ts";

const ADMIN_PASSWORD = "Admin12345";
const PASSWORD = "Passw0rd99";
const SHOT = (name: string) => `/tmp/first_hour_${name}.png`;
const IMEI = "359710049600001";
const PHONE_UA =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";

/** The pop-up's text is dark on a light card: luminance of text and card differ widely. */
async function assertReadable(page: Page) {
  await page.waitForSelector("#release-popup li");
  const [text, card] = await page.evaluate(() => {
    const li = document.querySelector("#release-popup li")!;
    const modal = li.closest(".modal")!;
    return [getComputedStyle(li).color, getComputedStyle(modal).backgroundColor];
  });
  const lum = (c: string) => {
    const [r, g, b] = c.match(/\d+/g)!.map(Number);
    return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
  };
  assert.ok(lum(card) - lum(text) > 0.6, `text ${text} on ${card}`);
}

async function popup(browser: Browser, base: string, phone: boolean) {
  const context = await browser.newContext(
    phone
      ? { viewport: { width: 390, height: 844 }, userAgent: PHONE_UA, isMobile: true }
      : { viewport: { width: 1440, height: 900 } },
  );
  const page = await context.newPage();
  await formLogin(page, base, "polish_dist", PASSWORD);
  await assertReadable(page);
  const items = await page.locator("#release-popup li").allInnerTexts();
  // The pop-up shows the newest release (1.2.0: reports, wallet, help…).
  assert.ok(items.some((i) => /^Reports: trips, parking/.test(i)), items.join("\n"));
  assert.ok(items.some((i) => /^Security hardening/.test(i)));
  await page.screenshot({ path: SHOT(phone ? "release_phone" : "release_laptop") });
  await context.close();
}

Deno.test({
  name: "e2e: readable release notes; command pickers start harmless, engine cut is confirmed",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const server = await startServer({ ADMIN_PASSWORD });
    const browser = await launchBrowser();
    let page: Page | null = null;
    try {
      const base = server.url;
      const { adminId, add } = await asAdmin(base, ADMIN_PASSWORD, PASSWORD);
      const dist = await add("polish_dist", "Polish Fleet", adminId, 8);
      const token = await login(base, "polish_dist", PASSWORD);
      await post(base, "/v3/new/newEquipment/importEquipment", {
        userId: dist,
        mcType: "GT06N",
        imeis: [IMEI],
      }, token);

      await popup(browser, base, false);
      await popup(browser, base, true);

      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      page = await context.newPage();
      await formLogin(page, base, "polish_dist", PASSWORD);
      await page.locator("#release-popup").waitFor();
      await page.locator(".modal .modal-foot .btn-primary").click();

      // The batch page starts on Locate, not on the first instruction (engine cut).
      await page.goto(`${base}/batchCommand`);
      await page.waitForSelector("html[data-islands='hydrated']");
      assert.equal(await page.locator("select[name=instruction]").inputValue(), "locate");

      // The single send dialog too; an engine cut asks first, naming it and the device.
      await page.goto(`${base}/devices`);
      await page.waitForSelector(`tr[data-imei="${IMEI}"]`);
      await page.locator(`tr[data-imei="${IMEI}"] .link-btn`, { hasText: "Command" }).click();
      const pick = page.locator(".modal select[name=instruction]");
      await pick.waitFor();
      assert.equal(await pick.inputValue(), "locate");
      await pick.selectOption("engineCut");
      await page.fill(".modal input[type=password]", PASSWORD);
      await page.click(".modal-foot button[type=submit]");
      const ask = page.locator(".danger-confirm");
      await ask.waitFor();
      const text = await page.locator(".modal").last().innerText();
      assert.match(text, /Send “Cut engine \(fuel\/power\)”\?/);
      assert.match(text, new RegExp(IMEI));
      assert.match(text, /stops the vehicle's engine/);
      await page.screenshot({ path: SHOT("engine_cut_confirm") });
      // Cancel sends nothing.
      await page.locator(".modal").last().locator(".modal-foot .btn", { hasText: "Cancel" })
        .click();
      await ask.waitFor({ state: "detached" });
      const sent = await post(base, "/v3/new/command/list", {
        imei: IMEI,
        pageNum: 1,
        pageSize: 10,
      }, token);
      assert.equal(sent.list.length, 0, "nothing was sent");
    } catch (e) {
      await page?.screenshot({ path: SHOT("failure") }).catch(() => {});
      throw e;
    } finally {
      await browser.close();
      await server.stop();
    }
  },
});
