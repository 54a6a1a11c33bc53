/**
 * End to end in Chromium against a real server process with simulated GT06 trackers on real
 * TCP connections: a batch command from /batchCommand reaches every device and every row
 * turns "succeeded"; an offline command waits as "to be sent" and is delivered when its
 * device connects. Screenshots of the pages go to tests/screenshots/.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { launchBrowser } from "../helpers/browser.ts";
import { startServer } from "../helpers/server.ts";
import { PlatformApi } from "../../modules/simulator/api.ts";
import { Simulator } from "../../modules/simulator/simulator.ts";

const SHOTS = new URL("../screenshots/", import.meta.url).pathname;
const ADMIN_PASSWORD = "Admin12345";
const ONLINE = 6;

async function gatewayPort(output: () => string): Promise<number> {
  for (let i = 0; i < 200; i++) {
    const m = output().match(/Device gateway: GT06 (\d+)/);
    if (m) return Number(m[1]);
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("no gateway ports in the server log");
}

async function open(page: Page, url: string) {
  await page.goto(url);
  await page.waitForSelector("html[data-islands='hydrated']");
  const notes = page.locator(".modal .modal-foot .btn-primary");
  if (await notes.count()) await notes.first().click();
}

Deno.test({
  name:
    "e2e: batch command to simulated devices succeeds row by row; offline command waits for its device",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const server = await startServer({ ADMIN_PASSWORD });
    const browser = await launchBrowser();
    const port = await gatewayPort(server.output);
    const fleet = new Simulator({
      protocol: "gt06",
      devices: ONLINE,
      port,
      imeiPrefix: "86300000",
      intervalSeconds: 30,
      alarmScale: 0,
      reconnectsPerHour: 0,
    });
    const late = new Simulator({
      protocol: "gt06",
      devices: 1,
      port,
      imeiPrefix: "86300001",
      intervalSeconds: 30,
      alarmScale: 0,
      reconnectsPerHour: 0,
    });
    try {
      const api = await PlatformApi.login(server.url, "admin", ADMIN_PASSWORD);
      const userId = await api.currentUserId();
      await api.importDevices(userId, "JM-VL01", [...fleet.imeis, ...late.imeis]);
      fleet.start();
      // Online once the gateway has stored a report from each device.
      for (let i = 0; i < 200; i++) {
        const { list } = await api.listDevices({ status: 1 });
        const seen = await api.listDevices({});
        const online = seen.list.filter((d) => d.hbTime && fleet.imeis.includes(d.imei));
        if (online.length === ONLINE || list.length >= ONLINE) break;
        await new Promise((r) => setTimeout(r, 100));
      }

      const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
      page.on("pageerror", (e) => console.error("page error:", e.message));
      await page.goto(`${server.url}/login`);
      await page.waitForSelector("html[data-islands='hydrated']");
      await page.fill("input[name=account]", "admin");
      await page.fill("input[name=password]", ADMIN_PASSWORD);
      await page.click("#login-submit");
      await page.waitForURL(/\/monitorObject$/, { timeout: 15_000 });

      // Batch: pick the six online devices from the tree's device list, send "Locate now".
      await open(page, `${server.url}/batchCommand`);
      await page.waitForSelector(".cmd-devices tbody tr td.mono");
      await page.screenshot({ path: `${SHOTS}commands-batch-empty.png`, fullPage: true });
      for (const imei of fleet.imeis) await page.check(`.cmd-devices input[aria-label="${imei}"]`);
      assert.match(await page.textContent("[data-testid=chosen-count]") ?? "", /6/);
      await page.selectOption("select[name=instruction]", "locate");
      await page.click(".cmd-form button[type=submit]");
      await page.waitForSelector(".cmd-progress tbody tr");
      await page.waitForFunction(
        (n) => {
          const rows = [...document.querySelectorAll(".cmd-progress tbody tr")];
          return rows.length === n &&
            rows.every((r) =>
              r.querySelector("[data-status]")?.getAttribute("data-status") === "succeeded"
            );
        },
        ONLINE,
        { timeout: 20_000 },
      );
      const replies = await page.locator(".cmd-progress tbody td.cmd-reply").allTextContents();
      assert.ok(replies.every((r) => r.startsWith("Current position!")), replies.join(" | "));
      await page.screenshot({ path: `${SHOTS}commands-batch.png`, fullPage: true });

      // Offline: the late device has never connected; paste its IMEI and send offline.
      await page.click(".cmd-tabs button:has-text('Paste IMEIs')");
      await page.click(".cmd-chosen .link-btn");
      await page.fill("textarea[name=imeis]", late.imeis[0]);
      await page.click(".cmd-paste .btn");
      await page.selectOption("select[name=instruction]", "reportInterval");
      await page.fill("input[name=seconds]", "5");
      await page.check("input[name=sendType][value=offline]");
      await page.click(".cmd-form button[type=submit]");
      assert.match(await page.textContent(".field-error") ?? "", /10/, "below the minimum");
      await page.fill("input[name=seconds]", "60");
      await page.click(".cmd-form button[type=submit]");
      await page.waitForSelector(
        `.cmd-progress tr[data-imei="${late.imeis[0]}"] [data-status=toBeSent]`,
      );

      await open(page, `${server.url}/commandStatus`);
      await page.waitForSelector(`tr[data-imei="${late.imeis[0]}"][data-status=toBeSent]`);
      await page.screenshot({ path: `${SHOTS}commands-status-pending.png`, fullPage: true });
      late.start();
      // The status page keeps polling while a row is moving; the reconnect delivers it.
      await page.waitForSelector(`tr[data-imei="${late.imeis[0]}"][data-status=succeeded]`, {
        timeout: 20_000,
      });
      const phases = await page.locator(`tr[data-imei="${late.imeis[0]}"] .cmd-phases li`)
        .allTextContents();
      assert.deepEqual(phases, ["To be sent", "Sending", "Succeeded"]);
      assert.equal(await page.locator("tr[data-status=succeeded]").count(), ONLINE + 1);
      await page.screenshot({ path: `${SHOTS}commands-status.png`, fullPage: true });
    } finally {
      await fleet.stop();
      await late.stop();
      await browser.close();
      await server.stop();
    }
  },
});
