/**
 * Issue 15 polish, in a real browser against a real server: the geofence editor opens on the
 * user's vehicles (not the spec's default centre ~1,000 km away), finds a city and a landmark and
 * binds devices picked from a list; the white-label page uploads a logo that the login page
 * then shows, and refuses a text file renamed .png. Screenshots at 1440×900 and 390×844 go to
 * tests/screenshots/.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import type { Browser, Page } from "playwright-core";
import { launchBrowser } from "../helpers/browser.ts";
import { formLogin, phoneContext } from "../helpers/e2e_pages.ts";
import { freePort, startServer } from "../helpers/server.ts";
import { ApiClient } from "../helpers/api_client.ts";
import { gt06Location, gt06Login } from "../helpers/gt06_frames.ts";
import { png } from "../../modules/domains/test_images.ts";

const SHOTS = new URL("../screenshots/", import.meta.url).pathname;
const ADMIN_PASSWORD = "Admin12345";
const LAPTOP = { width: 1440, height: 900 };
/** Three vehicles around Futian, Shenzhen (the spec's default centre is Chongqing). */
const FLEET = [
  { imei: "359710049500001", name: "Van 1", lat: 22.541, lng: 114.051 },
  { imei: "359710049500002", name: "Truck 2", lat: 22.548, lng: 114.066 },
  { imei: "359710049500003", name: "Car 3", lat: 22.533, lng: 114.04 },
];
const DEPOT = { lat: 22.5405, lng: 114.0552 };

interface LatLng {
  lat: number;
  lng: number;
}

/** One GT06 login and fix per vehicle on a raw socket. */
async function report(port: number, v: { imei: string; lat: number; lng: number }) {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  try {
    await conn.write(gt06Login(v.imei, 1));
    await conn.read(new Uint8Array(64));
    await conn.write(
      gt06Location({ time: new Date(), lat: v.lat, lng: v.lng, speedKmh: 0, course: 0 }, 2),
    );
    await new Promise((r) => setTimeout(r, 300));
  } finally {
    conn.close();
  }
}

async function hydrated(page: Page, url: string) {
  await page.goto(url);
  await page.waitForSelector("html[data-islands='hydrated']");
  const notes = page.locator(".modal .modal-foot .btn-primary");
  await notes.first().waitFor({ timeout: 1500 }).catch(() => {});
  if (await notes.count()) await notes.first().click();
}

/** A laptop-sized page logged in as the administrator on `path`, and its uncaught errors. */
async function adminPage(browser: Browser, base: string, path: string) {
  const page = await browser.newPage({ viewport: LAPTOP });
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await formLogin(page, base, "admin", ADMIN_PASSWORD);
  await hydrated(page, `${base}${path}`);
  return { page, errors };
}

const centreOf = (page: Page) =>
  page.evaluate(() =>
    (globalThis as unknown as { __tpFenceMap: { viewCenter(): LatLng } }).__tpFenceMap
      .viewCenter()
  );

/** Distance in degrees, good enough to tell Shenzhen from Chongqing. */
const near = (a: LatLng, b: LatLng, deg: number) =>
  Math.abs(a.lat - b.lat) < deg && Math.abs(a.lng - b.lng) < deg;

/** No page scrolls sideways. */
async function assertNoOverflow(page: Page, what: string) {
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(wide <= page.viewportSize()!.width + 1, `${what}: ${wide}px wide`);
}

async function withServer(
  body: (server: Awaited<ReturnType<typeof startServer>>, gt06: number) => Promise<void>,
) {
  const gt06 = freePort();
  const server = await startServer({ ADMIN_PASSWORD, GT06_PORT: String(gt06) });
  try {
    await body(server, gt06);
  } catch (e) {
    console.log(server.output().slice(-3000));
    throw e;
  } finally {
    await server.stop();
  }
}

