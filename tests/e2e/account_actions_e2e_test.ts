/**
 * The account page's row actions that leave it: a sub-account's devices in a new tab through
 * /Devices (the device page opens on that account), and the account info export (a real
 * xlsx download, refused with the catalogue's message when asked again within ten minutes).
 * Then the user's own e-mail on /myProfile, set with the code a real SMTP server received.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { launchBrowser } from "../helpers/browser.ts";
import { startServer } from "../helpers/server.ts";
import { ApiClient } from "../helpers/api_client.ts";
import { formLogin } from "../helpers/e2e_pages.ts";
import { mailText, smtpEnv, startSmtp } from "../helpers/smtp.ts";

const SHOTS = new URL("../screenshots/", import.meta.url).pathname;
const ADMIN_PASSWORD = "Admin12345";

async function rowAction(page: Page, account: string, action: string) {
  await page.locator(`tr[data-account=${account}] .row-menu-btn`).click();
  await page.locator(`.row-menu:popover-open [data-action=${action}]`).click();
}

Deno.test({
  name: "e2e: account row opens its devices in a new tab and exports its info",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const smtp = await startSmtp();
    const server = await startServer({
      ADMIN_PASSWORD,
      ...smtpEnv(smtp),
    });
    const browser = await launchBrowser();
    try {
      const admin = await ApiClient.login(server.url, "admin", ADMIN_PASSWORD);
      const me = await admin.call("/v3/new/account/current");
      await admin.call("/v3/new/account/add", {
        account: "north_dist",
        nickName: "North Distribution",
        password: "Passw0rd1",
        accountType: 8,
        parentId: me.userId,
      });
      const context = await browser.newContext({
        viewport: { width: 1440, height: 900 },
        acceptDownloads: true,
      });
      const page = await context.newPage();
      await formLogin(page, server.url, "admin", ADMIN_PASSWORD);
      await page.goto(`${server.url}/account`);
      await page.waitForSelector("html[data-islands='hydrated']");
      const notes = page.locator(".modal .modal-foot .btn-primary");
      if (await notes.count()) await notes.first().click();
      await page.waitForSelector("tr[data-account=north_dist]");

      const [tab] = await Promise.all([
        context.waitForEvent("page"),
        rowAction(page, "north_dist", "devices"),
      ]);
      await tab.waitForURL(/\/devices\?userId=/);
      await tab.waitForSelector("html[data-islands='hydrated']");
      const chip = await tab.locator(".scope-chip").textContent();
      assert.match(chip ?? "", /North Distribution/);
      await tab.close();

      const [download] = await Promise.all([
        page.waitForEvent("download"),
        rowAction(page, "north_dist", "exportInfo"),
      ]);
      assert.equal(download.suggestedFilename(), "account-north_dist.xlsx");
      const bytes = await Deno.readFile((await download.path())!);
      assert.equal(new TextDecoder().decode(bytes.slice(0, 2)), "PK", "an xlsx (zip) file");
      await page.waitForSelector(".toast:not(.toast-error)");

      await rowAction(page, "north_dist", "exportInfo");
      const refused = page.locator(".toast-error");
      await refused.waitFor();
      assert.match(await refused.textContent() ?? "", /once every ten minutes/);
      await page.screenshot({ path: `${SHOTS}account-export-too-soon.png` });

      await page.goto(`${server.url}/myProfile`);
      await page.waitForSelector("html[data-islands='hydrated']");
      await page.click("#own-email-change");
      await page.fill(".modal input[name=newEmail]", "ops@north.test");
      await page.click("#own-email-send");
      const [mail] = await smtp.waitFor(1);
      assert.deepEqual(mail.to, ["ops@north.test"]);
      const code = mailText(mail.raw).match(/\b(\d{6})\b/)![1];
      await page.fill(".modal input[name=emailCode]", code);
      await page.screenshot({ path: `${SHOTS}profile-email-code.png` });
      await page.click("#own-email-confirm");
      await page.waitForSelector(".modal", { state: "detached" });
      assert.equal(await page.textContent("#profile-email"), "ops@north.test");
    } finally {
      await browser.close();
      await server.stop();
      await smtp.close();
    }
  },
});
