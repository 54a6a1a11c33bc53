/**
 * End to end in Chromium against a real server process: a distributor gives Mi coins and
 * cards to an enterprise chosen in the tree on /settingMiCoins (and is refused giving to
 * itself), redeems a card code the administrator imported from a file, reads and exports the
 * allocation log; on /businessCenter the enterprise buys the distributor's package. Screenshots
 * at 1440x900 and on a phone (390x844) go to tests/screenshots/.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import type { Page } from "playwright-core";
import { launchBrowser } from "../helpers/browser.ts";
import { startServer } from "../helpers/server.ts";
import { formLogin, phoneContext } from "../helpers/e2e_pages.ts";
import { PlatformApi } from "../../modules/simulator/api.ts";

const SHOTS = new URL("../screenshots/", import.meta.url).pathname;
const ADMIN_PASSWORD = "Admin12345";
const PASSWORD = "Passw0rd1";

async function open(page: Page, url: string) {
  await page.goto(url);
  await page.waitForSelector("html[data-islands='hydrated']");
  // The release-notes pop-up on a first visit.
  const notes = page.locator(".modal .modal-foot .btn-primary");
  if (await notes.count()) await notes.first().click();
}

const text = async (page: Page, sel: string) => (await page.locator(sel).innerText()).trim();

/** admin → e2e_dist (distributor) → e2e_ent (enterprise); 40 coins and cards for the dist. */
async function fixture(base: string) {
  const admin = await PlatformApi.login(base, "admin", ADMIN_PASSWORD);
  const adminId = await admin.currentUserId();
  const add = (account: string, parentId: string, accountType: number) =>
    admin.call<{ id: string }>("/v3/new/account/add", {
      account,
      nickName: account === "e2e_dist" ? "North Distribution" : "Harbour Logistics",
      password: PASSWORD,
      accountType,
      parentId,
    });
  const dist = (await add("e2e_dist", adminId, 8)).id;
  const ent = (await add("e2e_ent", dist, 9)).id;
  await admin.call("/v3/new/wallet/allocate", {
    targetUserId: dist,
    coins: 40,
    cards: { "1y": 4, "3m": 2, point: 12 },
  });
  await admin.call("/v3/new/package/add", {
    name: "Fleet year",
    price: 49,
    currency: "EUR",
    months: 12,
    smsCount: 200,
    coins: 24,
    discount: 0.8,
  });
  return { admin, dist, ent };
}

/** The administrator imports three 1-year codes from a text file on the Card codes tab. */
async function importCodes(page: Page, base: string) {
  await formLogin(page, base, "admin", ADMIN_PASSWORD);
  await open(page, `${base}/settingMiCoins`);
  await page.click("#wallet-tab-codes");
  await page.selectOption("#codes-type", "1y");
  await page.setInputFiles("#codes-file", {
    name: "codes.txt",
    mimeType: "text/plain",
    buffer: Buffer.from("code\nYR-2026-0001\nYR-2026-0002\nYR-2026-0003\n"),
  });
  await page.click("#codes-submit");
  await page.waitForSelector("#codes-result");
  assert.match(await text(page, "#codes-result"), /^3 imported/);
  await page.waitForSelector("#codes-table tbody tr:nth-child(3)");
  await page.screenshot({ path: `${SHOTS}wallet-admin-codes.png` });
  // The administrator gives the first model a three-month rate.
  await page.click("#wallet-tab-rates");
  const edit = page.locator("[data-edit-rate]").first();
  const model = await edit.getAttribute("data-edit-rate");
  await edit.click();
  await page.selectOption("#rate-option", "2");
  await page.fill("#rate-price-3", "3");
  await page.fill("#rate-price-6", "5.5");
  await page.fill("#rate-price-12", "9");
  await page.click("#rate-save");
  const row = page.locator("#rates-table tbody tr").first();
  await page.waitForFunction(() =>
    /Three-month/.test(document.querySelector("#rates-table tbody tr")?.textContent ?? "")
  );
  assert.match(await row.innerText(), new RegExp(`${model}[\\s\\S]*5\\.5[\\s\\S]*9`));
  await page.context().clearCookies();
}

