/**
 * The video pages in Chromium (issue 20): a simulated JT/T 1078 dashcam (the simulator's
 * --video terminal) streams live into a /live cell whose `<video>` clock advances, a recording
 * from /historyVideo plays, the alarm's picture shows in the alert centre and /eventVideo, a
 * public link plays without login and says "live link expired" once revoked, and a user
 * without the video permission gets the spec's refusal and never starts a stream.
 * Screenshots of every page (laptop 1440x900, phone 390x844) go to $VIDEO_SHOTS
 * (default tests/screenshots/).
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { launchBrowser } from "../helpers/browser.ts";
import { formLogin, phoneContext } from "../helpers/e2e_pages.ts";
import { ready } from "../helpers/fleet.ts";
import { ApiClient } from "../helpers/api_client.ts";
import { freePort, startServer } from "../helpers/server.ts";
import { devicePorts } from "../helpers/gateway.ts";
import { Simulator } from "../../modules/simulator/simulator.ts";
import { streamClip } from "../../modules/simulator/video/streamer.ts";
import { testClip } from "../../modules/simulator/video/clip.ts";
import { CATALOGUE } from "../../lib/errors.ts";

const ADMIN_PASSWORD = "Admin12345";
const PASSWORD = "Passw0rd11";
const SHOTS = Deno.env.get("VIDEO_SHOTS") ??
  new URL("../screenshots/", import.meta.url).pathname;
const OTHER_IMEI = "359710049430018";
const PICTURE = new URL("../../modules/simulator/devices/alarm_picture.jpg", import.meta.url);

/** Polls `check` every 300 ms until it answers something truthy or `ms` pass. */
async function until<T>(what: string, check: () => Promise<T>, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await check().catch(() => undefined);
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

/** The `<video>` clock of the first element matching `selector`. */
const clock = (page: Page, selector: string) =>
  page.$eval(selector, (v) => (v as HTMLVideoElement).currentTime);

/** Waits until the player in `selector` plays; on a timeout says what it showed instead. */
async function playing(page: Page, selector: string, ms = 30_000) {
  try {
    await page.waitForSelector(`${selector}[data-state=playing]`, { timeout: ms });
  } catch (e) {
    const shown = await page.$eval(
      selector,
      (el) => `${el.getAttribute("data-state")}: ${el.textContent}`,
    )
      .catch(() => "nothing");
    throw new Error(`${selector} did not play (${shown}): ${(e as Error).message}`);
  }
}

async function shot(page: Page, name: string) {
  await Deno.mkdir(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/video_${name}.png`, fullPage: true });
}

Deno.test({
  name: "e2e video: live, history, alarm picture, public link, settings, every page on a phone",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const server = await startServer({
      ADMIN_PASSWORD,
      JT1078_PORT: String(freePort()),
      JT_ATTACHMENT_PORT: String(freePort()),
      JT808_AUTH: "lenient",
    });
    const browser = await launchBrowser();
    let sim: Simulator | null = null;
    try {
      const admin = await ApiClient.login(server.url, "admin", ADMIN_PASSWORD);
      const me = await admin.call("/v3/new/account/current");
      const { id: entId } = await admin.call("/v3/new/account/add", {
        account: "video_ent",
        nickName: "Dashcam Logistics",
        password: PASSWORD,
        accountType: 9,
        parentId: me.userId,
      });
      const clip = await testClip();
      sim = new Simulator({
        protocol: "jt808",
        devices: 1,
        port: devicePorts(server).jt808,
        intervalSeconds: 2,
        alarmScale: 0,
        reconnectsPerHour: 0,
        video: {
          streamer: async (o) => void await streamClip({ ...o, clip }),
          alarmEverySeconds: 20,
          picture: await Deno.readFile(PICTURE),
          channels: 2,
        },
      });
      const imei = sim.imeis[0];
      await admin.call("/v3/new/newEquipment/importEquipment", {
        userId: entId,
        mcType: "JC400",
        imeis: [imei],
      });
      sim.start();
      const ent = await ApiClient.login(server.url, "video_ent", PASSWORD);
      await until("the dashcam online", async () => {
        const d = await ent.call("/v3/new/monitor/objects");
        return d.statuses[d.status[0]] !== "offline" && d.statuses[d.status[0]] !== "inactive";
      });

      const laptop = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      const page = await laptop.newPage();
      await formLogin(page, server.url, "video_ent", PASSWORD);

      // Camera nicknames on /settings: CH 1 becomes "Front" and labels the live cell.
      await page.goto(`${server.url}/settings`);
      await ready(page);
      await page.click(`.vd-device[data-imei="${imei}"]`);
      await page.fill("input[name=nickname-1]", "Front");
      await page.click(".vd-cameras button[type=submit]");
      await until("the nickname stored", async () => {
        const { cameras } = await ent.call("/v3/new/video/cameras/get", { imei });
        return cameras.some((c: { nickname: string }) => c.nickname === "Front");
      }, 10_000);
      await shot(page, "settings_laptop");
      // The same nicknames in the device details' Cameras tab.
      await page.goto(`${server.url}/devices`);
      await ready(page);
      await page.locator(`tr[data-imei="${imei}"] .dev-name .link-btn`).click();
      await page.click("#tab-cameras");
      await page.waitForFunction(() =>
        (document.querySelector("input[name=nickname-1]") as HTMLInputElement)?.value === "Front"
      );
      await shot(page, "device_cameras_laptop");

      // Live: CH 1 plays and its clock advances.
      await page.goto(`${server.url}/live`);
      await ready(page);
      await page.click(`.vd-device[data-imei="${imei}"]`);
      await page.click('.vd-cam[data-channel="1"]');
      await playing(page, "[data-testid=live-cell]");
      assert.match(await page.textContent(".vd-cell-title") ?? "", /Front/);
      const t1 = await clock(page, "[data-testid=live-cell] video");
      await page.waitForTimeout(3000);
      const t2 = await clock(page, "[data-testid=live-cell] video");
      assert.ok(t2 > t1 + 1, `live currentTime advances (${t1} → ${t2})`);
      await shot(page, "live_laptop");

      // A public link plays without login, and says "live link expired" once revoked.
      const link = await ent.call("/v3/new/video/share/create", {
        imei,
        channel: 1,
        kind: "live",
        validHours: 1,
      });
      const visitor = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      const pub = await visitor.newPage();
      await pub.goto(server.url + link.url);
      await playing(pub, "[data-testid=live-cell]");
      await shot(pub, "open_live_laptop");
      await ent.call("/v3/new/video/share/revoke", { id: link.id });
      await pub.reload();
      await pub.waitForSelector("[data-testid=live-cell][data-state=linkExpired]");
      assert.match(await pub.textContent("[data-testid=live-cell]") ?? "", /Live link expired/);
      await visitor.close();

      // Closing the cell stops the stream.
      await page.click("[data-testid=live-cell] .vd-close");
      await page.waitForSelector("[data-testid=live-cell]", { state: "detached" });

      // History: today's recordings of CH 1; the first one plays.
      await page.goto(`${server.url}/historyVideo`);
      await ready(page);
      await page.click(`.vd-device[data-imei="${imei}"]`);
      await page.click("#history-search");
      await page.waitForSelector("[data-testid=history-file]", { timeout: 20_000 });
      await page.click("[data-testid=history-file] [data-action=play]");
      await playing(page, "[data-testid=history-player]");
      const h1 = await clock(page, "[data-testid=history-player] video");
      await page.waitForTimeout(2500);
      const h2 = await clock(page, "[data-testid=history-player] video");
      assert.ok(h2 > h1 + 0.5, `history currentTime advances (${h1} → ${h2})`);
      await shot(page, "history_laptop");
      // Pause and fast forward go to the terminal (0x9202) without a refusal.
      const controls = "[data-testid=history-player] .vd-player-controls";
      await page.click(`${controls} button >> text=Pause`);
      await page.waitForSelector("[data-testid=history-player][data-state=paused]");
      await page.click(`${controls} button >> text=Resume`);
      await page.selectOption(`${controls} select`, "4");
      await page.waitForTimeout(1000);
      assert.equal(await page.locator("[data-testid=history-player] .form-error").count(), 0);
      // Download the first recording as MP4: the list shows it downloading, then ready.
      await page.click("[data-testid=history-player] .vd-close");
      await page.locator("[data-testid=history-file]").first().getByRole("button", {
        name: "Download",
      }).click();
      await page.waitForSelector("[data-testid=download-row]");
      await page.waitForSelector("[data-testid=download-row][data-state=success]", {
        timeout: 60_000,
      });
      const href = await page.getAttribute("[data-testid=download-row] a[download]", "href");
      const mp4 = await page.request.get(server.url + href);
      assert.equal(mp4.headers()["content-type"], "video/mp4");
      assert.ok((await mp4.body()).length > 10_000, "the MP4 has the recording");
      await shot(page, "history_download_laptop");

      // An alarm with a picture attachment: its picture beside the alert, and on /eventVideo.
      const media = await until("the alarm's picture", async () => {
        const { list } = await ent.call("/v3/new/video/event/list", {
          startTime: new Date(Date.now() - 3_600_000).toISOString(),
          endTime: new Date(Date.now() + 60_000).toISOString(),
        });
        return list.find((m: { pictures: string[] }) => m.pictures.length > 0);
      }, 60_000);
      assert.ok(media.alertId);
      await page.goto(`${server.url}/alertCenter`);
      await ready(page);
      const img = await page.waitForSelector("[data-testid=alert-media] img");
      await page.waitForFunction((el) => (el as HTMLImageElement).naturalWidth > 0, img);
      await shot(page, "alert_centre_laptop");
      await page.click("[data-testid=alert-media]");
      await page.waitForSelector("[data-testid=viewer-picture]");
      await page.goto(`${server.url}/eventVideo`);
      await ready(page);
      await page.waitForSelector("[data-testid=event-media] img");
      await shot(page, "event_laptop");
      await page.goto(`${server.url}/superVideo2024`);
      await ready(page);
      await playing(page, "[data-testid=live-cell]");
      await shot(page, "wall_laptop");
      // In Chinese: the live page with its camera playing.
      await laptop.addCookies([{ name: "locale", value: "zh", url: server.url }]);
      await page.goto(`${server.url}/live?imei=${imei}`);
      await ready(page);
      await page.click('.vd-cam[data-channel="1"]');
      await playing(page, "[data-testid=live-cell]");
      assert.match(await page.textContent("[data-testid=live-state]") ?? "", /播放中/);
      await shot(page, "live_laptop_zh");
      await laptop.close();

      // Phone: every page, the grid in one column.
      const phone = await phoneContext(browser);
      const p = await phone.newPage();
      await formLogin(p, server.url, "video_ent", PASSWORD);
      const phoneLink = await ent.call("/v3/new/video/share/create", {
        imei,
        channel: 1,
        kind: "live",
        validHours: 1,
      });
      for (
        const path of ["/eventVideo", "/live", "/historyVideo", "/settings", "/superVideo2024"]
      ) {
        await p.goto(server.url + path);
        await ready(p);
        if (path === "/live") {
          await p.click(`.vd-device[data-imei="${imei}"]`);
          await p.click('.vd-cam[data-channel="1"]');
          await playing(p, "[data-testid=live-cell]");
          const cols = await p.$eval(".vd-grid", (g) => getComputedStyle(g).gridTemplateColumns);
          assert.equal(cols.split(" ").length, 1, "one column on a phone");
        }
        await shot(p, `${path.slice(1)}_phone`);
      }
      await p.goto(server.url + phoneLink.url);
      await playing(p, "[data-testid=live-cell]");
      await shot(p, "open_live_phone");
      await phone.close();
    } finally {
      await sim?.stop();
      await browser.close();
      await server.stop();
    }
  },
});

Deno.test({
  name: "e2e video: without the video permission the pages refuse and start no stream",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const server = await startServer({ ADMIN_PASSWORD });
    const browser = await launchBrowser();
    try {
      const admin = await ApiClient.login(server.url, "admin", ADMIN_PASSWORD);
      const me = await admin.call("/v3/new/account/current");
      const { id: deniedId } = await admin.call("/v3/new/account/add", {
        account: "video_none",
        nickName: "No Video",
        password: PASSWORD,
        accountType: 9,
        parentId: me.userId,
        permissions: { videoFlag: 0 },
      });
      await admin.call("/v3/new/newEquipment/importEquipment", {
        userId: deniedId,
        mcType: "JC400",
        imeis: [OTHER_IMEI],
      });
      const denied = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      // Without the video permission: the spec's refusal, no stream started, API refuses.
      const d = await denied.newPage();
      const asked: string[] = [];
      d.on("request", (r) => r.url().includes("/v3/new/video/") && asked.push(r.url()));
      await formLogin(d, server.url, "video_none", PASSWORD);
      for (const path of ["/live", "/historyVideo", "/eventVideo", "/superVideo2024"]) {
        const res = await d.goto(server.url + path);
        assert.equal(res?.status(), 403, path);
        assert.match(await d.textContent("[data-testid=video-denied]") ?? "", /superior/);
        await shot(d, `denied_${path.slice(1)}_laptop`);
      }
      assert.deepEqual(asked, [], "no video call from a page without the permission");
      // The video settings play nothing: open without the permission.
      assert.equal((await d.goto(`${server.url}/settings`))?.status(), 200);
      await d.waitForSelector("[data-testid=video-settings]");
      const none = await ApiClient.login(server.url, "video_none", PASSWORD);
      const refused = await none.raw("/v3/new/video/live/start", {
        imei: OTHER_IMEI,
        channel: 1,
        stream: "sub",
      });
      assert.equal(refused.code, CATALOGUE.permissionDenied);
      await denied.close();
    } finally {
      await browser.close();
      await server.stop();
    }
  },
});
