/**
 * End to end: an operator draws a circle and a polygon fence on the OpenLayers map, a GT06
 * device (real TCP frames into the real gateway) drives through both, and the console shows
 * the enter/exit pop-ups; the alert centre lists them. Screenshots go to tests/screenshots/.
 */
import assert from "node:assert/strict";
import type { Browser, Page } from "playwright-core";
import { launchBrowser } from "../helpers/browser.ts";
import { freePort, startServer } from "../helpers/server.ts";
import { ApiClient } from "../helpers/api_client.ts";
import { gt06Location, gt06Login } from "../helpers/gt06_frames.ts";
import { squarePolygon } from "../helpers/alerting.ts";

const SHOTS = new URL("../screenshots/", import.meta.url).pathname;
const ADMIN_PASSWORD = "Admin12345";
const IMEI = "359710049400001";

interface LatLng {
  lat: number;
  lng: number;
}

/** A GT06 tracker on a raw socket: login (acknowledged), then fixes (GT06 does not ack 0x12). */
async function drive(port: number, points: LatLng[]) {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  const ack = new Uint8Array(64);
  try {
    await conn.write(gt06Login(IMEI, 1));
    await conn.read(ack);
    const start = Date.now() - points.length * 10_000;
    for (const [i, p] of points.entries()) {
      await conn.write(
        gt06Location({ time: new Date(start + i * 10_000), ...p, speedKmh: 40, course: 90 }, i + 2),
      );
      await new Promise((r) => setTimeout(r, 300));
    }
  } finally {
    conn.close();
  }
}

/** Runs `body` against a real server process and a headless browser; prints the server log on failure. */
async function withServerAndBrowser(
  env: Record<string, string>,
  body: (server: Awaited<ReturnType<typeof startServer>>, browser: Browser) => Promise<void>,
) {
  const server = await startServer({ ADMIN_PASSWORD, ...env });
  const browser = await launchBrowser();
  try {
    await body(server, browser);
  } catch (e) {
    console.log(server.output().slice(-3000));
    throw e;
  } finally {
    await browser.close();
    await server.stop();
  }
}

/** The administrator's API client, with the test's GT06 device imported into its account. */
async function adminWithDevice(url: string) {
  const api = await ApiClient.login(url, "admin", ADMIN_PASSWORD);
  const me = await api.call("/v3/new/account/current");
  await api.call("/v3/new/newEquipment/importEquipment", {
    userId: me.userId,
    mcType: "GT06N",
    imeis: [IMEI],
  });
  return { api, me };
}

async function hydrated(page: Page, url: string) {
  await page.goto(url);
  await page.waitForSelector("html[data-islands='hydrated']");
  const notes = page.locator(".modal .modal-foot .btn-primary");
  if (await notes.count()) await notes.first().click();
}

async function saveZone(page: Page, name: string) {
  await page.waitForSelector("#zone-form", { timeout: 5000 }).catch(async (e) => {
    await page.screenshot({ path: "/tmp/i6/debug.png" });
    throw e;
  });
  await page.fill("#zone-form input[name=name]", name);
  await page.click(".modal .modal-foot .btn-primary");
  await page.waitForSelector("#zone-form", { state: "detached", timeout: 10_000 });
}

