/**
 * Shared steps of the gateway tests against a real server process: the device ports it
 * announced, devices imported through the API, a device's track, the gateway's counters
 * in /health, and a GT06 test track.
 */
import assert from "node:assert/strict";
import { ApiClient } from "./api_client.ts";
import { gt06Location } from "./gt06_frames.ts";
import type { ServerProcess } from "./server.ts";

/** The test track's first fix time: on a whole second (GT06 resolution), an hour ago. */
export const TRACK_BASE = Math.floor(Date.now() / 1000) * 1000 - 3_600_000;

/** The test track's `i`-th GT06 location, a second and about 11 m north of the one before. */
export const trackLocation = (i: number): Uint8Array =>
  gt06Location({
    time: new Date(TRACK_BASE + i * 1000),
    lat: 22.5 + i * 1e-4,
    lng: 114.05,
    speedKmh: 36,
    course: 90,
  }, 10 + i);

export interface DevicePorts {
  gt06: number;
  jt808: number;
  h02: number;
  osmand: number;
}

/** The device ports the server announced at start-up. */
export function devicePorts(server: ServerProcess): DevicePorts {
  const m = /GT06 (\d+), JT\/T 808 (\d+), H02 (\d+) \(TCP[^)]*\), OsmAnd (\d+)/.exec(
    server.output(),
  );
  assert.ok(m, server.output());
  return { gt06: +m[1], jt808: +m[2], h02: +m[3], osmand: +m[4] };
}

/** Logs the administrator in and imports `imeis` into its own account; all must succeed. */
export async function importDevices(
  server: ServerProcess,
  adminPassword: string,
  imeis: string[],
): Promise<ApiClient> {
  const api = await ApiClient.login(server.url, "admin", adminPassword);
  const me = await api.call("/v3/new/account/current");
  const imported = await api.call("/v3/new/newEquipment/importEquipment", {
    userId: me.userId,
    mcType: "GT06N",
    imeis,
  });
  assert.equal(imported.succeeded, imeis.length, JSON.stringify(imported));
  return api;
}

export interface TrackPoint {
  gpsTime: string;
  lat: number;
  lng: number;
  speed: number;
}

/** The device's track from 20 days before `around` to a day after. */
export async function playback(
  api: ApiClient,
  imei: string,
  around = Date.now(),
): Promise<TrackPoint[]> {
  return (await api.call("/v3/new/monitor/playback", {
    imei,
    startTime: new Date(around - 20 * 86_400_000).toISOString(),
    endTime: new Date(around + 86_400_000).toISOString(),
  })).points;
}

export interface GatewayCounters {
  connections: number;
  implausibleTimes: number;
}

/** The gateway's counters as GET /health reports them. */
export async function gatewayCounters(server: ServerProcess): Promise<GatewayCounters> {
  const health = await fetch(`${server.url}/health`).then((r) => r.json());
  return health.gateway;
}

/**
 * Waits until the server lists `n` identified device connections. After a test closes a
 * device, waiting for the server to have seen it close (rather than sleeping) makes the next
 * login of that IMEI a fresh one, not a second login refused by the takeover rule.
 */
export async function waitConnections(
  server: ServerProcess,
  n: number,
  timeoutMs = 5000,
): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const { connections } = await gatewayCounters(server);
    if (connections === n) return;
    if (Date.now() > end) {
      throw new Error(`the server lists ${connections} device connections, not ${n}`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}