/** The distributor: refused giving to itself, gives to the enterprise, redeems a code. */
async function giveAndRedeem(page: Page, base: string) {
  await formLogin(page, base, "e2e_dist", PASSWORD);
  await open(page, `${base}/settingMiCoins`);
  await page.waitForFunction(() =>
    document.querySelector("#balance-coins strong")?.textContent === "40"
  );
  assert.match(await text(page, "#give-choose"), /cannot give to yourself/);
  await page.click(".tree-panel >> text=Harbour Logistics");
  await page.waitForSelector("#give-form");
  await page.fill("#give-coins", "50");
  await page.click("#give-submit");
  await page.waitForSelector("#give-error");
  assert.equal(await text(page, "#give-error"), "Not enough Mi coins.");
  await page.fill("#give-coins", "12.5");
  await page.fill("#give-card-1y", "1");
  await page.fill("#give-card-point", "6");
  await page.click("#give-submit");
  await page.waitForFunction(() =>
    document.querySelector("#balance-coins strong")?.textContent === "27.5"
  );
  await page.waitForSelector("#give-theirs");
  assert.match(await text(page, "#give-theirs"), /Mi coins 12\.5/);
  assert.equal(await text(page, "#balance-card-point strong"), "6");
  await page.screenshot({ path: `${SHOTS}wallet-give.png` });

  await page.click("#wallet-tab-redeem");
  await page.selectOption("#redeem-type", "3m");
  await page.fill("#redeem-code", "YR-2026-0001");
  await page.click("#redeem-submit");
  await page.waitForSelector("#redeem-error");
  assert.match(await text(page, "#redeem-error"), /different card type/);
  await page.selectOption("#redeem-type", "1y");
  await page.click("#redeem-submit");
  await page.waitForFunction(() =>
    document.querySelector("#balance-card-1y strong")?.textContent === "4"
  );

  // The allocation log of the enterprise chosen in the tree, and its export.
  await page.click("#wallet-tab-logs");
  await page.click("#log-view-allocation");
  // The enterprise's allocation log: one row, what it received.
  await page.waitForFunction(() =>
    /Received/.test(document.querySelector("#log-table tbody tr")?.textContent ?? "")
  );
  assert.equal(await page.locator("#log-table tbody tr").count(), 1);
  const [file] = await Promise.all([page.waitForEvent("download"), page.click("#log-export")]);
  assert.equal(file.suggestedFilename(), "wallet-allocation.xlsx");
  await page.click(".tree-panel >> text=North Distribution");
  await page.click("#log-view-business");
  await page.waitForSelector("#log-table tbody tr:nth-child(3)");
  await page.screenshot({ path: `${SHOTS}wallet-logs.png` });
  await page.click("#wallet-tab-rates");
  await page.waitForSelector("#rates-table tbody tr");
  await page.screenshot({ path: `${SHOTS}wallet-rates.png` });
  await page.context().clearCookies();
}

/** The enterprise buys the administrator's package on /businessCenter. */
async function buyPackage(page: Page, base: string) {
  await formLogin(page, base, "e2e_ent", PASSWORD);
  await open(page, `${base}/businessCenter`);
  const row = page.locator("#offered-packages tr[data-package='Fleet year']");
  await row.waitFor();
  assert.match(await row.innerText(), /€49\.00/);
  assert.match(await row.innerText(), /19\.2/);
  await page.screenshot({ path: `${SHOTS}business-centre.png` });
  await row.locator("button").click();
  await page.waitForSelector("#pkg-question");
  assert.match(await text(page, "#pkg-question"), /19\.2 Mi coins/);
  await page.click("#pkg-confirm");
  await page.waitForSelector("#pkg-error");
  assert.equal(await text(page, "#pkg-error"), "Not enough Mi coins.");
  await page.screenshot({ path: `${SHOTS}business-centre-refused.png` });
  await page.context().clearCookies();
}

/** Buttons, inputs and selects on screen smaller than a finger (40 px), by id and size. */
function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>("button, .btn, select, input")]
      .filter((el) => {
        const r = el.getBoundingClientRect();
        return r.width > 0 && r.height > 0 && r.bottom > 0 && r.top < innerHeight &&
          Math.min(r.width, r.height) < 40;
      })
      .map((el) => {
        const r = el.getBoundingClientRect();
        return `${el.tagName}#${el.id} "${
          el.textContent?.trim().slice(0, 20)
        }" ${r.width}x${r.height}`;
      })
  );
}

async function phoneShots(browser: Awaited<ReturnType<typeof launchBrowser>>, base: string) {
  const ctx = await phoneContext(browser);
  const page = await ctx.newPage();
  try {
    await formLogin(page, base, "e2e_dist", PASSWORD);
    await open(page, `${base}/settingMiCoins`);
    await page.waitForSelector("#give-choose");
    await page.screenshot({ path: `${SHOTS}phone-wallet.png` });
    assert.deepEqual(await smallTargets(page), [], "wallet: touch targets");
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth));
    await page.click("#wallet-tab-logs");
    await page.waitForSelector("#log-table tbody tr td.num");
    await page.screenshot({ path: `${SHOTS}phone-wallet-logs.png`, fullPage: true });
    assert.deepEqual(await smallTargets(page), [], "wallet logs: touch targets");
    await open(page, `${base}/businessCenter`);
    await page.waitForSelector("#own-packages");
    await page.screenshot({ path: `${SHOTS}phone-business-centre.png`, fullPage: true });
    assert.deepEqual(await smallTargets(page), [], "business centre: touch targets");
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth));
  } finally {
    await ctx.close();
  }
}

Deno.test({
  name: "e2e: wallet gives, refuses, redeems and exports; the business centre sells a package",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const server = await startServer({ ADMIN_PASSWORD });
    const browser = await launchBrowser();
    try {
      const base = server.url;
      const { admin } = await fixture(base);
      const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
      page.on("pageerror", (e) => console.error("page error:", e.message));
      await importCodes(page, base);
      await giveAndRedeem(page, base);
      // The distributor offers its own package; the enterprise (12.5 coins) cannot afford 19.2.
      const dist = await PlatformApi.login(base, "e2e_dist", PASSWORD);
      await dist.call("/v3/new/package/add", {
        name: "Quarter starter",
        price: 120,
        currency: "HKD",
        months: 3,
        smsCount: 0,
        coins: 5,
        discount: 1,
      });
      await buyPackage(page, base);
      const codes = await admin.call<{ total: number }>("/v3/new/wallet/cards/list", {
        used: true,
      });
      assert.equal(codes.total, 1, "one code redeemed");
      await phoneShots(browser, base);
    } finally {
      await browser.close();
      await server.stop();
    }
  },
});
