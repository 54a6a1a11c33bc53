/**
 * Monitor end to end in Chromium against a real server process fed by simulated GT06
 * trackers (modules/simulator) over TCP: vehicles appear on the map and move, the list's
 * counts and filters agree with the API, a trip plays back at 0.1x and 16x and exports, and
 * a share link works logged out and is refused once expired (after a restart on the same
 * store). The machine has no internet: map tiles fail, everything else must work.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { launchBrowser } from "../helpers/browser.ts";
import { startServer } from "../helpers/server.ts";
import {
  ADMIN_PASSWORD,
  login,
  sendHistory,
  startFleet,
  storedVia,
  type WithHook,
} from "./monitor_fixture.ts";
import { MonitorStore } from "../../modules/monitor/store.ts";
import type { ObjectsPayload } from "../../modules/monitor/objects.ts";

const SHOTS = new URL("../screenshots/", import.meta.url).pathname;
const DEVICES = 24;

async function hydrated(page: Page) {
  await page.waitForSelector("html[data-islands='hydrated']");
}

/** The UI's tab counts, read from the status tabs. */
async function uiCounts(page: Page): Promise<Record<string, number>> {
  return Object.fromEntries(
    await page.locator("[data-count]").evaluateAll((els) =>
      els.map((e) => [e.getAttribute("data-count")!, Number(e.textContent)])
    ),
  );
}

