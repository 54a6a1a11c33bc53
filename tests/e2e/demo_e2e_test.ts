/**
 * Demo accounts in Chromium against a real server process and a real SMTP server: apply on
 * the public /accountApply page (consent required), the administrator approves on
 * /demoApplications, the mailed link's page sets the password, the trial account logs in.
 * Screenshots (laptop 1440x900, phone 390x844) go to tests/screenshots/.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { launchBrowser } from "../helpers/browser.ts";
import { startServer } from "../helpers/server.ts";
import { mailText, smtpEnv, startSmtp } from "../helpers/smtp.ts";
import { formLogin, phoneContext } from "../helpers/e2e_pages.ts";

const SHOTS = new URL("../screenshots/", import.meta.url).pathname;
const ADMIN_PASSWORD = "Admin12345";

async function fillApplication(page: Page, email: string) {
  await page.fill("input[name=name]", "Jane Doe");
  await page.fill("input[name=company]", "Acme Logistics");
  await page.fill("input[name=department]", "Fleet operations");
  await page.fill("input[name=phone]", "+86-755-8888");
  await page.fill("input[name=email]", email);
  await page.fill("input[name=region]", "Shenzhen");
  await page.fill("input[name=captchaCode]", "ABCD");
}

async function dismissReleaseNotes(page: Page) {
  const dialog = page.locator(".modal .modal-foot .btn-primary");
  if (await dialog.count()) await dialog.first().click();
}

Deno.test({
  name: "e2e: demo application, review, mailed link, trial login",
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
      const base = server.url;
      const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
      page.on("pageerror", (e) => console.error("page error:", e.message));

      await page.goto(`${base}/accountApply`);
      await page.waitForSelector("html[data-islands='hydrated']");
      await page.waitForSelector(".captcha-img img");
      await fillApplication(page, "jane@acme.test");
      // Without consent the form refuses and says why.
      await page.click("#demo-submit");
      await page.waitForSelector(".demo-consent.has-error");
      await page.screenshot({ path: `${SHOTS}demo-apply.png` });
      assert.equal(await page.locator("a[href='/agreements']").count(), 1);
      await page.check("input[name=consent]");
      await page.click("#demo-submit");
      await page.waitForSelector("#demo-sent");
      await page.screenshot({ path: `${SHOTS}demo-apply-sent.png` });

      await formLogin(page, base, "admin", ADMIN_PASSWORD);
      await page.goto(`${base}/account`);
      await page.waitForSelector("html[data-islands='hydrated']");
      await dismissReleaseNotes(page);
      await page.click("#account-demo-review");
      await page.waitForURL(/\/demoApplications$/);
      await page.waitForSelector("tr[data-demo-id]");
      await dismissReleaseNotes(page);
      await page.screenshot({ path: `${SHOTS}demo-review.png` });
      await page.click("tr[data-demo-id] .demo-approve");
      await page.waitForSelector(".toast");
      const mails = await smtp.waitFor(1);
      assert.deepEqual(mails[0].to, ["jane@acme.test"]);
      const link = mailText(mails[0].raw).match(/https?:\/\/\S+\/demoPassword\?token=[\w-]+/)![0];
      assert.ok(link.startsWith(base), link);
      await page.click("#demo-tab-approved");
      await page.waitForSelector("tr[data-demo-id] .badge.ok");
      await page.screenshot({ path: `${SHOTS}demo-review-approved.png` });
      await page.click(".user-chip button");
      await page.waitForURL(/\/login/);

      await page.goto(link);
      await page.waitForSelector("html[data-islands='hydrated']");
      await page.fill("input[name=password]", "TrialPass1");
      await page.fill("input[name=confirmPassword]", "TrialPass1");
      await page.screenshot({ path: `${SHOTS}demo-password.png` });
      await page.click("#demo-password-submit");
      await page.waitForSelector("#demo-password-done");
      await formLogin(page, base, "jane@acme.test", "TrialPass1");

      const phone = await phoneContext(browser);
      const p = await phone.newPage();
      await p.goto(`${base}/accountApply`);
      await p.waitForSelector("html[data-islands='hydrated']");
      await p.waitForSelector(".captcha-img img");
      await fillApplication(p, "bob@acme.test");
      await p.check("input[name=consent]");
      await p.screenshot({ path: `${SHOTS}demo-apply-phone.png`, fullPage: true });
      // The captcha image is a button: tall enough for a finger.
      const captchaBox = (await p.locator(".captcha-img").boundingBox())!;
      assert.ok(captchaBox.height >= 40, `captcha button ${captchaBox.height} px`);
      await p.click("#demo-submit");
      await p.waitForSelector("#demo-sent");
      await phone.close();
    } finally {
      await browser.close();
      await server.stop();
      await smtp.close();
    }
  },
});
