/**
 * End to end in Chromium against a real server process with simulated GT06 trackers on real
 * TCP connections: a batch command from /batchCommand reaches every device and every row
 * turns "succeeded"; an offline command waits as "to be sent" and is delivered when its
 * device connects; a batch whose custom text is a protected instruction asks for the login
 * password. Screenshots of the pages go to tests/screenshots/.
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
/** A GT06N that never connects: its model protects engine cut (DYD,…#) with the password. */
const PROTECTED_IMEI = "359710049710017";

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
      await api.importDevices(userId, "GT06N", [PROTECTED_IMEI]);
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
      // Only what the chosen devices' model accepts can be picked.
      await page.waitForSelector("select[name=instruction] option[value=armAlarm][disabled]", {
        state: "attached",
      });
      // The counts follow the choice once the last (debounced) acceptance request answered.
      await page.waitForFunction(
        () =>
          /\(6\/6\)/.test(
            document.querySelector("select[name=instruction] option[value=locate]")
              ?.textContent ?? "",
          ),
        undefined,
        { timeout: 10_000 },
      );
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
      // The filter bar: one IMEI, offline commands only.
      await page.fill(".cmd-filters input[name=imei]", late.imeis[0]);
      await page.selectOption(".cmd-filters select[name=sendType]", "offline");
      await page.click(".cmd-filters button[type=submit]");
      await page.waitForFunction(
        (imei) => {
          const rows = [...document.querySelectorAll("tr[data-imei]")];
          return rows.length > 0 && rows.every((r) => r.getAttribute("data-imei") === imei);
        },
        late.imeis[0],
      );
      await page.selectOption(".cmd-filters select[name=sendType]", "");
      await page.fill(".cmd-filters input[name=imei]", "");
      await page.click(".cmd-filters button[type=submit]");
      await page.waitForFunction(
        (n) => document.querySelectorAll("tr[data-status=succeeded]").length === n,
        ONLINE + 1,
      );

      // One device from the status page: only its model's instructions, live result.
      await page.locator(`tr[data-imei="${fleet.imeis[0]}"] .link-btn`).first().click();
      await page.waitForSelector(".modal select[name=instruction]");
      const offered = await page.locator(".modal select[name=instruction] option")
        .evaluateAll((o) => o.map((x) => (x as HTMLOptionElement).value));
      assert.ok(offered.includes("engineCut") && !offered.includes("armAlarm"), offered.join());
      await page.selectOption(".modal select[name=instruction]", "status");
      await page.click(".modal .modal-foot .btn-primary");
      await page.waitForSelector(".modal .cmd-recent tr[data-status=succeeded]");
      await page.screenshot({ path: `${SHOTS}commands-send-dialog.png` });
      await page.click(".modal .modal-foot .btn");

      // The same dialog from the device list's row action.
      await open(page, `${server.url}/devices`);
      await page.fill("#device-search", fleet.imeis[1]);
      const row = page.locator(`.devices-table tr[data-imei="${fleet.imeis[1]}"]`);
      await row.locator(".col-actions button:has-text('Command')").click();
      await page.waitForSelector(".modal select[name=instruction]");
      assert.match(await page.textContent(".modal") ?? "", new RegExp(fleet.imeis[1]));
      const fromList = await page.locator(".modal select[name=instruction] option")
        .evaluateAll((o) => o.map((x) => (x as HTMLOptionElement).value));
      assert.deepEqual(fromList, offered);
      await page.screenshot({ path: `${SHOTS}commands-send-from-devices.png` });
      await page.click(".modal .modal-foot .btn");

      // Command templates: required name, then saved and listed.
      await open(page, `${server.url}/commandTemplate`);
      await page.waitForSelector(".empty-row");
      await page.click(".toolbar .btn-primary");
      await page.selectOption(".modal select[name=instruction]", "reportInterval");
      await page.click(".modal .modal-foot .btn-primary");
      assert.equal(await page.textContent(".modal .field-error"), "Required");
      await page.fill(".modal input[name=name]", "Every minute");
      await page.fill(".modal input[name=seconds]", "60");
      await page.click(".modal .modal-foot .btn-primary");
      await page.waitForSelector("td.strong:has-text('Every minute')");
      await page.screenshot({ path: `${SHOTS}commands-templates.png`, fullPage: true });

      // Working-mode template: week mode needs a repeat day; only the last cycle unlimited.
      await open(page, `${server.url}/workingModeTemplate`);
      await page.click(".toolbar .btn-primary");
      await page.fill(".modal input[name=name]", "Office hours");
      await page.selectOption(".modal select[name=limitType0]", "hour");
      await page.fill(".modal input[name=limitValue0]", "2");
      await page.click(".modal button:has-text('Add cycle')");
      await page.selectOption(".modal select[name=mode1]", "week");
      await page.click(".modal .modal-foot .btn-primary");
      assert.equal(await page.textContent("[data-cycle='1'] .field-error"), "Required");
      await page.check(".modal input[name=day1-1]");
      await page.check(".modal input[name=day1-5]");
      await page.screenshot({ path: `${SHOTS}commands-workmode-editor.png` });
      await page.click(".modal .modal-foot .btn-primary");
      await page.waitForSelector("td.strong:has-text('Office hours')");
      await page.screenshot({ path: `${SHOTS}commands-workmode-templates.png`, fullPage: true });

      // Batch working mode to two online devices; the tasks start executing on their acks.
      await open(page, `${server.url}/batchWorkingMode`);
      await page.click(".cmd-tabs button:has-text('Paste IMEIs')");
      await page.fill("textarea[name=imeis]", fleet.imeis.slice(0, 2).join("\n"));
      await page.click(".cmd-paste .btn");
      await page.check("input[name=sendType] >> nth=0");
      await page.click(".cmd-form button[type=submit]");
      await page.waitForSelector(".cmd-batches tbody tr td.mono");
      await page.screenshot({ path: `${SHOTS}commands-batch-workmode.png`, fullPage: true });
      await page.click(".cmd-batches .link-btn");
      await page.waitForURL(/workingModeStatus\?batchNo=/);
      await page.waitForSelector("html[data-islands='hydrated']");
      await page.waitForFunction(
        () => {
          const rows = [...document.querySelectorAll("tr[data-imei] [data-status]")];
          return rows.length === 2 &&
            rows.every((r) => r.getAttribute("data-status") === "executing");
        },
        undefined,
        { timeout: 20_000 },
      ).catch(async () => {
        // Tasks move only on acknowledgements: reload once to read the new states.
        await page.reload();
        await page.waitForSelector("tr[data-imei] [data-status=executing]");
      });
      await page.screenshot({ path: `${SHOTS}commands-workmode-status.png`, fullPage: true });

      // Batch custom text that is a protected instruction on the device's model: refused
      // until the login password is given, in a field the refusal shows.
      await open(page, `${server.url}/batchCommand`);
      await page.click(".cmd-tabs button:has-text('Paste IMEIs')");
      await page.fill("textarea[name=imeis]", PROTECTED_IMEI);
      await page.click(".cmd-paste .btn");
      await page.selectOption("select[name=instruction]", "custom");
      await page.fill("input[name=text]", "DYD,000000#");
      await page.check("input[name=sendType][value=offline]");
      assert.equal(await page.locator(".cmd-form input[name=password]").count(), 0);
      await page.click(".cmd-form button[type=submit]");
      await page.waitForSelector(".cmd-form input[name=password]");
      assert.match(
        await page.textContent(".cmd-form .field-error") ?? "",
        /command password is incorrect/,
      );
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.locator(".cmd-form input[name=password]").scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}commands-batch-password.png` });
      await page.fill(".cmd-form input[name=password]", ADMIN_PASSWORD);
      await page.click(".cmd-form button[type=submit]");
      await page.waitForSelector(
        `.cmd-progress tr[data-imei="${PROTECTED_IMEI}"] [data-status=toBeSent]`,
      );
      // Sent: the password is cleared and the field goes away again.
      assert.equal(await page.locator(".cmd-form input[name=password]").count(), 0);
    } finally {
      await fleet.stop();
      await late.stop();
      await browser.close();
      await server.stop();
    }
  },
});