Deno.test({
  name: "e2e geofences: opens on the fleet, finds a landmark, binds picked devices",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await withServer(async (server, gt06) => {
      const api = await ApiClient.login(server.url, "admin", ADMIN_PASSWORD);
      const me = await api.call("/v3/new/account/current");
      await api.call("/v3/new/newEquipment/importEquipment", {
        userId: me.userId,
        mcType: "GT06N",
        imeis: FLEET.map((v) => v.imei),
      });
      for (const v of FLEET) {
        await api.call("/v3/new/newEquipment/updateBasic", {
          imei: v.imei,
          deviceName: v.name,
          sim: "",
          iccid: "",
          imsi: "",
          sn: "",
          macAddress: "",
          reMark: "",
          applicationType: v.name.startsWith("Truck") ? "truck" : "car",
        });
        await report(gt06, v);
      }
      for (let i = 0; i < 50; i++) {
        const objects = await api.call("/v3/new/monitor/objects");
        if (objects.lat.filter((x: number | null) => x !== null).length === FLEET.length) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      await api.call("/v3/new/geofence/save", {
        kind: "landmark",
        name: "Depot Futian",
        shape: { kind: "circle", center: DEPOT, radius: 150 },
        color: "#f08c00",
      });

      const browser = await launchBrowser();
      try {
        const { page, errors } = await adminPage(browser, server.url, "/geofence");

        // Opens on the vehicles: three markers, the view around Futian, not Chongqing.
        await page.waitForSelector("#gf-vehicles .badge");
        assert.equal((await page.locator("#gf-vehicles .badge").innerText()).trim(), "3");
        await page.waitForTimeout(500);
        const opened = await centreOf(page);
        assert.ok(near(opened, { lat: 22.54, lng: 114.05 }, 0.05), JSON.stringify(opened));
        await page.screenshot({ path: `${SHOTS}geofence_fleet_1440.png` });

        // Place search: a named place from the embedded geocoder, with its region.
        await page.fill(".gf-place input", "Guangzhou");
        await page.waitForSelector(".gf-place-list li:has(.kind-place) >> text=Guangzhou");
        assert.match(await page.locator(".gf-place-list li").first().innerText(), /Place/);
        await page.screenshot({ path: `${SHOTS}geofence_place_city_1440.png` });
        await page.press(".gf-place input", "Enter");
        await page.waitForTimeout(600);
        assert.ok(near(await centreOf(page), { lat: 23.13, lng: 113.26 }, 0.2), "at Guangzhou");

        // The landmark by name comes first; Enter goes there.
        await page.fill(".gf-place input", "depot");
        await page.waitForSelector(".gf-place-list li.active >> text=Depot Futian");
        assert.match(await page.locator(".gf-place-list li").first().innerText(), /Landmark/);
        await page.screenshot({ path: `${SHOTS}geofence_place_search_1440.png` });
        await page.press(".gf-place input", "Enter");
        await page.waitForTimeout(600);
        assert.ok(near(await centreOf(page), DEPOT, 0.01), "centred on the depot");
        await page.fill(".gf-place input", "nowhere at all");
        await page.waitForSelector(".gf-place-list >> text=Nothing found");
        await page.press(".gf-place input", "Escape");

        // Draw a fence there; pick two devices from the list (search narrows it).
        const box = (await page.locator(".gf-map").boundingBox())!;
        const cx = box.x + box.width / 2, cy = box.y + box.height / 2 + 60;
        await page.click("#gf-draw-circle");
        await page.mouse.click(cx, cy);
        await page.mouse.move(cx + 40, cy, { steps: 4 });
        await page.mouse.click(cx + 90, cy);
        await page.waitForSelector("#zone-form [data-testid=fence-devices] tbody tr input");
        assert.equal(
          await page.locator("[data-testid=fence-devices] tbody tr input[name=imeis]").count(),
          3,
        );
        assert.match(
          await page.locator("[data-testid=fence-devices-count]").innerText(),
          /every device/,
        );
        await page.fill("[data-testid=fence-devices] input[type=search]", "Truck");
        await page.waitForFunction(() =>
          document.querySelectorAll("[data-testid=fence-devices] tbody tr input[name=imeis]")
            .length === 1
        );
        await page.check(`[data-testid=fence-devices] input[value="${FLEET[1].imei}"]`);
        await page.fill("[data-testid=fence-devices] input[type=search]", "");
        await page.waitForFunction(() =>
          document.querySelectorAll("[data-testid=fence-devices] tbody tr input[name=imeis]")
            .length === 3
        );
        await page.click(
          `[data-testid=fence-devices] tr:has(input[value="${FLEET[0].imei}"]) td:nth-child(2)`,
        );
        assert.match(
          await page.locator("[data-testid=fence-devices-count]").innerText(),
          /2 device/,
        );
        await page.fill("#zone-form input[name=name]", "Futian yard");
        // Drawn at the landmark's street-level zoom: set a fence-sized radius.
        await page.fill("#zone-form input[name=radius]", "500");
        await page.screenshot({ path: `${SHOTS}geofence_devices_1440.png` });
        await page.click(".modal .modal-foot .btn-primary");
        await page.waitForSelector("#zone-form", { state: "detached", timeout: 10_000 });
        const fence = (await api.call("/v3/new/geofence/list", { kind: "fence" })).list[0];
        assert.equal(fence.name, "Futian yard");
        assert.deepEqual([...fence.imeis].sort(), [FLEET[0].imei, FLEET[1].imei].sort());
        await page.waitForSelector(".gf-item >> text=Futian yard");
        await page.screenshot({ path: `${SHOTS}geofence_saved_1440.png` });
        assert.deepEqual(errors, []);

        // The phone: the map still opens on the fleet; the edit dialog's picker shows the two.
        const phone = await phoneContext(browser);
        const p = await phone.newPage();
        await formLogin(p, server.url, "admin", ADMIN_PASSWORD);
        await hydrated(p, `${server.url}/geofence`);
        await p.waitForSelector("#gf-vehicles .badge");
        await p.waitForTimeout(500);
        assert.ok(near(await centreOf(p), { lat: 22.54, lng: 114.05 }, 0.1));
        await assertNoOverflow(p, "geofence page");
        await p.locator(".gf-map-wrap").scrollIntoViewIfNeeded();
        await p.screenshot({ path: `${SHOTS}geofence_fleet_390.png` });
        await p.click(".gf-item >> text=Edit");
        await p.waitForSelector("[data-testid=fence-devices] tbody tr input:checked");
        assert.equal(
          await p.locator("[data-testid=fence-devices] tbody tr input[name=imeis]:checked").count(),
          2,
        );
        await p.screenshot({ path: `${SHOTS}geofence_devices_390.png` });
        await phone.close();
      } finally {
        await browser.close();
      }
    });
  },
});

