/**
 * The report pages in a real browser (issue 17): a real server fed by simulated devices —
 * live GT06 trackers raising alarms, and an OsmAnd vehicle whose last three hours of driving
 * are uploaded as history (a 1 s track: trips, stops without ACC, more than 5,000 points).
 * Opens trips, mileage (day view), parking and alert details from the query (imei,
 * startTime, endTime), picks devices in the dialog, prints, exports xlsx and pdf (files
 * arrive), runs a track export large enough to become a task and downloads it from /task,
 * keeps a report on the user's own list, and screenshots the overviews, two reports and the
 * task centre on a laptop (1440×900) and a phone (390×844).
 */
import assert from "node:assert/strict";
import type { Download, Page } from "playwright-core";
import { launchBrowser } from "../helpers/browser.ts";
import { phoneContext } from "../helpers/e2e_pages.ts";
import { MODEL_FOR } from "../../modules/simulator/api.ts";
import {
  ADMIN_PASSWORD,
  gatewayPorts,
  login,
  sendHistoryOsmAnd,
  startFleet,
} from "./monitor_fixture.ts";

const SHOTS = new URL("../screenshots/", import.meta.url).pathname;
const LAPTOP = { width: 1440, height: 900 };
const HOUR = 3600_000;
/** The history vehicle (OsmAnd, no ACC). */
const TRUCK = "862100000000017";

interface Paged {
  total: number;
  list: Record<string, unknown>[];
}

