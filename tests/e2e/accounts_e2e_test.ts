/**
 * End to end in Chromium against a real server process: log in, build a distributor →
 * enterprise → end user chain through the account page, log in as each and see only the own
 * subtree, change a password, log out. Screenshots go to tests/screenshots/.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { launchBrowser } from "../helpers/browser.ts";
import { startServer } from "../helpers/server.ts";

const SHOTS = new URL("../screenshots/", import.meta.url).pathname;
const ADMIN_PASSWORD = "Admin12345";
const PASSWORD = "Passw0rd99";

async function login(page: Page, base: string, account: string, password: string) {
  await page.goto(`${base}/login`);
  await page.waitForSelector("html[data-islands='hydrated']");
  await page.fill("input[name=account]", account);
  await page.fill("input[name=password]", password);
  await page.click("#login-submit");
  await page.waitForURL(/\/monitorObject$/, { timeout: 15_000 });
}

async function logout(page: Page) {
  await page.click(".user-chip button");
  await page.waitForURL(/\/login/, { timeout: 15_000 });
}

async function openAccounts(page: Page, base: string) {
  await page.goto(`${base}/account`);
  await page.waitForSelector("html[data-islands='hydrated']");
  await dismissReleaseNotes(page);
}

async function dismissReleaseNotes(page: Page) {
  const dialog = page.locator(".modal .modal-foot .btn-primary");
  if (await dialog.count()) await dialog.first().click();
}

/** Creates an account with the Add dialog under the tree node labelled `parentNick`. */
async function addAccount(
  page: Page,
  parentNick: string | null,
  acc: { account: string; nickName: string; type: string },
) {
  if (parentNick) await page.locator("[data-tree-id]", { hasText: parentNick }).first().click();
  await page.click("#account-add");
  await page.fill(".modal input[name=account]", acc.account);
  await page.fill(".modal input[name=nickName]", acc.nickName);
  await page.fill(".modal input[name=password]", PASSWORD);
  await page.fill(".modal input[name=confirmPassword]", PASSWORD);
  await page.selectOption(".modal select[name=accountType]", acc.type);
  await page.click("#dialog-submit");
  await page.waitForSelector(".modal", { state: "detached", timeout: 10_000 });
}

async function visibleAccounts(page: Page): Promise<string[]> {
  await page.waitForSelector(".table-wrap table, .empty");
  await page.waitForTimeout(300);
  return await page.locator("tr[data-account]").evaluateAll((rows) =>
    rows.map((r) => r.getAttribute("data-account")!)
  );
}

