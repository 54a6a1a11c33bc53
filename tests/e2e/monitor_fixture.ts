/**
 * A real server with simulated GT06 trackers driving around Shenzhen, for the monitor e2e
 * tests, screenshots and the benchmark.
 */
import type { Page } from "playwright-core";
import { formLogin } from "../helpers/e2e_pages.ts";
import { type ServerProcess, startServer } from "../helpers/server.ts";
import { MODEL_FOR, PlatformApi } from "../../modules/simulator/api.ts";
import { Simulator } from "../../modules/simulator/simulator.ts";
import { Vehicle } from "../../modules/simulator/vehicle.ts";
import { gt06Location, gt06Login } from "../helpers/gt06_frames.ts";
import { osmandJson } from "../../modules/simulator/devices/osmand.ts";
import type { DeviceFix } from "../../modules/simulator/fix.ts";
import { writeAll } from "../../lib/net/write_all.ts";

export const ADMIN_PASSWORD = "Admin12345";

export interface Fleet {
  server: ServerProcess;
  api: PlatformApi;
  sim: Simulator;
  gt06Port: number;
  stop(): Promise<void>;
}

/** The gateway ports from the server's start-up line. */
export function gatewayPorts(log: string): Record<string, number> {
  const m = /Device gateway: GT06 (\d+), JT\/T 808 (\d+), H02 (\d+) \(TCP[^)]*\), OsmAnd (\d+)/
    .exec(
      log,
    );
  if (!m) throw new Error(`no gateway line in:\n${log}`);
  return { gt06: +m[1], jt808: +m[2], h02: +m[3], osmand: +m[4] };
}

export async function startFleet(
  devices: number,
  opts: {
    intervalSeconds?: number;
    imeiPrefix?: string;
    alarmScale?: number;
    env?: Record<string, string>;
  } = {},
): Promise<Fleet> {
  const server = await startServer({ ADMIN_PASSWORD, ...opts.env });
  for (let i = 0; i < 100 && !/Device gateway:/.test(server.output()); i++) {
    await new Promise((r) => setTimeout(r, 100));
  }
  const ports = gatewayPorts(server.output());
  const api = await PlatformApi.login(server.url, "admin", ADMIN_PASSWORD);
  const sim = new Simulator({
    protocol: "gt06",
    devices,
    port: ports.gt06,
    intervalSeconds: opts.intervalSeconds ?? 1,
    imeiPrefix: opts.imeiPrefix ?? "86010000",
    alarmScale: opts.alarmScale ?? 0,
    reconnectsPerHour: 0,
  });
  const userId = await api.currentUserId();
  await api.importDevices(userId, MODEL_FOR.gt06, sim.imeis);
  sim.start();
  let stopped = false;
  return {
    server,
    api,
    sim,
    gt06Port: ports.gt06,
    async stop() {
      if (stopped) return;
      stopped = true;
      await sim.stop();
      await server.stop();
    },
  };
}

export async function login(page: Page, base: string, account: string, password: string) {
  await formLogin(page, base, account, password);
  await page.waitForSelector("html[data-islands='hydrated']");
  const notes = page.locator(".modal .modal-foot .btn-primary");
  if (await notes.count()) await notes.first().click();
}

/**
 * Drives a simulated vehicle over [start, end] and sends every fix (one per `stepMs`) to the
 * gateway as GT06 frames with their historic time: a realistic trip for playback tests.
 */