Deno.test({
  name: "e2e white label: upload a logo, refuse a text file, the login page shows the logo",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await withServer(async (server) => {
      const browser = await launchBrowser();
      try {
        const { page, errors } = await adminPage(browser, server.url, "/addDomain");
        await page.fill("input[name=host]", "*");
        await page.fill("input[name=domainTitle]", "Fleet One");

        const logo = page.locator(".domain-image[data-field=domainLogin]");
        await logo.locator("input[type=file]").setInputFiles({
          name: "logo.jpg", // a PNG under another name: the content decides
          mimeType: "image/jpeg",
          buffer: Buffer.from(await png(160, 48, [31, 157, 85])),
        });
        await page.waitForFunction(() =>
          /^[0-9a-f]{32}\.png$/.test(
            (document.querySelector("input[name=domainLogin]") as HTMLInputElement).value,
          )
        );
        await page.waitForFunction(() =>
          ((document.querySelector(".domain-image[data-field=domainLogin] .domain-thumb img") as
            | HTMLImageElement
            | null)?.naturalWidth ?? 0) === 160
        );
        const bg = page.locator(".domain-image[data-field=attr1]");
        await bg.locator("input[type=file]").setInputFiles({
          name: "background.png",
          mimeType: "image/png",
          buffer: Buffer.from(await png(320, 180, [200, 220, 245])),
        });
        await page.waitForFunction(() =>
          (document.querySelector("input[name=attr1]") as HTMLInputElement).value.endsWith(".png")
        );
        const icon = page.locator(".domain-image[data-field=siteIcon]");
        await icon.locator("input[type=file]").setInputFiles({
          name: "favicon.png",
          mimeType: "image/png",
          buffer: Buffer.from("this is a text file, not an icon\n".repeat(3)),
        });
        await icon.locator(".field-error >> text=The file type is not accepted").waitFor();
        assert.equal(await page.inputValue("input[name=siteIcon]"), "");
        await page.locator("text=Login page and images").scrollIntoViewIfNeeded();
        await page.evaluate(() => scrollBy(0, 120));
        await page.screenshot({ path: `${SHOTS}domain_upload_1440.png` });
        await page.click("#domain-save");
        await page.waitForSelector("text=Configuration of * saved");

        // The public configuration gives the spec's full address; the login page shows it.
        const config = await (await fetch(`${server.url}/v3/new/domain/config`)).json();
        const path = await page.inputValue("input[name=domainLogin]");
        assert.equal(config.data.domainLogin, `${server.url}/tracker/domain/${path}`);
        const served = await fetch(config.data.domainLogin);
        assert.equal(served.headers.get("content-type"), "image/png");
        assert.equal(served.headers.get("x-content-type-options"), "nosniff");
        await served.body?.cancel();
        assert.deepEqual(errors, []);

        const phone = await phoneContext(browser);
        const p = await phone.newPage();
        await p.goto(`${server.url}/login`);
        await p.waitForSelector("html[data-islands='hydrated']");
        // The phone's brand line shows the uploaded logo (the art panel is hidden there).
        await p.waitForFunction(() =>
          (document.querySelector(".login-mobile-brand img") as HTMLImageElement | null)
            ?.naturalWidth === 160
        );
        await p.screenshot({ path: `${SHOTS}domain_login_390.png` });
        await formLogin(p, server.url, "admin", ADMIN_PASSWORD);
        await hydrated(p, `${server.url}/addDomain`);
        await p.click("button[data-action=edit]");
        await p.waitForSelector(".domain-image[data-field=domainLogin] .domain-thumb img");
        await assertNoOverflow(p, "white-label page");
        await p.locator(".domain-image[data-field=domainLogin]").scrollIntoViewIfNeeded();
        await p.screenshot({ path: `${SHOTS}domain_upload_390.png` });
        await phone.close();
      } finally {
        await browser.close();
      }
    });
  },
});
