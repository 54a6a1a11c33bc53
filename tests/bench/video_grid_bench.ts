/**
 * `deno run -A tests/bench/video_grid_bench.ts [--seconds 60] [--clip bench|test]`: the /live
 * page's 9-cell grid in Chromium for a while. Five simulated JT/T 808 dashcams stream (looped,
 * real time) over JT/T 1078 into a real server; the page opens nine channels through its device
 * list like a user, then every `<video>` is watched: stalls (`waiting` events after it first
 * played), how far its clock advanced, dropped frames, and the server's CPU share and RSS.
 * Needs the client build (`deno task build`).
 */
import { launchBrowser } from "../helpers/browser.ts";
import { formLogin } from "../helpers/e2e_pages.ts";
import { ready } from "../helpers/fleet.ts";
import { ApiClient } from "../helpers/api_client.ts";
import { freePort, startServer } from "../helpers/server.ts";
import { devicePorts } from "../helpers/gateway.ts";
import { Simulator } from "../../modules/simulator/simulator.ts";
import { streamClip } from "../../modules/simulator/video/streamer.ts";
import { benchClip, testClip } from "../../modules/simulator/video/clip.ts";

const flag = (name: string, fallback: string) => {
  const i = Deno.args.indexOf(`--${name}`);
  return i >= 0 && Deno.args[i + 1] !== undefined ? Deno.args[i + 1] : fallback;
};
const SECONDS = Number(flag("seconds", "60"));
const CLIP = flag("clip", "bench");
const PASSWORD = "Passw0rd11";
const ADMIN_PASSWORD = "Admin12345";

/** Server process CPU seconds and RSS from /proc (Linux). */
async function procStats(pid: number): Promise<{ cpu: number; rssMb: number }> {
  const stat = (await Deno.readTextFile(`/proc/${pid}/stat`)).split(") ")[1].split(" ");
  const ticks = Number(stat[11]) + Number(stat[12]);
  const rssPages = Number(stat[21]);
  return { cpu: ticks / 100, rssMb: (rssPages * 4096) / 1048576 };
}

/** The pid of the server listening on `port` (the deno child of startServer). */
async function serverPid(port: number): Promise<number | null> {
  const out = await new Deno.Command("ss", { args: ["-ltnpH", `sport = :${port}`] }).output();
  const m = /pid=(\d+)/.exec(new TextDecoder().decode(out.stdout));
  return m ? Number(m[1]) : null;
}

const server = await startServer({
  ADMIN_PASSWORD,
  JT1078_PORT: String(freePort()),
  JT_ATTACHMENT_PORT: String(freePort()),
  JT808_AUTH: "lenient",
});
const clip = CLIP === "test" ? await testClip() : await benchClip();
const sim = new Simulator({
  protocol: "jt808",
  devices: 5,
  port: devicePorts(server).jt808,
  intervalSeconds: 5,
  alarmScale: 0,
  reconnectsPerHour: 0,
  video: {
    streamer: async (o) => void await streamClip({ ...o, clip }),
    alarmEverySeconds: 0,
    picture: new Uint8Array(),
    channels: 2,
  },
});
const browser = await launchBrowser();
try {
  const admin = await ApiClient.login(server.url, "admin", ADMIN_PASSWORD);
  const me = await admin.call("/v3/new/account/current");
  const { id } = await admin.call("/v3/new/account/add", {
    account: "grid_bench",
    nickName: "Grid bench",
    password: PASSWORD,
    accountType: 9,
    parentId: me.userId,
  });
  await admin.call("/v3/new/newEquipment/importEquipment", {
    userId: id,
    mcType: "JC400",
    imeis: sim.imeis,
  });
  sim.start();
  await new Promise((r) => setTimeout(r, 4000)); // the terminals log in

  const page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } }))
    .newPage();
  await formLogin(page, server.url, "grid_bench", PASSWORD);
  await page.goto(`${server.url}/live`);
  await ready(page);
  await page.click('[data-grid="9"]');
  let opened = 0;
  for (const imei of sim.imeis) {
    await page.click(`.vd-device[data-imei="${imei}"]`);
    for (const ch of [1, 2]) {
      if (opened === 9) break;
      await page.click(`.vd-cam[data-channel="${ch}"]`);
      opened++;
    }
  }
  const t0 = Date.now();
  await page.waitForFunction(
    () => document.querySelectorAll("[data-testid=live-cell][data-state=playing]").length === 9,
    null,
    { timeout: 60_000 },
  );
  const allPlayingMs = Date.now() - t0;
  // From here on: stalls, clocks and dropped frames per cell.
  await page.evaluate(() => {
    const w = globalThis as unknown as { stalls: number[] };
    w.stalls = [];
    (w as unknown as { at: string[] }).at = [];
    document.querySelectorAll<HTMLVideoElement>("[data-testid=live-cell] video").forEach(
      (v, i) => {
        w.stalls[i] = 0;
        v.addEventListener("waiting", () => {
          w.stalls[i]++;
          (w as unknown as { at: string[] }).at.push(
            `${i}@${Math.round(performance.now() / 100) / 10}s t=${v.currentTime.toFixed(1)}`,
          );
        });
      },
    );
  });
  const sample = () =>
    page.$$eval("[data-testid=live-cell] video", (vs) =>
      vs.map((v) => {
        const q = (v as HTMLVideoElement).getVideoPlaybackQuality();
        return {
          t: (v as HTMLVideoElement).currentTime,
          dropped: q.droppedVideoFrames,
          total: q.totalVideoFrames,
        };
      }));
  const pid = await serverPid(server.port);
  const before = await sample();
  const cpu0 = pid ? await procStats(pid) : null;
  const start = performance.now();
  await page.waitForTimeout(SECONDS * 1000);
  const wall = (performance.now() - start) / 1000;
  const after = await sample();
  const cpu1 = pid ? await procStats(pid) : null;
  const stalls = await page.evaluate(() => (globalThis as unknown as { stalls: number[] }).stalls);
  const states = await page.$$eval(
    "[data-testid=live-cell]",
    (cs) => cs.map((c) => c.getAttribute("data-state")),
  );
  const stallsAt = await page.evaluate(() => (globalThis as unknown as { at: string[] }).at);
  const advance = after.map((a, i) => a.t - before[i].t);
  const dropped = after.reduce((n, a, i) => n + a.dropped - before[i].dropped, 0);
  const frames = after.reduce((n, a, i) => n + a.total - before[i].total, 0);
  console.log(JSON.stringify(
    {
      clip: CLIP,
      cells: states.length,
      allPlayingAfterMs: allPlayingMs,
      seconds: Math.round(wall),
      stillPlaying: states.filter((s) => s === "playing").length,
      stalls: stalls.reduce((a, b) => a + b, 0),
      stallsPerCell: stalls,
      /** cell@page-seconds t=the cell's clock, for each stall. */
      stallsAt,
      clockAdvanceMin: Math.min(...advance).toFixed(1),
      clockAdvanceMax: Math.max(...advance).toFixed(1),
      droppedFrames: dropped,
      decodedFrames: frames,
      serverCpuShare: cpu0 && cpu1 ? ((cpu1.cpu - cpu0.cpu) / wall).toFixed(3) : null,
      serverRssMb: cpu1 ? Math.round(cpu1.rssMb) : null,
    },
    null,
    2,
  ));
} finally {
  await sim.stop();
  await browser.close();
  await server.stop();
}
