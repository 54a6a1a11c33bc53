/**
 * Automatic reports in Chromium: an enterprise adds one through the form (devices picked in
 * the dialog), sees it listed, edits it (type and frequency disabled), runs it now — the mail
 * with its xlsx reaches a real SMTP server started here — and opens the history with the
 * file's download. Laptop (1440x900) and phone (390x844) screenshots go to S3_SHOTS
 * (default tests/screenshots/).
 */
import assert from "node:assert/strict";
import { launchBrowser } from "../helpers/browser.ts";
import { formLogin, phoneContext } from "../helpers/e2e_pages.ts";
import { enterpriseWithDevices, ready } from "../helpers/fleet.ts";
import { mailAttachments } from "../helpers/mail_parts.ts";
import { startServer } from "../helpers/server.ts";
import { smtpEnv, startSmtp } from "../helpers/smtp.ts";

const ADMIN_PASSWORD = "Admin12345";
const PASSWORD = "Passw0rd11";
const IMEIS = ["359710049450001", "359710049450019"];
const SHOTS = Deno.env.get("S3_SHOTS") ?? new URL("../screenshots/", import.meta.url).pathname;

Deno.test({
  name: "e2e automatic reports: add, edit, run now with the mail, history",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await Deno.mkdir(SHOTS, { recursive: true });
    const smtp = await startSmtp();
    const server = await startServer({ ADMIN_PASSWORD, ...smtpEnv(smtp) });
    const browser = await launchBrowser();
    try {
      const { ent } = await enterpriseWithDevices(server.url, {
        adminPassword: ADMIN_PASSWORD,
        account: "auto_e2e",
        password: PASSWORD,
        imeis: IMEIS,
      });
      await ent.call("/v3/new/autoReport/add", {
        name: "Weekly trips",
        reportType: "trips",
        frequency: "week",
        executionTime: "07:30",
        imeis: [],
        mcType: "GT06N",
        includeSubAccounts: true,
        emails: ["ops@harbour.test", "boss@harbour.test"],
      });

      const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(String(e)));
      page.on("dialog", (d) => d.accept());
      await formLogin(page, server.url, "auto_e2e", PASSWORD);
      await page.goto(`${server.url}/autoReports`);
      await ready(page);
      await page.waitForSelector("[data-testid=ar-row]");

      // Add: the form, devices picked in the dialog.
      await page.click("#ar-add");
      await page.fill("#ar-name", "Daily mileage");
      await page.selectOption("#ar-type", "mileage");
      assert.equal(
        await page.locator("#ar-type option[value=trips]").isDisabled(),
        true,
        "one per report type",
      );
      await page.fill("#ar-time", "06:15");
      await page.click("#ar-pick");
      const picker = page.locator(".modal").last();
      await picker.locator("tbody tr").first().waitFor();
      for (const imei of IMEIS) await picker.locator(`input[aria-label="${imei}"]`).check();
      await page.click("#ar-devices-ok");
      await page.locator("[data-testid=ar-device-count]", { hasText: "2" }).waitFor();
      await page.fill("#ar-emails", "fleet@harbour.test");
      await page.screenshot({ path: `${SHOTS}/autoreports-form-laptop.png` });
      await page.click("#ar-save");
      await page.locator("[data-testid=ar-row][data-type=mileage]").waitFor();
      assert.equal(await page.locator("[data-testid=ar-row]").count(), 2);

      // Edit: type and frequency are fixed.
      const row = page.locator("[data-testid=ar-row][data-type=mileage]");
      await row.locator(".ar-edit").click();
      assert.equal(await page.locator("#ar-type").isDisabled(), true);
      assert.equal(await page.locator("#ar-frequency").isDisabled(), true);
      await page.fill("#ar-name", "Mileage, daily");
      await page.click("#ar-save");
      await page.locator("[data-testid=ar-row] >> text=Mileage, daily").waitFor();

      // Run now: the mail arrives with the xlsx; the history lists the run and its file.
      await row.locator(".ar-run").click();
      const [mail] = await smtp.waitFor(1).catch(async () => {
        await new Promise((r) => setTimeout(r, 10_000));
        return await smtp.waitFor(1);
      });
      assert.deepEqual(mail.to, ["fleet@harbour.test"]);
      const [file] = mailAttachments(mail.raw);
      assert.match(file.fileName, /^Mileage_\d{8}-\d{6}\.xlsx$/);
      await row.locator(".ar-history-btn").click();
      await page.locator("[data-testid=ar-run][data-status=done]").waitFor({ timeout: 20_000 });
      const href = await page.locator(".ar-download").getAttribute("href");
      const download = await page.request.get(`${server.url}${href}`);
      assert.equal(download.status(), 200);
      assert.deepEqual(new Uint8Array(await download.body()), file.bytes);
      await page.screenshot({ path: `${SHOTS}/autoreports-history-laptop.png` });
      await page.keyboard.press("Escape");
      await page.reload();
      await ready(page);
      await page.locator("[data-testid=ar-row] .rp-status-done").waitFor();
      await page.screenshot({ path: `${SHOTS}/autoreports-laptop.png` });

      // In Chinese: the page, the form and the history.
      await page.context().addCookies([{ name: "locale", value: "zh", url: server.url }]);
      await page.reload();
      await ready(page);
      await page.locator("h1", { hasText: "自动报表" }).waitFor();
      await page.locator("[data-testid=ar-row] >> text=每天 · 06:15").waitFor();
      await page.screenshot({ path: `${SHOTS}/autoreports-laptop-zh.png` });
      await row.locator(".ar-history-btn").click();
      await page.locator("[data-testid=ar-run] >> text=完成").waitFor();
      await page.screenshot({ path: `${SHOTS}/autoreports-history-zh.png` });

      const phone = await phoneContext(browser);
      const p = await phone.newPage();
      p.on("pageerror", (e) => errors.push(String(e)));
      await formLogin(p, server.url, "auto_e2e", PASSWORD);
      await p.goto(`${server.url}/autoReports`);
      await ready(p);
      await p.waitForSelector("[data-testid=ar-row]");
      await p.screenshot({ path: `${SHOTS}/autoreports-phone.png`, fullPage: true });
      await p.locator("[data-testid=ar-row][data-type=trips] .ar-edit").click();
      // The model list loads after the form opens: its value shows once the options are there.
      await p.waitForFunction(() =>
        (document.querySelector("#ar-model") as HTMLSelectElement | null)?.value === "GT06N"
      );
      await p.screenshot({ path: `${SHOTS}/autoreports-form-phone.png` });
      await phone.close();
      assert.deepEqual(errors, []);
    } catch (e) {
      console.log(server.output().slice(-3000));
      throw e;
    } finally {
      await browser.close();
      await server.stop();
      await smtp.close();
    }
  },
});