Deno.test({
  name: "e2e: account hierarchy, isolation, password change, logout",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const server = await startServer({ ADMIN_PASSWORD });
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
      page.on("pageerror", (e) => console.error("page error:", e.message));
      const base = server.url;

      await page.goto(`${base}/login`);
      await page.waitForSelector("html[data-islands='hydrated']");
      await page.screenshot({ path: `${SHOTS}login.png` });

      await login(page, base, "admin", ADMIN_PASSWORD);
      await openAccounts(page, base);
      await addAccount(page, null, {
        account: "dist_e2e",
        nickName: "Northwind Distribution",
        type: "8",
      });
      assert.ok((await visibleAccounts(page)).includes("dist_e2e"));
      await addAccount(page, "Northwind Distribution", {
        account: "ent_e2e",
        nickName: "Contoso Logistics",
        type: "9",
      });
      await page.reload();
      await page.waitForSelector("html[data-islands='hydrated']");
      // Open the distributor's node so the enterprise shows in the tree (the tree may already
      // have reopened it: only click the toggle when the child does not appear by itself).
      const contoso = page.locator("[data-tree-id]", { hasText: "Contoso Logistics" }).first();
      const shown = await contoso.waitFor({ timeout: 3000 }).then(() => true, () => false);
      if (!shown) {
        await page.locator("[data-tree-id]", { hasText: "Northwind Distribution" }).first().locator(
          ".tree-toggle",
        )
          .click();
        await contoso.waitFor();
      }
      await addAccount(page, "Contoso Logistics", {
        account: "user_e2e",
        nickName: "Driver Desk",
        type: "12",
      });
      await page.locator("[data-tree-id]").first().click();
      await page.waitForTimeout(500);
      assert.deepEqual((await visibleAccounts(page)).sort(), ["dist_e2e", "ent_e2e", "user_e2e"]);
      await page.screenshot({ path: `${SHOTS}accounts.png` });
      await page.click("#account-add");
      await page.waitForSelector(".modal");
      await page.screenshot({ path: `${SHOTS}accounts-add-dialog.png` });
      await page.keyboard.press("Escape");
      await logout(page);

      // Each account sees exactly its own subtree.
      await login(page, base, "dist_e2e", PASSWORD);
      await openAccounts(page, base);
      assert.deepEqual((await visibleAccounts(page)).sort(), ["ent_e2e", "user_e2e"]);
      await logout(page);

      await login(page, base, "ent_e2e", PASSWORD);
      await openAccounts(page, base);
      assert.deepEqual(await visibleAccounts(page), ["user_e2e"]);
      await logout(page);

      await login(page, base, "user_e2e", PASSWORD);
      await openAccounts(page, base);
      assert.deepEqual(await visibleAccounts(page), []);
      assert.equal(
        await page.locator("#account-add").count(),
        0,
        "end users cannot create accounts",
      );

      // Profile, then change the password: every session ends, the new password works.
      await page.goto(`${base}/myProfile`);
      await page.waitForSelector("html[data-islands='hydrated']");
      await page.screenshot({ path: `${SHOTS}profile.png` });
      await page.goto(`${base}/changePassword`);
      await page.waitForSelector("html[data-islands='hydrated']");
      await page.fill("input[name=oldPassword]", PASSWORD);
      await page.fill("input[name=newPassword]", "N3wPassword");
      await page.fill("input[name=confirmPassword]", "N3wPassword");
      await page.click("#password-save");
      await page.waitForURL(/\/login/, { timeout: 15_000 });
      await page.fill("input[name=account]", "user_e2e");
      await page.fill("input[name=password]", PASSWORD);
      await page.click("#login-submit");
      await page.waitForSelector("#login-error");
      await login(page, base, "user_e2e", "N3wPassword");
      await logout(page);

      // Five failed logins demand a captcha from this address, even with CAPTCHA=off: the
      // form shows one, and the right password with it logs in (no lock refuses the owner).
      await page.goto(`${base}/login`);
      await page.waitForSelector("html[data-islands='hydrated']");
      assert.equal(await page.locator("input[name=captchaCode]").count(), 0, "no captcha yet");
      const submitLogin = async () => {
        const [res] = await Promise.all([
          page.waitForResponse((r) => r.url().endsWith("/v3/new/account/login")),
          page.click("#login-submit"),
        ]);
        return (await res.json()) as { code: number; data: unknown };
      };
      await page.fill("input[name=account]", "ent_e2e");
      for (let i = 0; i < 5; i++) {
        await page.fill("input[name=password]", `Wrong${i}xyz`);
        assert.equal((await submitLogin()).code, 40004);
      }
      await page.fill("input[name=password]", PASSWORD);
      const captchaLoaded = page.waitForResponse((r) =>
        r.url().endsWith("/v3/new/account/captcha")
      );
      const demanded = await submitLogin();
      assert.equal(demanded.code, 40007);
      assert.deepEqual(demanded.data, { captchaRequired: true });
      const { captchaId } = (await (await captchaLoaded).json()).data;
      await page.waitForSelector(".captcha-img img");
      await page.waitForSelector("#login-error");
      await page.screenshot({ path: `${SHOTS}login-captcha-demanded.png` });
      // The test reads the code from the server's store, as the unit tests do.
      const kv = await Deno.openKv(`${server.dataDir}/tracking.kv`);
      const challenge = await kv.get<{ code: string }>(["auth", "captcha", captchaId]);
      kv.close();
      assert.ok(challenge.value, "captcha stored");
      await page.fill("input[name=captchaCode]", challenge.value.code);
      await page.click("#login-submit");
      await page.waitForURL(/\/monitorObject$/, { timeout: 15_000 });
      await logout(page);

      // After logout the console is closed again.
      await page.goto(`${base}/account`);
      await page.waitForURL(/\/login\?redirect=/);
    } finally {
      await browser.close();
      await server.stop();
    }
  },
});
