/**
 * `deno task bench:monitor` — the live map and playback in Chromium (Playwright) against a
 * real server process on loopback.
 *
 * 1. Starts the product on a fresh DATA_DIR, imports `--devices` GT06 devices (default
 *    10,000) plus one trip device, and uploads a `--track`-point trip (default 268,000, one
 *    fix per second) for it through the gateway.
 * 2. Starts the simulator: every device drives and reports over its own TCP connection every
 *    `--interval` seconds (default 1).
 * 3. Opens /monitorObject logged in: first full render = navigation start → every vehicle
 *    in the map source, the list drawn and the next frame the map drew. Done `--renders` times
 *    (default 5; the first in the logged-in page, the others in fresh browser contexts with its
 *    cookies, after step 4) and reported as the median: one render on a shared 2-core machine
 *    varies by ±30 %. Each render also says how long the objects answer kept the page waiting
 *    (server) and how long the page's own work took, so a slower server and a slower page are
 *    told apart.
 * 4. Sustained live updates for `--measure` seconds (whole fleet in view), then half as long
 *    zoomed in to zoom 16 on one vehicle (individual icons): requestAnimationFrame deltas in the
 *    page (p50/p95/max frame time) and the positions the page applied per second.
 * 5. Stops the simulator, then /monitorPlayback of the trip `--draws` times (default 3, each in a
 *    freshly loaded page): request → data, and data → the frame with the track drawn (median).
 *
 * The simulator, the server and Chromium share the machine's cores; the bench says so.
 */
import { launchBrowser } from "../helpers/browser.ts";
import { startServer } from "../helpers/server.ts";
import { MODEL_FOR, PlatformApi } from "../../modules/simulator/api.ts";
import { Simulator } from "../../modules/simulator/simulator.ts";
import type { Page } from "playwright-core";
import { gatewayPorts, login, sendHistoryOsmAnd, type WithHook } from "../e2e/monitor_fixture.ts";

const OPTIONS = {
  devices: 10_000,
  interval: 1,
  track: 268_000,
  measure: 10,
  settle: 20,
  renders: 5,
  draws: 3,
};

function parse(args: string[]) {
  const out = { ...OPTIONS };
  for (let i = 0; i < args.length; i += 2) {
    const k = args[i].replace(/^--/, "") as keyof typeof OPTIONS;
    if (!(k in OPTIONS)) throw new Error(`unknown option ${args[i]}`);
    out[k] = Number(args[i + 1]);
  }
  return out;
}

const opts = parse(Deno.args);
const ADMIN_PASSWORD = "Admin12345";
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};
const log = (...a: unknown[]) => console.log(`[${new Date().toISOString().slice(11, 19)}]`, ...a);
const median = (xs: number[]) => pct(xs, 50);
const spread = (xs: number[]) =>
  `median ${median(xs).toFixed(0)} ms (${Math.min(...xs).toFixed(0)}-${
    Math.max(...xs).toFixed(0)
  }, ${xs.length} runs)`;

/** One first render's timeline (ms from navigation start unless said). */
interface FirstRender {
  firstRender: number;
  drawn: number;
  html: number;
  dom: number;
  /** The objects request (the page's mark) → its answer parsed. */
  request: number;
  /** Of the objects answer: request sent → first byte (the server's share). */
  serverWait: number;
  /** The answer → the frame with every vehicle drawn. */
  answerToDrawn: number;
}

/** Opens /monitorObject in `page` and waits for the first frame with every vehicle. */
async function firstRenderOf(page: Page, url: string): Promise<FirstRender> {
  await page.goto("about:blank");
  await page.goto(`${url}/monitorObject`);
  // Navigation start → the first frame drawn with every vehicle the answer had (the page
  // marks it), the list rendered.
  return await page.evaluate(() =>
    new Promise<FirstRender>((resolve, reject) => {
      const give = Date.now() + 180_000;
      const check = () => {
        if (Date.now() > give) {
          const shown = document.querySelector(".mon-side")?.textContent?.slice(0, 200);
          return reject(new Error(`no first render after 180 s; the list says: ${shown}`));
        }
        const m = performance.getEntriesByName("tp:objects:drawn")[0];
        const w = (globalThis as WithHook).__tpMonitor!;
        if (!m || !document.querySelector(".mon-row") || !w) return void setTimeout(check, 20);
        const measure = (name: string) => performance.getEntriesByName(name)[0]?.duration ?? NaN;
        const n = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
        const answer = (performance.getEntriesByType("resource") as PerformanceResourceTiming[])
          .find((e) => e.name.includes("/v3/new/monitor/objects"));
        resolve({
          firstRender: m.startTime + m.duration,
          drawn: w.layers.count(),
          html: n.responseEnd,
          dom: n.domContentLoadedEventEnd,
          request: measure("tp:objects:data"),
          serverWait: answer ? answer.responseStart - answer.startTime : NaN,
          answerToDrawn: m.duration - measure("tp:objects:data"),
        });
      };
      check();
    })
  );
}

