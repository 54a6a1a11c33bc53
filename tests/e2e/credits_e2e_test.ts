/**
 * End to end through /credits against a real server process: the 50 free credits and the
 * conversion, buying credits with Mi coins, sharing the pool with an account below, the
 * balance reminder's settings and the log; laptop and phone screenshots in tests/screenshots/.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { launchBrowser } from "../helpers/browser.ts";
import { startServer } from "../helpers/server.ts";
import { ApiClient } from "../helpers/api_client.ts";
import { formLogin, PHONE } from "../helpers/e2e_pages.ts";
import { phoneContext } from "../helpers/e2e_pages.ts";

const SHOTS = new URL("../screenshots/", import.meta.url).pathname;
const ADMIN_PASSWORD = "Admin12345";
const PASSWORD = "Passw0rd11";

/** A distributor with 20 Mi coins and an enterprise account below it. */
async function fixture(base: string) {
  const admin = await ApiClient.login(base, "admin", ADMIN_PASSWORD);
  const me = await admin.call("/v3/new/account/current");
  const add = (account: string, parentId: string, accountType: number) =>
    admin.call("/v3/new/account/add", {
      account,
      nickName: `${account} ltd`,
      password: PASSWORD,
      accountType,
      parentId,
    });
  const dist = (await add("cr_dist", me.userId, 8)).id;
  await add("cr_fleet", dist, 9);
  await admin.call("/v3/new/wallet/allocate", { targetUserId: dist, coins: 20 });
  return { dist };
}

async function openCredits(page: Page, base: string) {
  await page.goto(`${base}/credits`);
  await page.waitForSelector("html[data-islands='hydrated']");
  // The release notes show once after login: close them.
  const notes = page.locator(".modal .modal-foot .btn-primary");
  if (await notes.count()) await notes.first().click();
  await page.waitForSelector("#credits-balance");
}

Deno.test("credits page: buy, share, reminder, log (laptop and phone)", async () => {
  // A stand-in SMS gateway, so the page shows what an SMS costs.
  const gateway = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen: () => {} },
    () => new Response("ok"),
  );
  const server = await startServer({
    ADMIN_PASSWORD,
    SMS_URL: `http://127.0.0.1:${gateway.addr.port}/sms`,
  });
  const browser = await launchBrowser();
  try {
    await fixture(server.url);
    const laptop = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await formLogin(laptop, server.url, "cr_dist", PASSWORD);
    await openCredits(laptop, server.url);
    assert.equal(await laptop.textContent("#credits-balance"), "50");
    assert.match(
      (await laptop.textContent("#credits-conversion"))!,
      /1 credit = 0\.014 Mi coins = 0\.007 USD/,
    );

    // 1.5 coins buy 107 credits (107.1 rounded down), which cost exactly 1.5 coins.
    await laptop.fill("input[name=coins]", "1.5");
    await laptop.waitForFunction(() =>
      document.querySelector("#credits-preview")?.textContent?.includes("107 credits")
    );
    await laptop.click("#credits-buy");
    await laptop.waitForFunction(() =>
      document.querySelector("#credits-balance")?.textContent === "157"
    );
    await laptop.waitForSelector("#credits-log tbody tr:nth-child(2)");
    const rows = await laptop.locator("#credits-log tbody tr").allTextContents();
    assert.match(rows[0], /Bought\s*\+107\s*157\s*1\.5 Mi coins/);
    assert.match(rows[1], /Free credits\s*\+50\s*50/);

    // Share the pool with the account below, picked by its login name.
    await laptop.fill("input[name=shareAccount]", "cr_fleet");
    await laptop.waitForSelector("#credits-share-accounts option[value=cr_fleet]", {
      state: "attached",
    });
    await laptop.click("#credits-share");
    await laptop.waitForSelector(".credits-members li");
    assert.match((await laptop.textContent(".credits-members"))!, /cr_fleet/);
    assert.equal(await laptop.textContent("#credits-share-count"), "1 of 100");

    // The reminder: daily, while credits are under 200.
    await laptop.selectOption("select[name=balanceReminder]", "daily");
    await laptop.fill("input[name=threshold-credits]", "200");
    await laptop.click("#credits-reminder-save");
    await laptop.waitForSelector(".toast-success");
    const api = await ApiClient.login(server.url, "cr_dist", PASSWORD);
    const prefs = await api.call("/v3/new/message/prefs/get", {});
    assert.equal(prefs.balanceReminder, "daily");
    assert.deepEqual(prefs.balanceThresholds, { coins: null, cards: null, credits: 200 });
    await laptop.waitForTimeout(3200); // the toast fades before the picture
    await laptop.screenshot({ path: `${SHOTS}credits-laptop.png`, fullPage: true });

    // The account below sees whose pool it spends from.
    const fleet = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await formLogin(fleet, server.url, "cr_fleet", PASSWORD);
    await openCredits(fleet, server.url);
    assert.match((await fleet.textContent(".credits-pool"))!, /cr_dist \(157 credits\)/);

    const phone = await (await phoneContext(browser)).newPage();
    await formLogin(phone, server.url, "cr_dist", PASSWORD);
    await openCredits(phone, server.url);
    await phone.waitForSelector("#credits-log tbody tr:nth-child(2)");
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(overflow <= PHONE.width, `page is ${overflow}px wide on a phone`);
    await phone.screenshot({ path: `${SHOTS}credits-phone.png`, fullPage: true });
  } catch (e) {
    console.log(server.output().slice(-3000));
    throw e;
  } finally {
    await browser.close();
    await server.stop();
    await gateway.shutdown();
  }
});