/** Waits until `check` holds, asking every 500 ms (the analysis runs as positions arrive). */
async function until<T>(what: string, get: () => Promise<T>, check: (v: T) => boolean) {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const v = await get();
    if (check(v)) return v;
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v)}`);
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}

async function hydrated(page: Page) {
  await page.waitForSelector("html[data-islands='hydrated']", { timeout: 20_000 });
}

/** The report page of `report` for `imeis` over [from, to], opened from the query. */
function reportUrl(base: string, report: string, imeis: string[], from: number, to: number) {
  const q = new URLSearchParams({
    imei: imeis.join(","),
    startTime: new Date(from).toISOString(),
    endTime: new Date(to).toISOString(),
  });
  return `${base}/new/${report}?${q}`;
}

/** Opens a report from its query and waits for its rows. */
async function openReport(page: Page, url: string): Promise<number> {
  await page.goto(url);
  await hydrated(page);
  await page.locator("[data-testid=report-total]").waitFor({ timeout: 30_000 });
  return await page.locator(".rp-result tbody tr").count();
}

/** A download's name, its first four bytes (as latin-1 text) and its size. */
async function saved(download: Download): Promise<{ name: string; head: string; size: number }> {
  const path = await download.path();
  const bytes = await Deno.readFile(path!);
  return {
    name: download.suggestedFilename(),
    head: String.fromCharCode(...bytes.slice(0, 4)),
    size: bytes.length,
  };
}

Deno.test({
  name: "reports e2e: report pages, print, exports and the download centre",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async (t) => {
    const fleet = await startFleet(3, { intervalSeconds: 1, alarmScale: 3000 });
    const browser = await launchBrowser();
    try {
      const base = fleet.server.url;
      const api = fleet.api;
      const userId = await api.currentUserId();
      await api.importDevices(userId, MODEL_FOR.osmand, [TRUCK]);
      const now = Date.now();
      const from = now - 3 * HOUR, to = now - 5 * 60_000;
      const sent = await sendHistoryOsmAnd(
        gatewayPorts(fleet.server.output()).osmand,
        TRUCK,
        from,
        to,
        1000,
        200,
      );
      assert.ok(sent > 5000, `${sent} fixes uploaded`);
      const range = {
        imeis: [TRUCK],
        startTime: new Date(from - 60_000).toISOString(),
        endTime: new Date().toISOString(),
      };
      const report = (name: string, extra: Record<string, unknown> = {}) => () =>
        api.call<Paged>(`/v3/new/report/${name}`, { ...range, ...extra, pageNum: 1, pageSize: 10 });
      const trips = await until("trips", report("trips"), (p) => p.total >= 2);
      await until("parking", report("parking"), (p) => p.total >= 1);
      await until("track points", report("trackDetails"), (p) => p.total >= 5000);
      const live = fleet.sim.imeis;
      // The live trackers' alarms: the range ends at each ask, as they keep arriving.
      await until(
        "alerts",
        () =>
          api.call<Paged>("/v3/new/report/alertDetails", {
            imeis: live,
            startTime: new Date(now - 10 * 60_000).toISOString(),
            endTime: new Date().toISOString(),
            pageNum: 1,
            pageSize: 10,
          }),
        (p) => p.total >= 1,
      );

      const laptop = await browser.newContext({ viewport: LAPTOP, acceptDownloads: true });
      const page = await laptop.newPage();
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));
      await login(page, base, "admin", ADMIN_PASSWORD);

      await t.step("the Reports section opens the device overview", async () => {
        await page.click(".mainnav a:has-text('Reports')");
        await page.waitForURL(/\/deviceOverview$/);
        await hydrated(page);
        const overview = page.locator("[data-testid=device-overview]");
        await overview.waitFor();
        // 3 live trackers and the truck.
        assert.equal(await overview.locator(".rp-kpi").first().locator("b").textContent(), "4");
        await page.screenshot({
          path: `${SHOTS}reports-device-overview-laptop.png`,
          fullPage: true,
        });
        for (const [path, id] of [["/movingOverview", "moving"], ["/alertOverview", "alert"]]) {
          await page.goto(base + path);
          await hydrated(page);
          await page.locator(`[data-testid=${id}-overview] .rp-kpis`).waitFor();
          await page.screenshot({
            path: `${SHOTS}reports-${id}-overview-laptop.png`,
            fullPage: true,
          });
        }
        // The truck drove: it leads the distance ranking, which links to its trips.
        const rank = page.locator(".rp-hbars a").first();
        assert.ok(
          await rank.count() === 0 || (await rank.getAttribute("href"))?.startsWith("/new/"),
        );
      });

      await t.step("trips open from the query: rows, totals, playback links", async () => {
        const rows = await openReport(
          page,
          reportUrl(base, "trips", [TRUCK], from - 60_000, Date.now()),
        );
        assert.equal(rows, Math.min(trips.total, 10));
        assert.match(
          await page.locator("[data-testid=report-total]").textContent() ?? "",
          new RegExp(`${trips.total} row`),
        );
        await page.locator(".rp-totals").waitFor();
        const href = await page.locator(".rp-result tbody tr .rp-play").first().getAttribute(
          "href",
        );
        const q = new URL(href!, base).searchParams;
        assert.equal(q.get("imei"), TRUCK);
        assert.equal(q.get("startTime"), trips.list[0].startTime);
        // The device chip carries the device's name.
        await page.locator("[data-testid=report-devices] .rp-chip").first().waitFor();
        await page.screenshot({ path: `${SHOTS}reports-trips-laptop.png`, fullPage: true });
      });

      await t.step("a row's playback link shows that trip's track at once", async () => {
        const link = page.locator(".rp-result tbody tr .rp-play").first();
        const href = new URL((await link.getAttribute("href"))!, base);
        await link.click();
        await page.waitForURL(/\/monitorPlayback\?/);
        await hydrated(page);
        // No Query press: the page asks for the range it was given.
        const points = Number(
          await page.locator("[data-points]").getAttribute("data-points", { timeout: 30_000 }),
        );
        const trip = trips.list[0];
        const seconds = (Date.parse(String(trip.endTime)) - Date.parse(String(trip.startTime))) /
          1000;
        // A 1 s track: about one point per second of the trip (the range is cut to minutes).
        assert.ok(points >= seconds * 0.9, `${points} points for a ${seconds} s trip`);
        assert.equal(href.searchParams.get("endTime"), trip.endTime);
        await page.goBack();
        await hydrated(page);
        await page.locator("[data-testid=report-total]").waitFor({ timeout: 30_000 });
      });

      await t.step("print preview: title and total row optional, prints the table", async () => {
        await page.evaluate(() => {
          (globalThis as { __printed?: number }).__printed = 0;
          globalThis.print = () => (globalThis as { __printed?: number }).__printed!++;
        });
        await page.click("#report-print");
        const preview = page.locator("[data-testid=print-preview]");
        await preview.locator("tbody tr").first().waitFor();
        assert.equal(await preview.locator("tbody tr").count(), trips.total);
        assert.match(await preview.locator(".rp-sheet-title").textContent() ?? "", /^Trips · /);
        await page.uncheck("input[name=printWithTotals]");
        assert.equal(await preview.locator(".rp-totals").count(), 0);
        await page.screenshot({ path: `${SHOTS}reports-print-preview-laptop.png` });
        await page.click("#report-print-go");
        assert.equal(
          await page.evaluate(() => (globalThis as { __printed?: number }).__printed),
          1,
        );
        // What prints: the sheet copy outside the page, without the total row.
        assert.equal(await page.locator("body > .rp-print-root tbody tr").count(), trips.total);
        await page.keyboard.press("Escape");
      });

      await t.step("exports: xlsx and pdf download at once", async () => {
        for (const [format, magic] of [["xlsx", "PK\u0003\u0004"], ["pdf", "%PDF"]]) {
          const [download] = await Promise.all([
            page.waitForEvent("download", { timeout: 30_000 }),
            page.click(`[data-export=${format}]`),
          ]);
          const file = await saved(download);
          assert.ok(file.name.endsWith(`.${format}`), file.name);
          assert.equal(file.head, magic, `${format} file`);
          assert.ok(file.size > 500, `${format}: ${file.size} bytes`);
        }
      });

      await t.step("mileage day view and parking without ACC", async () => {
        const rows = await openReport(
          page,
          reportUrl(base, "mileage", [TRUCK], from - 60_000, Date.now()),
        );
        assert.ok(rows >= 1);
        assert.match(
          await page.locator(".rp-result tbody tr td").nth(3).textContent() ?? "",
          /^\d{4}-\d{2}-\d{2}$/,
        );
        assert.equal(await page.locator("input[name=view][value=day]").isChecked(), true);
        await page.screenshot({ path: `${SHOTS}reports-mileage-laptop.png`, fullPage: true });
        // The segment view lists trips.
        await page.click(".rp-segmented label:has-text('Per trip')");
        await page.click("#report-run");
        await page.locator(".rp-result thead th:has-text('Start time')").waitFor();

        await openReport(page, reportUrl(base, "parking", [TRUCK], from - 60_000, Date.now()));
        assert.ok(await page.locator(".rp-result tbody tr").count() >= 1);
        await page.locator("[data-testid=ignition-unknown]").waitFor();
      });

      await t.step("alert details of the live trackers, devices picked in the dialog", async () => {
        await page.goto(`${base}/new/alertDetails`);
        await hydrated(page);
        await page.click("#report-pick-devices");
        const dialog = page.locator(".modal");
        await dialog.locator("tbody tr").first().waitFor();
        for (const imei of live) await dialog.locator(`input[aria-label="${imei}"]`).check();
        await page.click("#report-devices-ok");
        await page.click(".rp-quick-btn[data-range=today]");
        await page.click("#report-run");
        await page.locator("[data-testid=report-total]").waitFor({ timeout: 30_000 });
        assert.ok(await page.locator(".rp-result tbody tr").count() >= 1);
        await page.screenshot({ path: `${SHOTS}reports-alert-details-laptop.png`, fullPage: true });
      });

      await t.step("a large export runs as a task and downloads from /task", async () => {
        await openReport(page, reportUrl(base, "trackDetails", [TRUCK], from - 60_000, Date.now()));
        await page.click("[data-export=csv]");
        await page.locator("[data-testid=export-task]").waitFor({ timeout: 30_000 });
        await page.click("[data-testid=export-task] a");
        await page.waitForURL(/\/task\?type=report$/);
        await hydrated(page);
        const row = page.locator("tr[data-task]").first();
        await row.waitFor();
        await page.locator("tr[data-task][data-status=done]").first().waitFor({ timeout: 60_000 });
        await page.screenshot({ path: `${SHOTS}reports-task-centre-laptop.png`, fullPage: true });
        const [download] = await Promise.all([
          page.waitForEvent("download", { timeout: 30_000 }),
          page.click("tr[data-task][data-status=done] .rp-download"),
        ]);
        const file = await saved(download);
        assert.ok(file.name.endsWith(".csv"), file.name);
        assert.equal(file.head.slice(0, 3), "\xEF\xBB\xBF", "csv starts with a BOM");
        assert.ok(file.size > 5000 * 20, `${file.size} bytes`);
      });

      await t.step("own report list: add from /addReport, shown on /reportList", async () => {
        await page.goto(`${base}/reportList`);
        await hydrated(page);
        await page.locator(".rp-mine-empty").waitFor();
        await page.click("#add-report");
        await page.waitForURL(/\/addReport$/);
        await hydrated(page);
        await page.locator("input[name=report][value=trips]").check();
        await page.locator("input[name=report][value=mileage]").check();
        await page.click("#save-reports");
        await page.waitForURL(/\/reportList$/);
        await page.locator("[data-testid=my-reports] .rp-tile[data-report=mileage]").waitFor();
        assert.equal(await page.locator("[data-testid=my-reports] .rp-tile").count(), 2);
        // Old-version routes land on the new page with their query.
        await page.goto(`${base}/trips?imei=${TRUCK}`);
        assert.match(page.url(), new RegExp(`/new/trips\\?imei=${TRUCK}$`));
      });

      await t.step("phone: overviews, two reports and the task centre", async () => {
        const phone = await phoneContext(browser);
        const p = await phone.newPage();
        p.on("pageerror", (e) => errors.push(e.message));
        await login(p, base, "admin", ADMIN_PASSWORD);
        const shots: [string, string, string][] = [
          ["/deviceOverview", "device-overview", "[data-testid=device-overview]"],
          ["/movingOverview", "moving-overview", "[data-testid=moving-overview] .rp-kpis"],
          ["/alertOverview", "alert-overview", "[data-testid=alert-overview] .rp-kpis"],
          [
            reportUrl("", "trips", [TRUCK], from - 60_000, Date.now()),
            "trips",
            "[data-testid=report-total]",
          ],
          [
            reportUrl("", "mileage", [TRUCK], from - 60_000, Date.now()),
            "mileage",
            "[data-testid=report-total]",
          ],
          ["/task", "task-centre", "tr[data-task]"],
        ];
        for (const [path, name, ready] of shots) {
          await p.goto(base + path);
          await hydrated(p);
          await p.locator(ready).first().waitFor({ timeout: 30_000 });
          const wide = await p.evaluate(() => document.documentElement.scrollWidth);
          assert.ok(wide <= 390, `${path}: page is ${wide}px wide on a phone`);
          await p.screenshot({ path: `${SHOTS}reports-${name}-phone.png`, fullPage: true });
        }
        // The drawer lists the reports.
        await p.click(".nav-toggle");
        await p.locator(".drawer details summary:has-text('Reports')").waitFor();
        assert.ok(await p.locator(".drawer a[href='/new/trips']").count() === 1);
        await phone.close();
      });
      await t.step(
        "without the view-reports permission: no section, no-permission page",
        async () => {
          const created = await api.call<{ id: string }>("/v3/new/account/add", {
            account: "noReports",
            nickName: "No reports",
            password: "Passw0rd11",
            accountType: 8,
            parentId: userId,
          });
          await api.call("/v3/new/account/update", {
            id: created.id,
            permissions: { viewReportFlag: 0 },
          });
          const other = await browser.newContext({ viewport: LAPTOP });
          const p = await other.newPage();
          await login(p, base, "noReports", "Passw0rd11");
          assert.equal(await p.locator(".mainnav a:has-text('Reports')").count(), 0);
          const res = await p.goto(`${base}/new/trips`);
          assert.equal(res?.status(), 403);
          await p.locator(".status-page .code:has-text('403')").waitFor();
          await other.close();
        },
      );
      assert.deepEqual(errors, []);
      await laptop.close();
    } finally {
      await browser.close();
      await fleet.stop();
    }
  },
});
