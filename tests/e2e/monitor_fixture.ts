/**
 * A real server with simulated GT06 trackers driving around Shenzhen, for the monitor e2e
 * tests, screenshots and the benchmark.
 */
import type { Page } from "playwright-core";
import { type ServerProcess, startServer } from "../helpers/server.ts";
import { MODEL_FOR, PlatformApi } from "../../modules/simulator/api.ts";
import { Simulator } from "../../modules/simulator/simulator.ts";

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
  const m = /Device gateway: GT06 (\d+), JT\/T 808 (\d+), H02 (\d+) \(TCP\), OsmAnd (\d+)/.exec(
    log,
  );
  if (!m) throw new Error(`no gateway line in:\n${log}`);
  return { gt06: +m[1], jt808: +m[2], h02: +m[3], osmand: +m[4] };
}

export async function startFleet(
  devices: number,
  opts: { intervalSeconds?: number; imeiPrefix?: string; env?: Record<string, string> } = {},
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
    alarmScale: 0,
    reconnectsPerHour: 0,
  });
  const userId = await api.currentUserId();
  await api.importDevices(userId, MODEL_FOR.gt06, sim.imeis);
  sim.start();
  return {
    server,
    api,
    sim,
    gt06Port: ports.gt06,
    async stop() {
      await sim.stop();
      await server.stop();
    },
  };
}

export async function login(page: Page, base: string, account: string, password: string) {
  await page.goto(`${base}/login`);
  await page.waitForSelector("html[data-islands='hydrated']");
  await page.fill("input[name=account]", account);
  await page.fill("input[name=password]", password);
  await page.click("#login-submit");
  await page.waitForURL(/\/monitorObject/, { timeout: 15_000 });
  await page.waitForSelector("html[data-islands='hydrated']");
  const notes = page.locator(".modal .modal-foot .btn-primary");
  if (await notes.count()) await notes.first().click();
}