Deno.test({
  name:
    "e2e alerts: draw circle and polygon fences, a GT06 device crosses them, pop-ups and alert centre",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const gt06 = freePort();
    await withServerAndBrowser({ GT06_PORT: String(gt06) }, async (server, browser) => {
      const { api } = await adminWithDevice(server.url);
      // Every crossing should pop up here, so no silence between two fence alerts.
      const settings = await api.call("/v3/new/alarm/settings/get", {});
      await api.call("/v3/new/alarm/settings/save", {
        ...settings,
        userId: undefined,
        silenceMinutes: 0,
      });

      const page = await browser.newPage({ viewport: { width: 1440, height: 860 } });
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(String(e)));
      await page.goto(`${server.url}/login`);
      await page.waitForSelector("html[data-islands='hydrated']");
      await page.fill("input[name=account]", "admin");
      await page.fill("input[name=password]", ADMIN_PASSWORD);
      await page.click("#login-submit");
      await page.waitForURL(/\/monitorObject$/, { timeout: 15_000 });

      await hydrated(page, `${server.url}/geofence`);
      await page.waitForSelector(".gf-list .empty");
      const box = (await page.locator(".gf-map").boundingBox())!;
      const cx = box.x + box.width / 2 - 200, cy = box.y + box.height / 2;

      // Circle: click the centre, click again ~70 px out (about 600 m at zoom 14).
      await page.click("#gf-draw-circle");
      await page.mouse.click(cx, cy);
      await page.mouse.move(cx + 40, cy, { steps: 4 });
      await page.mouse.click(cx + 70, cy);
      await saveZone(page, "E2E circle");

      // Polygon east of it: four corners, closed by clicking the first one again.
      await page.click("#gf-draw-polygon");
      const corners = [[cx + 200, cy - 60], [cx + 320, cy - 60], [cx + 320, cy + 60], [
        cx + 200,
        cy + 60,
      ]];
      for (const [x, y] of corners) {
        await page.mouse.click(x, y);
        await page.waitForTimeout(120);
      }
      await page.mouse.click(corners[0][0], corners[0][1]);
      await saveZone(page, "E2E polygon");
      await page.waitForSelector(".gf-item >> text=E2E polygon");
      await page.screenshot({ path: `${SHOTS}geofence_editor.png` });

      const fences = (await api.call("/v3/new/geofence/list", { kind: "fence" })).list;
      assert.equal(fences.length, 2);
      const circle = fences.find((f: { name: string }) => f.name === "E2E circle");
      const polygon = fences.find((f: { name: string }) => f.name === "E2E polygon");
      assert.equal(circle.shape.kind, "circle");
      assert.ok(
        circle.shape.radius >= 200 && circle.shape.radius <= 5000,
        String(circle.shape.radius),
      );
      assert.equal(polygon.shape.kind, "polygon");
      assert.equal(polygon.shape.points.length, 5);
      const pts = polygon.shape.points.slice(0, 4) as LatLng[];
      const inPolygon = {
        lat: pts.reduce((s, p) => s + p.lat, 0) / 4,
        lng: pts.reduce((s, p) => s + p.lng, 0) / 4,
      };
      const c = circle.shape.center as LatLng;

      // Drive: west of the circle → its centre → into the polygon → far east.
      await drive(gt06, [
        { lat: c.lat, lng: c.lng - 0.03 },
        c,
        inPolygon,
        { lat: inPolygon.lat, lng: inPolygon.lng + 0.05 },
      ]);
      await page.waitForFunction(
        () => document.querySelectorAll(".alert-popup").length >= 4,
        null,
        {
          timeout: 15_000,
        },
      );
      const popups = await page.locator(".alert-popup").allInnerTexts();
      const has = (type: string, fence: string) =>
        popups.some((p) => p.includes(type) && p.includes(fence));
      assert.ok(has("Enter fence", "E2E circle"), popups.join("\n---\n"));
      assert.ok(has("Exit fence", "E2E circle"), popups.join("\n---\n"));
      assert.ok(has("Enter fence", "E2E polygon"), popups.join("\n---\n"));
      assert.ok(has("Exit fence", "E2E polygon"), popups.join("\n---\n"));
      await page.screenshot({ path: `${SHOTS}alert_popups.png` });

      await hydrated(page, `${server.url}/alertCenter`);
      await page.waitForSelector("table.data tbody tr.unread");
      assert.equal(await page.locator("table.data tbody tr").count(), 4);
      await page.screenshot({ path: `${SHOTS}alert_centre.png` });
      await hydrated(page, `${server.url}/settingAlert`);
      await page.waitForSelector("input[name=silenceMinutes]");
      await page.screenshot({ path: `${SHOTS}alert_settings.png`, fullPage: true });
    });
  },
});

