/**
 * The fleet section in Chromium (issue 19): an enterprise adds a driver and a vehicle through
 * the pages (the vehicle's chassis number fails the VIN check and is saved anyway), a device
 * of its drives today, and the data board charts the fleet. A distributor is shown the spec's
 * refusal and has no Fleet section. Screenshots (laptop 1440x900, phone 390x844) go to
 * tests/screenshots/.
 */
import assert from "node:assert/strict";
import { launchBrowser } from "../helpers/browser.ts";
import { formLogin, phoneContext } from "../helpers/e2e_pages.ts";
import { enterpriseWithDevices, ready } from "../helpers/fleet.ts";
import { devicePorts } from "../helpers/gateway.ts";
import { gt06Heartbeat, gt06Location, gt06Login } from "../helpers/gt06_frames.ts";
import { RawDevice } from "../helpers/raw_device.ts";
import { startServer } from "../helpers/server.ts";

const ADMIN_PASSWORD = "Admin12345";
const PASSWORD = "Passw0rd11";
const IMEI = "359710049430018";
const IMEI_2 = "359710049430026";
const SHOTS = new URL("../screenshots/", import.meta.url).pathname;
const DAY = 86_400_000;
const date = (days: number) => new Date(Date.now() + days * DAY).toISOString().slice(0, 10);

/** Ten minutes of driving north at about 40 km/h, today (UTC), through the GT06 port. */
async function driveToday(port: number, imei: string) {
  const d = await RawDevice.open(port);
  await d.send(gt06Login(imei, 1));
  await d.take(10);
  const start = Math.max(Date.now() - 20 * 60_000, Math.floor(Date.now() / DAY) * DAY + 60_000);
  for (let i = 0; i < 60; i++) {
    await d.send(gt06Location({
      time: new Date(Math.floor((start + i * 10_000) / 1000) * 1000),
      lat: 22.52 + i * 0.001,
      lng: 114.05,
      speedKmh: 40,
      course: 0,
    }, 2 + i));
  }
  await d.send(gt06Heartbeat(100));
  await d.take(10, 15_000); // the heartbeat is answered once everything before it is stored
  d.conn.close();
}