Deno.test({
  name: "monitor e2e: live map, counts, playback, share links",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async (t) => {
    const fleet = await startFleet(DEVICES, { intervalSeconds: 1 });
    const browser = await launchBrowser();
    const dataDir = fleet.server.dataDir;
    const servers: { stop(): Promise<void> }[] = [];
    try {
      const base = fleet.server.url;
      const trip = "860200000000018";
      await fleet.api.importDevices(await fleet.api.currentUserId(), "GT06N", [trip]);
      const tripStart = Date.now() - 3 * 3600_000;
      const tripEnd = tripStart + 2 * 3600_000;
      const sent = await sendHistory(
        fleet.gt06Port,
        trip,
        tripStart,
        tripEnd,
        10_000,
        7,
        storedVia(fleet.api, trip, tripStart, tripEnd),
      );
      // A mixed fleet: the map draws each application type's icon (the rest stay cars).
      const types = ["truck", "bus", "taxi", "motorcycle", "drone", "person", "asset", "other"];
      for (const [k, type] of types.entries()) {
        const imei = fleet.sim.imeis[k + 2];
        const { basic } = await fleet.api.call<{ basic: Record<string, unknown> }>(
          "/v3/new/newEquipment/getDeviceDetail",
          { imei },
        );
        await fleet.api.call("/v3/new/newEquipment/updateBasic", {
          imei,
          deviceName: basic.deviceName,
          sim: basic.sim,
          iccid: basic.iccid,
          imsi: basic.imsi,
          sn: basic.sn,
          macAddress: basic.macAddress,
          reMark: basic.reMark,
          applicationType: type,
        });
      }
      const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));
      await login(page, base, "admin", ADMIN_PASSWORD);

      let shareUrl = "";
      await t.step("simulated devices appear on the map and move", async () => {
        await page.waitForFunction(
          (n) => {
            const m = (globalThis as WithHook).__tpMonitor!;
            return m && m.layers.count() >= n;
          },
          DEVICES,
          { timeout: 20_000 },
        );
        // Each device carries its application type (the icon), from the device record.
        const shown = await page.evaluate((imeis) => {
          const f = (globalThis as WithHook).__tpMonitor!.fleet.current!.data;
          return imeis.map((i) => f.appTypes[f.appType[f.imei.indexOf(i)]]);
        }, fleet.sim.imeis.slice(1, 10));
        assert.deepEqual(shown, ["car", ...types]);
        const imei = fleet.sim.imeis[0];
        const where = () =>
          page.evaluate(
            (i) => (globalThis as WithHook).__tpMonitor!.layers.coordinateOf(i),
            imei,
          );
        const before = (await where())!;
        // Live updates come over the stream within a second of the device message.
        await page.waitForFunction(
          ([i, b]) => {
            const c = (globalThis as WithHook).__tpMonitor!.layers.coordinateOf(i);
            return c && (c[0] !== b[0] || c[1] !== b[1]);
          },
          [imei, before] as const,
          { timeout: 15_000 },
        );
        await page.screenshot({ path: `${SHOTS}monitor-objects.png` });
      });

      await t.step("tab counts agree with the API; search and status filter the list", async () => {
        let ok = false;
        for (let attempt = 0; attempt < 8 && !ok; attempt++) {
          const api = await fleet.api.call<ObjectsPayload>("/v3/new/monitor/objects");
          await page.waitForTimeout(1200); // the list refreshes at most once a second
          const ui = await uiCounts(page);
          const again = await fleet.api.call<ObjectsPayload>("/v3/new/monitor/objects");
          ok = JSON.stringify(ui) === JSON.stringify(api.counts) ||
            JSON.stringify(ui) === JSON.stringify(again.counts);
          if (!ok) console.log("counts differ, retrying", ui, api.counts);
        }
        assert.ok(ok, "the tab counts match the API's counts");
        const counts = await uiCounts(page);
        assert.equal(counts.all, DEVICES + 1);
        assert.equal(
          counts.moving + counts.idling + counts.stopped + counts.offline,
          counts.all,
        );
        await page.fill(".mon-side-tools input[type=search]", fleet.sim.imeis[3]);
        await page.waitForTimeout(200);
        assert.deepEqual(
          await page.locator(".mon-row").evaluateAll((r) =>
            r.map((e) => e.getAttribute("data-imei"))
          ),
          [fleet.sim.imeis[3]],
        );
        await page.fill(".mon-side-tools input[type=search]", "");
        await page.click("[data-tab=offline]");
        await page.waitForTimeout(200);
        const offline = await page.locator(".mon-row").count();
        assert.equal(offline, (await uiCounts(page)).offline);
        await page.click("[data-tab=all]");
      });

      await t.step(
        "a vehicle's popup has its data and shortcuts; a share link is made",
        async () => {
          const imei = fleet.sim.imeis[1];
          await page.click(`.mon-row[data-imei="${imei}"]`);
          const card = page.locator(`.mon-popup .mon-card[data-imei="${imei}"]`);
          await card.waitFor({ timeout: 5000 });
          const text = await card.innerText();
          assert.match(text, new RegExp(imei));
          assert.match(text, /km\/h/);
          assert.match(text, /22\.\d{6}, 11[34]\.\d{6}/);
          assert.equal(
            await card.locator(`a[href="/monitorPlayback?imei=${imei}"]`).count(),
            1,
          );
          await page.waitForTimeout(600);
          await page.screenshot({ path: `${SHOTS}monitor-popup.png` });
          await card.locator("button", { hasText: "Share" }).click();
          await page.fill(".modal input[name=hours]", "0");
          await page.click(".modal button[type=submit]");
          assert.match(await page.locator(".modal .field-error").innerText(), /1 to 720/);
          await page.fill(".modal input[name=hours]", "2");
          await page.click(".modal button[type=submit]");
          const input = page.locator(".mon-share-fresh input");
          await input.waitFor();
          shareUrl = await input.inputValue();
          assert.match(shareUrl, /\/monitorShare\?token=[\w-]+$/);
          await page.screenshot({ path: `${SHOTS}monitor-share-dialog.png` });
          await page.keyboard.press("Escape");
        },
      );

      await t.step("playback plays a simulated trip at 0.1x and 16x and exports it", async () => {
        await page.goto(`${base}/monitorPlayback?imei=${trip}`);
        await hydrated(page);
        await page.click("#playback-query");
        await page.waitForSelector("[data-points]", { timeout: 60_000 });
        assert.equal(Number(await page.getAttribute("[data-points]", "data-points")), sent);
        assert.ok((await page.locator(".mon-pb-stops li").count()) >= 1, "stops are marked");
        const slider = page.locator(".mon-slider");
        const play = async (speed: string, ms: number) => {
          await page.selectOption("select[name=speed]", speed);
          const from = Number(await slider.inputValue());
          await page.click("#playback-play");
          await page.waitForTimeout(ms);
          await page.click("#playback-play");
          return Number(await slider.inputValue()) - from;
        };
        const slow = await play("0.1", 2000);
        const fast = await play("16", 2000);
        // 0.1x plays 6 s of track per second, 16x 16 minutes per second.
        assert.ok(slow > 4_000 && slow < 30_000, `0.1x advanced ${slow} ms`);
        assert.ok(fast > 100 * slow, `16x advanced ${fast} ms vs ${slow} ms`);
        // Hovering the chart shows that point's data.
        const chart = page.locator(".mon-chart");
        const box = (await chart.boundingBox())!;
        await page.mouse.move(box.x + box.width * 0.6, box.y + box.height / 2);
        await page.waitForSelector(".mon-pb-point[data-hover='1']");
        await page.screenshot({ path: `${SHOTS}monitor-playback.png` });
        const [gpx] = await Promise.all([
          page.waitForEvent("download"),
          page.click("button:has-text('GPX')"),
        ]);
        const gpxText = await Deno.readTextFile((await gpx.path())!);
        assert.equal(gpxText.match(/<trkpt /g)?.length, sent);
        const [kml] = await Promise.all([
          page.waitForEvent("download"),
          page.click("button:has-text('KML')"),
        ]);
        assert.match(await Deno.readTextFile((await kml.path())!), /<gx:Track>/);
      });

      await t.step("tracking follows one device with its trail", async () => {
        const imei = fleet.sim.imeis[2];
        await page.goto(`${base}/monitorTracking?imei=${imei}`);
        await hydrated(page);
        const trail = page.locator("[data-trail]");
        await trail.waitFor({ timeout: 60_000 });
        const first = Number(await trail.getAttribute("data-trail"));
        await page.waitForFunction(
          (n) => Number(document.querySelector("[data-trail]")?.getAttribute("data-trail")) > n,
          first,
          { timeout: 30_000 },
        );
      });

      await t.step("Google tiles carry the user's key; without one the map says so", async () => {
        await page.goto(`${base}/monitorObject`);
        await hydrated(page);
        const provider = page.locator(".mon-toolbar select").first();
        await provider.selectOption("Google");
        await page.locator(".mon-toolbar-note").waitFor({ timeout: 5000 });
        await page.screenshot({ path: `${SHOTS}monitor-google-nokey.png` });
        const key = "AIza-e2e-monitor-key";
        await fleet.api.call("/v3/new/account/updateProfile", { googleMapKey: key });
        const keyed = page.waitForRequest(
          (r) => r.url().includes("google.com/vt") && r.url().includes(`key=${key}`),
          { timeout: 10_000 },
        );
        const objectRequests: string[] = [];
        const count = (r: { url(): string }) => {
          if (r.url().includes("/v3/new/monitor/objects")) objectRequests.push(r.url());
        };
        page.on("request", count);
        await page.reload(); // the provider choice is remembered by this browser
        await hydrated(page);
        await keyed;
        await page.waitForSelector(".mon-row");
        page.off("request", count);
        // The preloaded objects answer is the one the page uses: one request, not two.
        assert.equal(objectRequests.length, 1, objectRequests.join(", "));
        assert.equal(await page.locator(".mon-toolbar-note").count(), 0);
        await page.locator(".mon-toolbar select").first().selectOption("OpenStreetMap");
      });

      await t.step("the alerts tab shows the alert centre's list", async () => {
        await page.goto(`${base}/monitorEvent`);
        await hydrated(page);
        // Loaded, not loading or failed: empty, or the rows of alerts the simulated fleet's
        // sensors raised meanwhile (fuel, harsh driving: it depends on the run's timing).
        await page.waitForSelector(
          ".mon-events-main .mon-empty:has-text('No alerts.'), .mon-events-main table.data tbody tr",
          { timeout: 30_000 },
        );
        assert.equal(await page.locator(".mon-tabs a.active").innerText(), "Alerts");
      });

      await t.step("a share link works logged out", async () => {
        const anon = await browser.newContext({ viewport: { width: 1280, height: 800 } });
        const p = await anon.newPage();
        await p.goto(shareUrl);
        await hydrated(p);
        await p.waitForSelector(`.mon-card[data-imei="${fleet.sim.imeis[1]}"]`, {
          timeout: 10_000,
        });
        await p.waitForSelector(".mon-live.on", { timeout: 30_000 });
        await p.waitForTimeout(1500);
        await p.screenshot({ path: `${SHOTS}monitor-share.png` });
        await anon.close();
      });
      assert.deepEqual(errors, [], "no page errors");

      await t.step("an expired share link is refused with the catalogue message", async () => {
        await page.close(); // its live streams would hold the graceful shutdown open
        await fleet.stop();
        // Move the link's expiry into the past in the stored record, then start again.
        const kv = await Deno.openKv(`${dataDir}/tracking.kv`);
        const store = new MonitorStore(kv);
        const token = new URL(shareUrl).searchParams.get("token")!;
        const link = (await store.share(token))!;
        await store.saveShare({ ...link, expiresAt: Date.now() - 60_000 });
        kv.close();
        const restarted = await startServer({ ADMIN_PASSWORD }, { dataDir });
        servers.push(restarted);
        const anon = await browser.newContext();
        const p = await anon.newPage();
        const res = await p.goto(`${restarted.url}/monitorShare?token=${token}`);
        assert.equal(res?.status(), 403);
        assert.equal(await p.locator("#share-refusal").innerText(), "This share link has expired.");
        await p.screenshot({ path: `${SHOTS}monitor-share-expired.png` });
        const api = await fetch(`${restarted.url}/v3/new/monitor/share/view?token=${token}`);
        assert.equal((await api.json()).code, 44001);
        await anon.close();
      });
    } finally {
      await browser.close();
      await fleet.stop().catch(() => {});
      for (const s of servers) await s.stop();
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    }
  },
});