async function waitFor(check: () => Promise<boolean>, timeoutMs = 10_000) {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function consoleLogin(page: Page, url: string, account = "admin", password = ADMIN_PASSWORD) {
  await page.goto(`${url}/login`);
  await page.waitForSelector("html[data-islands='hydrated']");
  await page.fill("input[name=account]", account);
  await page.fill("input[name=password]", password);
  await page.click("#login-submit");
  await page.waitForURL(/\/monitorObject$/, { timeout: 15_000 });
}

Deno.test({
  name:
    "e2e alerts: auto broadcast rules screen, landmarks on the monitor map, message center, redrawing a fence",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await withServerAndBrowser({}, async (server, browser) => {
      const { api, me } = await adminWithDevice(server.url);
      let page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(String(e)));
      await consoleLogin(page, server.url);

      // Auto broadcast: empty state, a refused time range, then a rule for one chosen device.
      await hydrated(page, `${server.url}/settingAlert`);
      await page.click("[role=tab] >> text=Auto broadcast");
      await page.waitForSelector(".broadcast-table .empty-row");
      assert.match(
        await page.locator(".broadcast-table .empty-row").innerText(),
        /No auto broadcast/,
      );
      await page.screenshot({ path: `${SHOTS}broadcast_empty.png` });
      await page.click("#broadcast-add");
      await page.fill(".broadcast-form input[name=name]", "SOS voice");
      await page.selectOption(".broadcast-form select[name=alarmType]", "sos");
      await page.fill(".broadcast-form input[name=count]", "2");
      await page.fill(".broadcast-form input[name=startTime]", "18:00");
      await page.fill(".broadcast-form input[name=endTime]", "08:00");
      await page.fill(".broadcast-form input[name=minSpeed]", "90");
      await page.fill(".broadcast-form input[name=maxSpeed]", "60");
      await page.click("#dialog-submit");
      await page.waitForSelector(".broadcast-form .has-error");
      const refusals = await page.locator(".broadcast-form .field-error").allInnerTexts();
      assert.ok(refusals.some((r) => r.includes("Active until")), refusals.join(" | "));
      assert.ok(refusals.some((r) => r.includes("Maximum speed")), refusals.join(" | "));
      assert.ok(refusals.some((r) => r.includes("Broadcast text")), refusals.join(" | "));
      await page.fill(".broadcast-form input[name=endTime]", "23:30");
      await page.fill(".broadcast-form input[name=maxSpeed]", "120");
      await page.fill(".broadcast-form textarea[name=content]", "Emergency reported, stay calm");
      await page.check(".broadcast-form input[name=deviceScope][value=some]");
      await page.waitForSelector(`.cmd-picker td >> text=${IMEI}`);
      await page.check(`.cmd-picker input[aria-label="${IMEI}"]`);
      await page.screenshot({ path: `${SHOTS}broadcast_dialog.png` });
      await page.click("#dialog-submit");
      await page.waitForSelector(".broadcast-table td >> text=SOS voice");
      const row = await page.locator(".broadcast-table tbody tr").first().innerText();
      assert.match(row, /SOS/);
      assert.match(row, /2 times in 10 min/);
      assert.match(row, /18:00–23:30/);
      assert.match(row, /Chosen: 1/);
      const rules = await api.call("/v3/new/alarm/broadcast/list", {});
      assert.equal(rules.length, 1);
      assert.deepEqual(rules[0].imeis, [IMEI]);
      assert.equal(rules[0].minSpeed, 90);
      await page.screenshot({ path: `${SHOTS}broadcast_rules.png` });
      // Eleven rules: the pager appears (spec: from 10 rows) and page 2 holds the last one.
      for (let i = 2; i <= 11; i++) {
        await api.call("/v3/new/alarm/broadcast/save", {
          rule: {
            name: `Rule ${String(i).padStart(2, "0")}`,
            alarmType: "vibration",
            count: 3,
            unitMinutes: 60,
            content: "Vehicle disturbed",
          },
        });
      }
      await hydrated(page, `${server.url}/settingAlert`);
      await page.click("[role=tab] >> text=Auto broadcast");
      await page.waitForSelector(".broadcast-rules .pagination");
      assert.match(await page.locator("[data-testid=rule-count]").innerText(), /11 \/ 20/);
      assert.equal(await page.locator(".broadcast-table tbody tr").count(), 10);
      await page.click(".broadcast-rules .pagination button >> text=2");
      await page.waitForFunction(() =>
        document.querySelectorAll(".broadcast-table tbody tr").length === 1
      );

      // Device thresholds carry the reminder dates the message center announces.
      await page.click("[role=tab] >> text=Device thresholds");
      await page.fill("input[name=thresholdImei]", IMEI);
      await page.click(".form-section .toolbar button[type=submit]");
      await page.waitForSelector("input[name=licenceExpiry]");
      await page.fill("input[name=licenceExpiry]", "2027-03-31");
      await page.fill("input[name=simCardExpiry]", "2027-01-15");
      await page.click(".form-grid .form-actions .btn-primary");
      await page.waitForSelector(".toast >> text=Saved");
      const thresholds = await api.call("/v3/new/alarm/device/get", { imei: IMEI });
      assert.equal(thresholds.licenceExpiry, "2027-03-31");
      assert.equal(thresholds.simCardExpiry, "2027-01-15");
      assert.equal(thresholds.insuranceExpiry, null);
      await page.screenshot({ path: `${SHOTS}alert_device_thresholds.png`, fullPage: true });

      // Landmarks: a circle and a polygon POI drawn on the monitor map under the vehicles.
      const poi = { lat: 29.06, lng: 106.16 };
      await api.call("/v3/new/geofence/save", {
        kind: "landmark",
        name: "Depot",
        color: "#e8590c",
        shape: { kind: "circle", center: poi, radius: 400 },
      });
      await api.call("/v3/new/geofence/save", {
        kind: "landmark",
        name: "Yard",
        color: "#2f9e44",
        shape: { kind: "polygon", points: squarePolygon(poi.lat, poi.lng + 0.015, 300) },
      });
      await hydrated(page, `${server.url}/monitorObject`);
      const landmarks = () =>
        page.evaluate(() => {
          const m = (globalThis as unknown as {
            __tpMonitor: { base: { map: import("ol/Map.js").default } };
          }).__tpMonitor;
          const layer = m.base.map.getLayers().getArray().find((l) =>
            l.get("name") === "landmarks"
          );
          const src = (layer as unknown as { getSource(): { getFeatures(): unknown[] } })
            ?.getSource();
          return { count: src?.getFeatures().length ?? -1, visible: layer?.getVisible() };
        });
      await page.waitForFunction(() =>
        (globalThis as unknown as { __tpMonitor?: unknown }).__tpMonitor !== undefined
      );
      await waitFor(async () => (await landmarks()).count === 2);
      await page.evaluate(() => {
        const m = (globalThis as unknown as {
          __tpMonitor: { base: { map: import("ol/Map.js").default } };
        }).__tpMonitor;
        m.base.map.getView().setCenter(
          [
            106.1675 * 20037508.34 / 180,
            Math.log(Math.tan((90 + 29.06) * Math.PI / 360)) * 20037508.34 / Math.PI,
          ],
        );
        m.base.map.getView().setZoom(14);
      });
      await page.waitForTimeout(600);
      await page.screenshot({ path: `${SHOTS}monitor_landmarks.png` });
      await page.click(".mon-landmark-toggle");
      assert.equal((await landmarks()).visible, false);
      await page.click(".mon-landmark-toggle");
      assert.equal((await landmarks()).visible, true);

      // Fence editor: resize a circle on the map (below 200 m is refused while dragging),
      // then redraw it as a polygon; each change is saved through the zone dialog.
      const fence = await api.call("/v3/new/geofence/save", {
        kind: "fence",
        name: "Reshape me",
        shape: { kind: "circle", center: { lat: 29.06, lng: 106.2 }, radius: 500 },
        enterAlert: true,
      });
      await hydrated(page, `${server.url}/geofence`);
      await page.waitForSelector(".gf-item >> text=Reshape me");
      await page.click(".gf-item:has-text('Reshape me') .gf-shape-link");
      await page.waitForSelector(".gf-reshape");
      await page.waitForTimeout(700); // the map's fit animation
      const mapBox = (await page.locator(".gf-map").boundingBox())!;
      const mx = mapBox.x + mapBox.width / 2, my = mapBox.y + mapBox.height / 2;
      const rimPx = (Math.min(mapBox.width, mapBox.height) - 120) / 2;
      const drag = async (fromX: number, toX: number) => {
        await page.mouse.move(fromX, my);
        await page.mouse.down();
        await page.mouse.move((fromX + toX) / 2, my, { steps: 5 });
        await page.mouse.move(toX, my, { steps: 5 });
        await page.mouse.up();
        await page.waitForTimeout(200);
      };
      const size = () => page.locator("[data-testid=reshape-size]").innerText();
      await drag(mx + rimPx, mx + rimPx * 0.3);
      assert.match(await size(), /an integer from 200 to 5000 m/);
      assert.equal(await page.locator("#gf-reshape-done").isDisabled(), true);
      await page.screenshot({ path: `${SHOTS}fence_reshape_refused.png` });
      await drag(mx + rimPx * 0.3, mx + rimPx * 1.5);
      const radius = Number(/Radius (\d+) m/.exec(await size())![1]);
      assert.ok(radius > 650 && radius < 850, String(radius));
      await page.screenshot({ path: `${SHOTS}fence_reshape.png` });
      await page.click("#gf-reshape-done");
      await page.waitForSelector("#zone-form");
      assert.equal(await page.inputValue("#zone-form input[name=radius]"), String(radius));
      await page.click(".modal .modal-foot .btn-primary");
      await page.waitForSelector("#zone-form", { state: "detached" });
      const resized = (await api.call("/v3/new/geofence/list", { kind: "fence" })).list
        .find((f: { id: string }) => f.id === fence.id);
      assert.equal(resized.shape.radius, radius);
      assert.equal(resized.enterAlert, true, "the other settings are kept");

      await page.click(".gf-item:has-text('Reshape me') .gf-shape-link");
      await page.waitForSelector(".gf-reshape");
      await page.click(".gf-reshape button >> text=Redraw as polygon");
      const corners = [[mx - 80, my - 60], [mx + 80, my - 60], [mx + 80, my + 60], [
        mx - 80,
        my + 60,
      ]];
      for (const [x, y] of corners) {
        await page.mouse.click(x, y);
        await page.waitForTimeout(120);
      }
      await page.mouse.click(corners[0][0], corners[0][1]);
      await page.waitForFunction(() =>
        /Span \d+ m/.test(document.querySelector("[data-testid=reshape-size]")?.textContent ?? "")
      );
      await page.click("#gf-reshape-done");
      await page.waitForSelector("#zone-form");
      await page.click(".modal .modal-foot .btn-primary");
      await page.waitForSelector("#zone-form", { state: "detached" });
      const redrawn = (await api.call("/v3/new/geofence/list", { kind: "fence" })).list
        .find((f: { id: string }) => f.id === fence.id);
      assert.equal(redrawn.shape.kind, "polygon");
      assert.equal(redrawn.shape.points.length, 5);
      await page.waitForSelector(".gf-item:has-text('Reshape me') >> text=Polygon, 4 corners");

      // Message center: an allocation message, then marking it read.
      const dealer = await api.call("/v3/new/account/add", {
        account: "dealer_e2e",
        nickName: "Dealer",
        password: "Passw0rd11",
        accountType: 8,
        parentId: me.userId,
      });
      await api.call("/v3/new/newEquipment/transferEquipment", {
        imeis: [IMEI],
        targetUserId: dealer.id,
      });
      await page.close();
      page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
      page.on("pageerror", (e) => errors.push(String(e)));
      await consoleLogin(page, server.url, "dealer_e2e", "Passw0rd11");
      await hydrated(page, `${server.url}/settingMessages`);
      await page.waitForSelector(".msg-list li.unread");
      const text = await page.locator(".msg-list li.unread").first().innerText();
      assert.match(text, /Device allocation/);
      assert.match(text, new RegExp(`Devices allocated to your account by admin \\(1\\): ${IMEI}`));
      assert.equal(
        await page.locator(".msg-list li.unread a >> text=Show on map").getAttribute("href"),
        `/monitorObject?imei=${IMEI}`,
      );
      await page.selectOption("select[name=balanceReminder]", "daily");
      await page.waitForSelector(".toast >> text=Saved");
      const dealerApi = await ApiClient.login(server.url, "dealer_e2e", "Passw0rd11");
      assert.equal(
        (await dealerApi.call("/v3/new/message/prefs/get", {})).balanceReminder,
        "daily",
      );
      await page.screenshot({ path: `${SHOTS}message_center.png` });
      await page.click(".msg-list li.unread button >> text=Mark read");
      await page.waitForSelector(".msg-list li:not(.unread)");
      assert.equal(await page.locator(".msg-list li.unread").count(), 0);

      assert.deepEqual(errors, []);
    });
  },
});
