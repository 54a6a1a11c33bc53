/**
 * Fleet route planning in Chromium: an enterprise plans a route on the map (start, via point,
 * end by clicks; a point dragged), binds its vehicle, saves, finds it in /fleetPath, opens it
 * again. Screenshots (laptop 1440x900, phone 390x844) go to tests/screenshots/.
 */
import assert from "node:assert/strict";
import { launchBrowser } from "../helpers/browser.ts";
import { formLogin, phoneContext } from "../helpers/e2e_pages.ts";
import { enterpriseWithDevices, ready } from "../helpers/fleet.ts";
import { startServer } from "../helpers/server.ts";

const ADMIN_PASSWORD = "Admin12345";
const PASSWORD = "Passw0rd11";
const IMEI = "359710049420001";
const SHOTS = new URL("../screenshots/", import.meta.url).pathname;

Deno.test({
  name: "e2e fleet routes: draw a route on the map, bind a vehicle, list and reopen it",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const server = await startServer({ ADMIN_PASSWORD });
    const browser = await launchBrowser();
    try {
      const { ent } = await enterpriseWithDevices(server.url, {
        adminPassword: ADMIN_PASSWORD,
        account: "fleet_e2e",
        password: PASSWORD,
        imeis: [IMEI],
      });

      const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(String(e)));
      await formLogin(page, server.url, "fleet_e2e", PASSWORD);
      await page.goto(`${server.url}/fleetPath`);
      await ready(page);
      await page.waitForSelector(".fp-empty");
      await page.click("#fp-add");
      await page.waitForURL(/\/addFleetPath$/);
      await ready(page);
      await page.waitForSelector("[data-testid=path-map] canvas");

      const box = (await page.locator("[data-testid=path-map]").boundingBox())!;
      const at = (
        dx: number,
        dy: number,
      ) => [box.x + box.width / 2 + dx, box.y + box.height / 2 + dy];
      for (const [x, y] of [at(-300, 120), at(-40, -60), at(280, -140)]) {
        await page.mouse.click(x, y);
        await page.waitForTimeout(300); // past the double-click window: three single clicks
      }
      await page.waitForSelector(".fp-point.end");
      assert.equal(await page.locator(".fp-point").count(), 3);
      // Drag the via point 80 px down.
      const [vx, vy] = at(-40, -60);
      await page.mouse.move(vx, vy);
      await page.mouse.down();
      await page.mouse.move(vx, vy + 40, { steps: 5 });
      await page.mouse.move(vx, vy + 80, { steps: 5 });
      await page.mouse.up();
      await page.waitForTimeout(300);
      assert.equal(await page.locator(".fp-point").count(), 3, "a drag adds no point");

      await page.fill(".fp-fields input[name=name]", "Harbour run");
      await page.fill(".fp-fields input[name=offset]", "300");
      await page.click(".fp-days button >> nth=6"); // Sunday off
      await page.locator("[data-testid=fence-devices] tbody input[type=checkbox]").first().check();
      await page.screenshot({ path: `${SHOTS}fleet-path-editor-laptop.png` });
      await page.click("#fp-save");
      await page.waitForURL(/\/fleetPath\?saved=1$/);
      await ready(page);
      await page.waitForSelector("[data-testid=route-card] >> text=Harbour run");

      const { list } = await ent.call("/v3/new/fleet/route/list", {});
      assert.equal(list.length, 1);
      const route = list[0];
      assert.equal(route.points.length, 3);
      assert.equal(route.offset, 300);
      assert.deepEqual(route.weekdays, [1, 2, 3, 4, 5, 6]);
      assert.deepEqual(route.imeis, [IMEI]);
      // The dragged via point lies south of where it was clicked: further from the start's row.
      assert.ok(route.points[1].lat < route.points[2].lat);
      await page.screenshot({ path: `${SHOTS}fleet-path-list-laptop.png` });

      const phone = await phoneContext(browser);
      const p = await phone.newPage();
      p.on("pageerror", (e) => errors.push(String(e)));
      await formLogin(p, server.url, "fleet_e2e", PASSWORD);
      await p.goto(`${server.url}/fleetPath`);
      await ready(p);
      await p.waitForSelector("[data-testid=route-card]");
      await p.screenshot({ path: `${SHOTS}fleet-path-list-phone.png`, fullPage: true });
      await p.click("[data-testid=route-card] a.btn");
      await p.waitForURL(/\/addFleetPath\?id=/);
      await ready(p);
      await p.waitForSelector(".fp-point.end");
      assert.equal(await p.inputValue(".fp-fields input[name=name]"), "Harbour run");
      await p.screenshot({ path: `${SHOTS}fleet-path-editor-phone.png` });
      await phone.close();
      assert.deepEqual(errors, []);
    } catch (e) {
      console.log(server.output().slice(-3000));
      throw e;
    } finally {
      await browser.close();
      await server.stop();
    }
  },
});
