/**
 * Addresses in the console, in Chromium on a laptop (1440×900) and a phone (390×844): the
 * monitor popup shows the vehicle's address (its owner's landmark first), readings and how
 * long it has stood; never-reporting stock counts under "Not activated", not "Offline"; an
 * alert's "show on map" marks where the alarm happened beside the vehicle now. Saves
 * screenshots to tests/screenshots/.
 */
import assert from "node:assert/strict";
import type { Browser, Page } from "playwright-core";
import { launchBrowser } from "../helpers/browser.ts";
import { ADMIN_PASSWORD, gatewayPorts, login, startFleet } from "./monitor_fixture.ts";
import { MODEL_FOR } from "../../modules/simulator/api.ts";
import { luhnDigit } from "../../lib/luhn.ts";

const SHOTS = new URL("../screenshots/", import.meta.url).pathname;
const FUTIAN = { lat: 22.52192, lng: 114.05617 };
/** Where the van is now: Luohu, ~7 km east of the depot. */
const NOW_AT = { lat: 22.5455, lng: 114.1289 };
const imeiOf = (body: string) => body + luhnDigit(body);
const VAN = imeiOf("86030000000001"), STOCK = imeiOf("86030000000002");
const PHONE_UA =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";

async function hydrated(page: Page) {
  await page.waitForSelector("html[data-islands='hydrated']");
}

/** One OsmAnd report (GET, Traccar Client style). */
async function report(port: number, q: Record<string, string | number>) {
  const qs = new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)]));
  const res = await fetch(`http://127.0.0.1:${port}/?${qs}`);
  await res.body?.cancel();
  assert.ok(res.ok, `OsmAnd report refused: ${res.status}`);
}

Deno.test({
  name: "addresses e2e: monitor popup, Not activated tab, alert shown where it happened",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async (t) => {
    const fleet = await startFleet(4, { intervalSeconds: 2 });
    let browser: Browser | null = null;
    try {
      const base = fleet.server.url, api = fleet.api;
      const osmand = gatewayPorts(fleet.server.output()).osmand;
      const me = await api.currentUserId();
      await api.importDevices(me, MODEL_FOR.osmand, [VAN, STOCK]);
      await api.call("/v3/new/geofence/save", {
        kind: "landmark",
        name: "Depot Futian",
        shape: { kind: "circle", center: FUTIAN, radius: 300 },
      });
      const now = Math.floor(Date.now() / 1000);
      // An SOS at the depot 25 minutes ago, then the van drove to Luohu and parked.
      await report(osmand, {
        id: VAN,
        lat: FUTIAN.lat,
        lon: FUTIAN.lng,
        timestamp: now - 1500,
        speed: 0,
        alarm: "sos",
        batt: 76,
      });
      await report(osmand, {
        id: VAN,
        lat: 22.535,
        lon: 114.09,
        timestamp: now - 1200,
        speed: 20,
        batt: 75,
      });
      await report(osmand, {
        id: VAN,
        lat: NOW_AT.lat,
        lon: NOW_AT.lng,
        timestamp: now - 900,
        speed: 0,
        ignition: "false",
        batt: 74,
      });
      type Alert = { address?: string; mapUrl: string; type: string };
      let alert: Alert | undefined;
      for (let i = 0; i < 50 && !alert?.address; i++) {
        const list = await api.call<{ list: Alert[] }>("/v3/new/alarm/list", { imeis: [VAN] });
        alert = list.list.find((a) => a.type === "sos");
        if (!alert?.address) await new Promise((r) => setTimeout(r, 200));
      }
      assert.equal(alert?.address, "At Depot Futian", "the alert stored where it happened");
      assert.match(alert!.mapUrl, /alarmLat=22\.52192/);

      browser = await launchBrowser();
      for (
        const [label, ctxOpts] of [
          ["laptop", { viewport: { width: 1440, height: 900 } }],
          [
            "phone",
            {
              viewport: { width: 390, height: 844 },
              userAgent: PHONE_UA,
              isMobile: true,
              hasTouch: true,
            },
          ],
        ] as const
      ) {
        await t.step(`${label}: the popup shows address, readings and since when`, async () => {
          const ctx = await browser!.newContext({ ...ctxOpts, deviceScaleFactor: 1 });
          const page = await ctx.newPage();
          await login(page, base, "admin", ADMIN_PASSWORD);
          await page.goto(`${base}/monitorObject?imei=${VAN}`);
          await hydrated(page);
          const card = page.locator(`.mon-popup .mon-card[data-imei='${VAN}']`);
          await card.waitFor({ timeout: 15_000 });
          const address = card.locator("[data-address]");
          await page.waitForFunction(
            (sel) => !!document.querySelector(sel)?.textContent?.includes("Guangdong"),
            `.mon-popup .mon-card[data-imei='${VAN}'] [data-address]`,
            { timeout: 15_000 },
          );
          assert.match(await address.textContent() ?? "", /Shenzhen, Guangdong, China/);
          await page.waitForFunction(
            (sel) => document.querySelector(sel)?.textContent === "74%",
            `.mon-popup .mon-card [data-battery]`,
            { timeout: 15_000 },
          );
          assert.match(await card.locator("[data-since]").textContent() ?? "", /Stopped for/);
          assert.equal(await card.locator("[data-acc]").textContent(), "Off");
          // Stock that never reported is "Not activated", not offline.
          const counts = Object.fromEntries(
            await page.locator("[data-count]").evaluateAll((els) =>
              els.map((e) => [e.getAttribute("data-count")!, Number(e.textContent)])
            ),
          );
          assert.equal(counts.notActivated, 1);
          assert.equal(counts.offline, 0);
          await page.waitForTimeout(600);
          await page.screenshot({ path: `${SHOTS}monitor-popup-${label}.png` });

          await page.goto(new URL(alert!.mapUrl, base).href);
          await hydrated(page);
          const banner = page.locator("[data-alarm-place]");
          await banner.waitFor({ timeout: 15_000 });
          assert.equal(
            await banner.locator("[data-alarm-address]").textContent(),
            "At Depot Futian",
          );
          // The alarm place and the vehicle now are both in view.
          const inView = await page.evaluate(([vanImei]) => {
            const hook = (globalThis as unknown as {
              __tpMonitor: {
                base: {
                  map: {
                    getView(): { calculateExtent(): number[] };
                    getLayers(): { getArray(): { get(k: string): unknown }[] };
                  };
                };
                layers: { coordinateOf(i: string): number[] | undefined };
              };
            }).__tpMonitor;
            const ext = hook.base.map.getView().calculateExtent();
            const van = hook.layers.coordinateOf(vanImei)!;
            const alarmLayer = hook.base.map.getLayers().getArray().some((l) =>
              l.get("name") === "alarmPlace"
            );
            const inside = (c: number[]) =>
              c[0] >= ext[0] && c[0] <= ext[2] && c[1] >= ext[1] && c[1] <= ext[3];
            return { van: inside(van), alarmLayer };
          }, [VAN]);
          assert.deepEqual(inView, { van: true, alarmLayer: true });
          await page.waitForTimeout(600);
          await page.screenshot({ path: `${SHOTS}alert-map-${label}.png` });
          await ctx.close();
        });
      }
    } finally {
      await browser?.close();
      await fleet.stop();
    }
  },
});
