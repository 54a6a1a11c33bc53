/**
 * Help pages and the announcement pop-up in Chromium against a real server: a distributor's
 * announcement pops up once for a user below it, the user manual and API document uploaded by
 * the administrator are listed and downloadable, the business log shows the distributor's
 * device transfer and filters by keyword, a distributor posts an announcement through the
 * form, the administrator uploads a document through the form. Screenshots (laptop 1440x900,
 * phone 390x844) go to tests/screenshots/help-*.png.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import type { Browser, Page } from "playwright-core";
import { zipSync } from "fflate";
import { launchBrowser } from "../helpers/browser.ts";
import { startServer } from "../helpers/server.ts";
import { formLogin, phoneContext } from "../helpers/e2e_pages.ts";

const SHOTS = new URL("../screenshots/", import.meta.url).pathname;
const ADMIN_PASSWORD = "Admin12345";
const PASSWORD = "Passw0rd1";
const IMEI = "359710049420023";
const PDF = new TextEncoder().encode("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n");

async function call(base: string, path: string, body: unknown, token?: string) {
  const res = await fetch(base + path, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  const json = await res.json();
  assert.equal(json.code, 10000, `${path}: ${JSON.stringify(json)}`);
  return json.data;
}

async function upload(base: string, token: string, kind: string, name: string, bytes: Uint8Array) {
  const form = new FormData();
  form.set("kind", kind);
  form.set("file", new File([bytes as BlobPart], name));
  const res = await fetch(`${base}/v3/new/manual/upload`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  assert.equal((await res.json()).code, 10000);
}

/** admin → dist (8) → ent (9) → user (12), each with its own device and documents. */
async function setup(base: string) {
  const login = async (account: string, password: string) =>
    (await call(base, "/v3/new/account/login", { account, password })).token as string;
  const admin = await login("admin", ADMIN_PASSWORD);
  const add = async (account: string, accountType: number, parentId: string) =>
    (await call(base, "/v3/new/account/add", {
      account,
      nickName: account,
      accountType,
      parentId,
      password: PASSWORD,
    }, admin)).id as string;
  const adminId = (await (await fetch(`${base}/v3/new/account/current`, {
    headers: { authorization: `Bearer ${admin}` },
  })).json()).data.userId;
  const dist = await add("fleetdist", 8, adminId);
  const ent = await add("acme", 9, dist);
  await add("driver1", 12, ent);
  const distToken = await login("fleetdist", PASSWORD);
  await call(base, "/v3/new/newEquipment/importEquipment", {
    userId: dist,
    mcType: "GT06N",
    imeis: [IMEI],
  }, distToken);
  await call(base, "/v3/new/newEquipment/transferEquipment", {
    imeis: [IMEI],
    targetUserId: ent,
  }, distToken);
  await upload(base, admin, "manual", "Tracking Platform user manual.pdf", PDF);
  const docx = zipSync({
    "[Content_Types].xml": new TextEncoder().encode("<Types/>"),
    "word/document.xml": new TextEncoder().encode("<w:document/>"),
  });
  await upload(base, admin, "api", "Open API v3.docx", docx);
  const now = Date.now();
  await call(base, "/v3/new/announcement/add", {
    title: "Platform maintenance on Sunday",
    body:
      "The platform is upgraded on Sunday from 02:00 to 03:00 (UTC+8). Devices keep reporting; the console may be unavailable for a few minutes.",
    importance: "important",
    startTime: new Date(now - 60_000).toISOString(),
    endTime: new Date(now + 7 * 86_400_000).toISOString(),
  }, distToken);
}

async function hydrated(page: Page, path: string, base: string) {
  await page.goto(base + path);
  await page.waitForSelector("html[data-islands='hydrated']");
  await page.waitForLoadState("networkidle", { timeout: 5000 }).catch(() => {});
}

/** The release-notes pop-up after a first login (not the announcement's, which waits for it). */
async function dismissReleaseNotes(page: Page) {
  const notes = page.locator(".modal:not(:has(.ann-popup)) .modal-foot .btn-primary");
  await notes.first().waitFor({ timeout: 3000 }).catch(() => {});
  if (await notes.count()) await notes.first().click();
}