function logRender(r: FirstRender, i: number) {
  log(
    `first full render ${i + 1}: ${r.firstRender.toFixed(0)} ms (navigation start → first frame ` +
      `with ${r.drawn} vehicles, list drawn); HTML ${r.html.toFixed(0)} ms, DOM ready ${
        r.dom.toFixed(0)
      } ms, objects request ${r.request.toFixed(0)} ms (server's first byte after ${
        r.serverWait.toFixed(0)
      } ms), answer → vehicles drawn ${r.answerToDrawn.toFixed(0)} ms`,
  );
}

const server = await startServer({ ADMIN_PASSWORD });
let sim: Simulator | null = null;
const browser = await launchBrowser();
try {
  for (let i = 0; i < 100 && !/Device gateway:/.test(server.output()); i++) {
    await new Promise((r) => setTimeout(r, 100));
  }
  const ports = gatewayPorts(server.output());
  const api = await PlatformApi.login(server.url, "admin", ADMIN_PASSWORD);
  const userId = await api.currentUserId();
  sim = new Simulator({
    protocol: "gt06",
    devices: opts.devices,
    port: ports.gt06,
    intervalSeconds: opts.interval,
    imeiPrefix: "86300000",
    alarmScale: 0,
    reconnectsPerHour: 0,
  });
  const trip = "863999999999995";
  await api.importDevices(userId, MODEL_FOR.gt06, sim.imeis);
  await api.importDevices(userId, MODEL_FOR.osmand, [trip]);
  log(`imported ${opts.devices + 1} devices`);

  const tripEnd = Date.now() - 60_000;
  const tripStart = tripEnd - (opts.track - 1) * 1000;
  let t0 = performance.now();
  const sent = await sendHistoryOsmAnd(ports.osmand, trip, tripStart, tripEnd);
  log(
    `trip: ${sent} fixes sent over the OsmAnd port (JSON batches of 100) in ${
      ((performance.now() - t0) / 1000).toFixed(1)
    } s`,
  );

  // Log in before the load starts (the session cookie is all the page needs later).
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  page.on("pageerror", (e) => log(`page error: ${e.message}`));
  await login(page, server.url, "admin", ADMIN_PASSWORD);
  await page.goto("about:blank");
  sim.start();
  log(`simulator: ${opts.devices} devices every ${opts.interval} s; settling ${opts.settle} s`);
  const settleEnd = Date.now() + opts.settle * 1000;
  while (
    Date.now() < settleEnd ||
    (sim.stats.connected < opts.devices * 0.99 && Date.now() < settleEnd + 60_000)
  ) {
    await new Promise((r) => setTimeout(r, 500));
  }
  await new Promise((r) => setTimeout(r, 3000)); // every device reported at least once
  log(`connected ${sim.stats.connected}, frames sent ${sim.stats.framesSent}`);

  // 3. First full render (the first of --renders; the others after the live measurement).
  const renders = [await firstRenderOf(page, server.url)];
  logRender(renders[0], 0);

  // 4. Sustained live updates: frame times and applied positions, first with the whole
  // fleet in view (fitted), then zoomed in on one vehicle (individual icons).
  const measureLive = async (label: string, seconds: number) => {
    const live = await page.evaluate(
      (seconds) =>
        new Promise<{ frames: number[]; moved: number; draws: number[]; zoom: number }>(
          (resolve) => {
            const m = (globalThis as WithHook).__tpMonitor!;
            const applied0 = m.layers.applied, draws0 = m.layers.drawTimes.length;
            const frames: number[] = [];
            let last = performance.now();
            const end = last + seconds * 1000;
            const tick = (now: number) => {
              frames.push(now - last);
              last = now;
              if (now < end) requestAnimationFrame(tick);
              else {
                resolve({
                  frames,
                  moved: m.layers.applied - applied0,
                  draws: m.layers.drawTimes.slice(draws0),
                  zoom: m.base.map.getView().getZoom() ?? 0,
                });
              }
            };
            requestAnimationFrame(tick);
          },
        ),
      seconds,
    );
    const f = live.frames.slice(1);
    log(
      `live ${label} (zoom ${live.zoom.toFixed(1)}) ${seconds} s: ${f.length} frames, frame time ` +
        `p50 ${pct(f, 50).toFixed(1)} ms, p95 ${pct(f, 95).toFixed(1)} ms, max ${
          Math.max(...f).toFixed(1)
        } ms; ${Math.round(live.moved / seconds)} vehicle moves/s applied; ` +
        `${live.draws.length} vehicle layer redraws, p50 ${pct(live.draws, 50).toFixed(1)} ms, ` +
        `max ${Math.max(...live.draws).toFixed(1)} ms; load average ${
          Deno.loadavg().map((x) => x.toFixed(1)).join(" ")
        }`,
    );
    return f;
  };
  const f = await measureLive("whole fleet", opts.measure);
  await page.screenshot({ path: "/tmp/monitor-bench-fleet.png" });
  await page.evaluate((imei) => {
    const m = (globalThis as WithHook).__tpMonitor!;
    m.base.map.getView().setCenter(m.layers.coordinateOf(imei));
    m.base.map.getView().setZoom(16);
  }, sim.imeis[0]);
  const zoomed = await measureLive("zoomed in", Math.max(5, opts.measure / 2));
  await page.screenshot({ path: "/tmp/monitor-bench-zoomed.png" });
  log("screenshots: /tmp/monitor-bench-fleet.png, /tmp/monitor-bench-zoomed.png");

  // 3 (again). More first renders, each in a fresh context (cold cache) with the session.
  const session = await page.context().storageState();
  for (let i = 1; i < opts.renders; i++) {
    const ctx = await browser.newContext({
      viewport: { width: 1440, height: 900 },
      storageState: session,
    });
    const p = await ctx.newPage();
    p.on("pageerror", (e) => log(`page error: ${e.message}`));
    renders.push(await firstRenderOf(p, server.url));
    logRender(renders[i], i);
    await ctx.close();
  }
  const firstRender = median(renders.map((r) => r.firstRender));
  log(
    `first full render: ${spread(renders.map((r) => r.firstRender))}; objects answer's ` +
      `server wait ${spread(renders.map((r) => r.serverWait))}; answer → vehicles drawn ${
        spread(renders.map((r) => r.answerToDrawn))
      }`,
  );

  // 5. Playback of the long trip, with the live load stopped (it measures the track alone).
  await sim.stop();
  sim = null;
  const fmt = (ms: number) => new Date(ms).toISOString().slice(0, 16);
  const draws: number[] = [];
  let points = 0;
  for (let i = 0; i < opts.draws; i++) {
    await page.goto(`${server.url}/monitorPlayback?imei=${trip}`);
    await page.waitForSelector("html[data-islands='hydrated']");
    await page.fill("input[name=from]", fmt(tripStart - 60_000));
    await page.fill("input[name=to]", fmt(tripEnd + 120_000));
    t0 = performance.now();
    await page.click("#playback-query");
    await page.waitForSelector("[data-points]", { timeout: 120_000 }).catch(async (e) => {
      const side = await page.locator(".mon-side").innerText().catch(() => "");
      throw new Error(`no track drawn: ${e.message}\nthe panel says: ${side.slice(0, 400)}`);
    });
    const measures = await page.evaluate(() =>
      new Promise<Record<string, number>>((resolve) => {
        const read = () => {
          const m = performance.getEntriesByType("measure");
          const draw = m.find((e) => e.name === "tp:track:draw");
          if (!draw) return setTimeout(read, 20);
          const out: Record<string, number> = {};
          for (const e of m) out[e.name] = e.duration;
          resolve(out);
        };
        read();
      })
    );
    points = Number(await page.getAttribute("[data-points]", "data-points"));
    const bytes = await page.evaluate(() =>
      (performance.getEntriesByType("resource") as PerformanceResourceTiming[])
        .filter((e) => e.name.includes("/monitor/playback")).at(-1)?.decodedBodySize ?? NaN
    );
    if (i === 0) log(`playback answer: ${(bytes / 1e6).toFixed(1)} MB (format=columns)`);
    log(
      `playback ${i + 1}, ${points} points: request → data ${
        measures["tp:query:data"]?.toFixed(0)
      } ms, data → arrays ${measures["tp:track:prepare"]?.toFixed(0)} ms, track drawn ${
        measures["tp:track:draw"]?.toFixed(0)
      } ms (setTrack → frame drawn); click → drawn ${(performance.now() - t0).toFixed(0)} ms wall`,
    );
    draws.push(measures["tp:track:draw"]);
  }
  log(`track drawn: ${spread(draws)}`);
  console.log(
    `\nRESULT devices=${opts.devices} interval=${opts.interval}s firstRender=${
      firstRender.toFixed(0)
    }ms frameP95=${pct(f, 95).toFixed(1)}ms frameP95Zoomed=${
      pct(zoomed, 95).toFixed(1)
    }ms trackPoints=${points} trackDraw=${
      median(draws).toFixed(0)
    }ms (medians of ${opts.renders} and ${opts.draws}; 2 cores shared by server, simulator and Chromium)`,
  );
} finally {
  await browser.close();
  await sim?.stop();
  await server.stop();
  await Deno.remove(server.dataDir, { recursive: true }).catch(() => {});
}