Deno.test({
  name: "e2e fleet: add a driver and a vehicle on the pages, see the data board",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const server = await startServer({ ADMIN_PASSWORD });
    const browser = await launchBrowser();
    try {
      const { admin, adminId, ent } = await enterpriseWithDevices(server.url, {
        adminPassword: ADMIN_PASSWORD,
        account: "fleet_board",
        password: PASSWORD,
        imeis: [IMEI, IMEI_2],
      });
      await admin.call("/v3/new/account/add", {
        account: "fleet_dist",
        nickName: "A distributor",
        password: PASSWORD,
        accountType: 8,
        parentId: adminId,
      });
      // The rest of the fleet, through the API: the board has something to chart.
      for (
        const [name, expiredDate] of [["Chen Jie", date(12)], ["Liu Yang", date(-3)], [
          "Zhao Min",
          date(400),
        ]]
      ) {
        await ent.call("/v3/new/fleet/driver/add", { name, expiredDate, phone: "+86-13900000000" });
      }
      await ent.call("/v3/new/fleet/vehicle/add", {
        plate: "粤B-20002",
        imei: IMEI_2,
        status: "using",
        brand: "Foton",
        insuranceExpire: date(20),
      });
      await ent.call("/v3/new/fleet/vehicle/add", {
        plate: "粤B-30003",
        status: "rentOut",
        brand: "JAC",
      });
      await ent.call("/v3/new/fleet/vehicle/add", {
        plate: "粤B-40004",
        status: "vacant",
        insuranceExpire: date(-10),
      });
      await driveToday(devicePorts(server).gt06, IMEI);
      await driveToday(devicePorts(server).gt06, IMEI_2);

      const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(String(e)));
      await formLogin(page, server.url, "fleet_board", PASSWORD);

      // A driver through the form: a too-long name is refused by the field, then saved.
      await page.goto(`${server.url}/fleet`);
      await page.waitForURL(/\/fleetIndex$/);
      await page.goto(`${server.url}/fleetDiver`);
      await ready(page);
      await page.click("#fl-add-driver");
      await page.fill(".fl-form input[name=name]", "Wang Fang");
      await page.fill(".fl-form input[name=phone]", "138 0000");
      await page.fill(".fl-form input[name=rfidCardNo]", "CARD-7788");
      await page.fill(".fl-form input[name=registerDate]", date(-365));
      await page.fill(".fl-form input[name=expiredDate]", date(700));
      await page.fill(".fl-form input[name=maxSpeed]", "100");
      await page.click("#fl-save-driver");
      await page.waitForSelector(".field.has-error .field-error");
      await page.fill(".fl-form input[name=phone]", "+86-13800000000");
      await page.screenshot({ path: `${SHOTS}fleet-driver-form-laptop.png` });
      await page.click("#fl-save-driver");
      await page.waitForSelector("[data-testid=driver-row] >> text=Wang Fang");
      assert.equal(await page.locator("[data-testid=driver-row]").count(), 4);
      await page.screenshot({ path: `${SHOTS}fleet-drivers-laptop.png` });

      // A vehicle: a chassis number with a wrong check digit warns; "save anyway" keeps it.
      await page.goto(`${server.url}/fleetVehicle`);
      await ready(page);
      await page.click("#fl-add-vehicle");
      await page.fill(".fl-form input[name=plate]", "粤B-10001");
      await page.fill(".fl-form input[name=imei]", IMEI);
      await page.selectOption(".fl-form select[name=status]", "using");
      await page.selectOption(".fl-form select[name=driverId]", { label: "Wang Fang" });
      await page.fill(".fl-form input[name=brand]", "Isuzu");
      await page.fill(".fl-form input[name=chassis]", "1M8GDM9A1KP042788");
      await page.fill(".fl-form input[name=insuranceEffective]", date(-100));
      await page.fill(".fl-form input[name=insuranceExpire]", date(265));
      await page.click("#fl-save-vehicle");
      await page.waitForSelector(".fl-warning");
      await page.screenshot({ path: `${SHOTS}fleet-vehicle-vin-laptop.png` });
      await page.click("#fl-save-anyway");
      await page.waitForSelector("[data-testid=vehicle-row] >> text=粤B-10001");
      const { list } = await ent.call("/v3/new/fleet/vehicle/list", { keyword: "粤B-10001" });
      assert.equal(list[0].chassis, "1M8GDM9A1KP042788");
      assert.equal(list[0].driverName, "Wang Fang");
      assert.equal(list[0].imei, IMEI);
      await page.screenshot({ path: `${SHOTS}fleet-vehicles-laptop.png` });
      const drivers = await ent.call("/v3/new/fleet/driver/list", { keyword: "Wang Fang" });
      assert.equal(drivers.list[0].vehiclePlate, "粤B-10001");

      // The board: four vehicles by status, the expiring dates, today's driving.
      await page.goto(`${server.url}/fleetIndex`);
      await ready(page);
      await page.waitForSelector("[data-testid=fleet-board]");
      const board = await ent.call("/v3/new/fleet/board", {});
      assert.deepEqual(board.byStatus, { using: 2, vacant: 1, rentOut: 1 });
      assert.equal(board.expiring.length, 4);
      assert.ok(
        board.today.some((v: { distanceKm: number }) => v.distanceKm > 3),
        JSON.stringify(board.today),
      );
      assert.equal(await page.locator(".fl-tile-value >> nth=0").textContent(), "4");
      await page.waitForSelector(".rp-hbars li");
      await page.screenshot({ path: `${SHOTS}fleet-board-laptop.png`, fullPage: true });

      await page.goto(`${server.url}/fleetRfid`);
      await ready(page);
      await page.screenshot({ path: `${SHOTS}fleet-rfid-laptop.png` });

      const phone = await phoneContext(browser);
      const p = await phone.newPage();
      p.on("pageerror", (e) => errors.push(String(e)));
      await formLogin(p, server.url, "fleet_board", PASSWORD);
      await p.goto(`${server.url}/fleetIndex`);
      await ready(p);
      await p.waitForSelector(".rp-hbars li");
      await p.screenshot({ path: `${SHOTS}fleet-board-phone.png`, fullPage: true });
      await p.goto(`${server.url}/fleetDiver`);
      await ready(p);
      await p.waitForSelector("[data-testid=driver-row]");
      await p.screenshot({ path: `${SHOTS}fleet-drivers-phone.png` });
      await phone.close();

      // A distributor: no Fleet section, and the page carries the spec's refusal.
      const dist = await browser.newPage({ viewport: { width: 1440, height: 900 } });
      await formLogin(dist, server.url, "fleet_dist", PASSWORD);
      await dist.goto(`${server.url}/fleetIndex`);
      await ready(dist);
      assert.match(await dist.textContent(".fl-denied") ?? "", /enterprise users/);
      assert.equal(await dist.locator("a[href='/fleetIndex']:not(.fl-tabs a)").count(), 0);
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