async function laptop(browser: Browser, base: string) {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  page.on("pageerror", (e) => console.error("page error:", e.message));
  // The user below the distributor gets its announcement once, in a pop-up.
  await formLogin(page, base, "acme", PASSWORD);
  await dismissReleaseNotes(page);
  await page.waitForSelector(".ann-popup", { timeout: 15_000 });
  assert.match(await page.locator(".ann-popup").innerText(), /Platform maintenance on Sunday/);
  await page.screenshot({ path: `${SHOTS}help-announcement-popup.png` });
  await page.locator(".modal:has(.ann-popup) .modal-foot .btn-primary").click();
  await page.waitForSelector(".ann-popup", { state: "detached" });
  await page.reload();
  await page.waitForSelector("html[data-islands='hydrated']");
  await page.waitForLoadState("networkidle", { timeout: 5000 }).catch(() => {});
  assert.equal(await page.locator(".ann-popup").count(), 0, "shown once");

  await hydrated(page, "/userManual", base);
  assert.equal(await page.locator(".doc-card").count(), 2);
  assert.equal(await page.locator(".doc-upload").count(), 0, "only administrators upload");
  const href = await page.locator(".doc-card a.btn-primary").first().getAttribute("href");
  const file = await page.request.get(base + href!);
  assert.equal(file.headers()["content-type"], "application/pdf");
  await page.screenshot({ path: `${SHOTS}help-manual.png` });

  await hydrated(page, "/announcements", base);
  assert.equal(await page.locator(".ann-item").count(), 1);
  await page.screenshot({ path: `${SHOTS}help-announcements.png` });
  await page.close();

  const dist = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await formLogin(dist, base, "fleetdist", PASSWORD);
  await dismissReleaseNotes(dist);
  await hydrated(dist, "/businessLogs", base);
  await dist.waitForSelector("table.bl-table tbody tr td.bl-action", { timeout: 8000 }).catch(
    async (e) => {
      await dist.screenshot({ path: `${SHOTS}help-business-log-failed.png` });
      console.error(await dist.locator("main").innerText());
      throw e;
    },
  );
  assert.match(await dist.locator("table.bl-table").innerText(), /transferEquipment/);
  await dist.fill("input[name=keyword]", "transferEquipment");
  await dist.click(".help-filters button[type=submit]");
  await dist.waitForFunction(() =>
    document.querySelectorAll("table.bl-table tbody tr td.bl-action").length === 1
  );
  await dist.fill("input[name=keyword]", "");
  await dist.click(".help-filters button[type=submit]");
  await dist.waitForFunction(() =>
    document.querySelectorAll("table.bl-table tbody tr td.bl-action").length === 3
  );
  await dist.screenshot({ path: `${SHOTS}help-business-log.png` });

  await hydrated(dist, "/announcements", base);
  await dist.fill(".ann-form input[name=title]", "New SIM cards in stock");
  await dist.fill(".ann-form textarea[name=body]", "Order them from the business centre.");
  await dist.click(".ann-form button[type=submit]");
  await dist.waitForFunction(() => document.querySelectorAll(".ann-item").length === 2);
  await dist.screenshot({ path: `${SHOTS}help-announcements-poster.png` });
  await dist.close();

  const admin = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await formLogin(admin, base, "admin", ADMIN_PASSWORD);
  await dismissReleaseNotes(admin);
  await hydrated(admin, "/userManual", base);
  await admin.setInputFiles(".doc-upload input[type=file]", {
    name: "Release checklist.txt",
    mimeType: "text/plain",
    buffer: Buffer.from("1. Back up the data folder.\n2. Upgrade.\n"),
  });
  await admin.click(".doc-upload button[type=submit]");
  await admin.waitForFunction(() => document.querySelectorAll(".doc-card").length === 3);
  await admin.screenshot({ path: `${SHOTS}help-manual-admin.png`, fullPage: true });
  await admin.close();
}

async function phone(browser: Browser, base: string) {
  const ctx = await phoneContext(browser);
  const page = await ctx.newPage();
  await formLogin(page, base, "driver1", PASSWORD);
  await dismissReleaseNotes(page);
  await page.waitForSelector(".ann-popup", { timeout: 15_000 });
  await page.screenshot({ path: `${SHOTS}help-announcement-popup-phone.png` });
  await page.locator(".modal:has(.ann-popup) .modal-foot .btn-primary").click();
  for (const [path, name] of [["/userManual", "manual"], ["/announcements", "announcements"]]) {
    await hydrated(page, path, base);
    const wide = await page.evaluate(() => document.documentElement.scrollWidth > innerWidth);
    assert.equal(wide, false, `${path} scrolls sideways`);
    await page.screenshot({ path: `${SHOTS}help-${name}-phone.png`, fullPage: true });
  }
  await ctx.close();
  const distCtx = await phoneContext(browser);
  const dist = await distCtx.newPage();
  await formLogin(dist, base, "fleetdist", PASSWORD);
  await dismissReleaseNotes(dist);
  await hydrated(dist, "/businessLogs", base);
  await dist.waitForSelector("table.bl-table tbody tr td.bl-action");
  assert.equal(await dist.evaluate(() => document.documentElement.scrollWidth > innerWidth), false);
  await dist.screenshot({ path: `${SHOTS}help-business-log-phone.png`, fullPage: true });
  await distCtx.close();
}

Deno.test({
  name: "e2e: help pages and the announcement pop-up",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const server = await startServer({ ADMIN_PASSWORD });
    const browser = await launchBrowser();
    try {
      await setup(server.url);
      await laptop(browser, server.url);
      await phone(browser, server.url);
    } finally {
      await browser.close();
      await server.stop();
    }
  },
});