export async function sendHistory(
  port: number,
  imei: string,
  start: number,
  end: number,
  stepMs = 10_000,
  seed = 7,
  /** Resolves true once the platform has stored what was sent (the connection stays open until then). */
  stored?: (sent: number) => Promise<boolean>,
): Promise<number> {
  const vehicle = tripVehicle(seed, start);
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  const drain = (async () => {
    const buf = new Uint8Array(4096);
    try {
      while ((await conn.read(buf)) !== null) { /* acks */ }
    } catch { /* closed */ }
  })();
  const write = (bytes: Uint8Array) => writeAll(conn, bytes);
  await write(gt06Login(imei));
  await new Promise((r) => setTimeout(r, 200));
  let n = 0, serial = 2;
  const chunk: Uint8Array[] = [];
  for (let t = start; t <= end; t += stepMs) {
    const { fix } = vehicle.advance(t);
    chunk.push(gt06Location({
      time: new Date(t),
      lat: fix.latitude,
      lng: fix.longitude,
      speedKmh: fix.speedKmh,
      course: Math.round(fix.course),
    }, (serial++ % 0xfff0) + 2));
    n++;
    if (chunk.length >= 200) {
      const all = new Uint8Array(chunk.reduce((s, c) => s + c.length, 0));
      let o = 0;
      for (const c of chunk) {
        all.set(c, o);
        o += c.length;
      }
      await write(all);
      chunk.length = 0;
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  for (const c of chunk) await write(c);
  // The gateway stores frames in order after reading them; closing early would drop the tail.
  const deadline = Date.now() + 180_000;
  await new Promise((r) => setTimeout(r, 1500));
  while (stored && Date.now() < deadline && !(await stored(n))) {
    await new Promise((r) => setTimeout(r, 500));
  }
  conn.close();
  await drain;
  return n;
}

/** A `stored` check for sendHistory through the playback API. */
export function storedVia(api: PlatformApi, imei: string, from: number, to: number) {
  return async (sent: number) => {
    const r = await api.call<{ points: unknown[] }>("/v3/new/monitor/playback", {
      imei,
      startTime: new Date(from - 1000).toISOString(),
      endTime: new Date(to + 1000).toISOString(),
    });
    return r.points.length >= sent;
  };
}

/**
 * The same kind of trip uploaded as Traccar Client JSON batches (`batch` fixes per request)
 * to the OsmAnd port: the fast way to store hundreds of thousands of historic fixes (GT06
 * frames are stored one acknowledged frame at a time per connection). The device must be
 * imported with the OsmAnd model.
 */
export async function sendHistoryOsmAnd(
  port: number,
  imei: string,
  start: number,
  end: number,
  stepMs = 1000,
  batch = 100,
  seed = 7,
): Promise<number> {
  const vehicle = tripVehicle(seed, start);
  let n = 0;
  let fixes: DeviceFix[] = [];
  const post = async () => {
    const req = osmandJson(imei, fixes);
    const res = await fetch(`http://127.0.0.1:${port}${req.path}`, {
      method: req.method,
      headers: req.headers,
      body: req.body,
    });
    await res.body?.cancel();
    if (!res.ok) throw new Error(`OsmAnd upload refused: HTTP ${res.status}`);
    fixes = [];
  };
  for (let t = start; t <= end; t += stepMs) {
    fixes.push({ ...vehicle.advance(t).fix, time: new Date(t) });
    n++;
    if (fixes.length >= batch) await post();
  }
  if (fixes.length) await post();
  return n;
}

/** The simulated vehicle of a historic trip: no alarms or reconnects, a stop every ~15 min. */
function tripVehicle(seed: number, start: number): Vehicle {
  return new Vehicle({ seed, start, alarmScale: 0, reconnectsPerHour: 0, meanDriveSeconds: 900 });
}

/** What /monitorObject exposes on `globalThis.__tpMonitor` for tests and the benchmark. */
export interface MonitorHook {
  layers: {
    /** Vehicles with a position on the map. */
    count(): number;
    /** Vehicle moves applied to the map since the page opened. */
    applied: number;
    /** Durations of the vehicle layer's latest redraws, ms. */
    drawTimes: number[];
    coordinateOf(imei: string): number[] | undefined;
  };
  base: {
    map: {
      once(type: string, fn: () => void): void;
      render(): void;
      getView(): {
        getZoom(): number | undefined;
        setZoom(z: number): void;
        setCenter(c: number[] | undefined): void;
      };
    };
  };
  fleet: { current: { data: { imei: string[]; appType: number[]; appTypes: string[] } } | null };
}
export type WithHook = { __tpMonitor?: MonitorHook };
