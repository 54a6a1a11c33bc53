/**
 * The sensor report pages in a real browser (issue 21, S2): a real server fed over TCP by
 * JT/T 808 terminals (tests/helpers/sensor_fleet.ts: a reefer with fuel and two probes, an OBD
 * van, a plain tracker). Opens current fuel (chart with the refuel marked), refuelling,
 * temperature and humidity (thresholds band, per-probe summary, out-of-range interval), OBD
 * trips and a trip's details page, a plain tracker's "this device reports no fuel level", and
 * exports the fuel report. Screenshots on a laptop (1440×900) and a phone (390×844) go to
 * $TP_SHOTS (default /tmp/s2shots).
 */
import assert from "node:assert/strict";
import type { Browser, Page } from "playwright-core";
import { launchBrowser } from "../helpers/browser.ts";
import { phoneContext } from "../helpers/e2e_pages.ts";
import { devicePorts } from "../helpers/gateway.ts";
import { startServer } from "../helpers/server.ts";
import { at, feedSensorFleet, PLAIN, REEFER, VAN } from "../helpers/sensor_fleet.ts";
import { login } from "./monitor_fixture.ts";

const ADMIN_PASSWORD = "Admin12345";
const SHOTS = Deno.env.get("TP_SHOTS") ?? "/tmp/s2shots";
const LAPTOP = { width: 1440, height: 900 };

async function hydrated(page: Page) {
  await page.waitForSelector("html[data-islands='hydrated']", { timeout: 20_000 });
}

function reportUrl(base: string, report: string, imeis: string[]) {
  const q = new URLSearchParams({
    imei: imeis.join(","),
    startTime: new Date(at(-5)).toISOString(),
    endTime: new Date().toISOString(),
  });
  return `${base}/new/${report}?${q}`;
}

/** Opens a report from its query and waits for its answer. */
async function openReport(page: Page, url: string) {
  await page.goto(url);
  await hydrated(page);
  await page.locator("[data-testid=report-total]").waitFor({ timeout: 30_000 });
}

async function post(base: string, token: string, path: string, body: unknown) {
  const r = await (await fetch(`${base}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  })).json();
  if (r.code !== 10000) throw new Error(`${path}: ${r.code} ${r.msg}`);
  return r.data;
}

/** The API until the pipeline has told the refuel and closed both trips. */
async function settled(base: string, token: string) {
  const range = {
    startTime: new Date(at(-5)).toISOString(),
    endTime: new Date().toISOString(),
    pageNum: 1,
    pageSize: 10,
  };
  const end = Date.now() + 30_000;
  for (;;) {
    const refuels = await post(base, token, "/v3/new/report/refueling", {
      ...range,
      imeis: [REEFER],
    });
    const trips = await post(base, token, "/v3/new/report/obdTrip", { ...range, imeis: [VAN] });
    if (refuels.total >= 1 && trips.total >= 1) return;
    if (Date.now() > end) throw new Error("the sensor fleet's data did not settle");
    await new Promise((r) => setTimeout(r, 300));
  }
}

async function pages(browser: Browser, base: string, label: string, phone: boolean) {
  const context = phone
    ? await phoneContext(browser)
    : await browser.newContext({ viewport: LAPTOP, acceptDownloads: true });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await login(page, base, "admin", ADMIN_PASSWORD);
  const shot = (name: string) =>
    page.screenshot({ path: `${SHOTS}/${label}-${name}.png`, fullPage: true });

  await openReport(page, reportUrl(base, "currentFuel", [REEFER]));
  const chart = page.locator("[data-testid=sensor-chart]");
  await chart.waitFor();
  assert.equal(await chart.getAttribute("data-kind"), "volume");
  assert.equal(await chart.locator("polyline.rp-line").count(), 1);
  assert.equal(await chart.locator("[data-mark=refuel]").count(), 1, "the refuel is marked");
  assert.ok(await page.locator(".rp-result tbody tr").count() >= 10);
  await shot("current-fuel");

  await openReport(page, reportUrl(base, "refueling", [REEFER]));
  assert.equal(await page.locator(".rp-result tbody tr").count(), 1);
  const cells = await page.locator(".rp-result tbody tr td").allTextContents();
  assert.ok(cells.some((c) => /^(39|40|41)\.\d\d$/.test(c.trim())), cells.join(" | "));
  await shot("refueling");

  await openReport(page, reportUrl(base, "temperatureHumidity", [REEFER]));
  await page.locator("[data-testid=sensor-chart] rect.rp-band").waitFor();
  const summary = page.locator("[data-testid=probe-summary]");
  await summary.waitFor();
  assert.equal(await summary.locator(".rp-probe").count(), 2);
  assert.ok(await summary.locator("[data-testid=out-of-range] li").count() >= 2);
  await shot("temperature");

  await openReport(page, reportUrl(base, "obdTrip", [VAN]));
  assert.equal(await page.locator(".rp-result tbody tr").count(), 1);
  await shot("obd-trips");
  await page.locator("[data-testid=row-detail]").first().click();
  await page.waitForURL(/\/new\/OBDTripReportInfo\//);
  await hydrated(page);
  await page.locator("[data-testid=report-total]").waitFor({ timeout: 30_000 });
  assert.ok(await page.locator(".rp-result tbody tr").count() >= 10);
  await page.locator("[data-testid=sensor-chart]").waitFor();
  await shot("obd-trip-details");

  await openReport(page, reportUrl(base, "fuelConsumption", [PLAIN]));
  const none = page.locator("[data-testid=sensor-unsupported]");
  await none.waitFor();
  assert.match(await none.textContent() ?? "", /this device reports no fuel level/);
  assert.equal(await page.locator(".rp-result table").count(), 0, "no table of zeros");
  assert.equal(await page.locator("[data-testid=report-empty]").count(), 0);
  await shot("fuel-unsupported");

  if (!phone) {
    await openReport(page, reportUrl(base, "fuelConsumption", [REEFER]));
    assert.equal(await page.locator(".rp-result tbody tr").count(), 1);
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.click("[data-export=xlsx]"),
    ]);
    assert.match(download.suggestedFilename(), /\.xlsx$/);
    const bytes = await Deno.readFile((await download.path())!);
    assert.equal(String.fromCharCode(bytes[0], bytes[1]), "PK");
    await shot("fuel-consumption");
  }
  assert.deepEqual(errors, []);
  await context.close();
}

Deno.test({
  name: "sensor report pages: fuel, temperature and OBD for reporting terminals",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async (t) => {
    await Deno.mkdir(SHOTS, { recursive: true });
    const server = await startServer({ ADMIN_PASSWORD });
    const browser = await launchBrowser();
    try {
      const base = server.url;
      const token = (await (await fetch(`${base}/v3/new/account/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ account: "admin", password: ADMIN_PASSWORD }),
      })).json()).data.token;
      const me = await (await fetch(`${base}/v3/new/account/current`, {
        headers: { authorization: `Bearer ${token}` },
      })).json();
      await post(base, token, "/v3/new/newEquipment/importEquipment", {
        userId: me.data.userId,
        mcType: "JT808",
        imeis: [REEFER, VAN, PLAIN],
      });
      await post(base, token, "/v3/new/alarm/device/save", {
        imei: REEFER,
        minTemperature: 2,
        maxTemperature: 8,
      });
      await feedSensorFleet(devicePorts(server).jt808);
      await settled(base, token);
      await t.step("laptop", () => pages(browser, base, "laptop", false));
      await t.step("phone", () => pages(browser, base, "phone", true));
    } finally {
      await browser.close();
      await server.stop();
    }
  },
});
