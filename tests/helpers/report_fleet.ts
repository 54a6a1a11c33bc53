/**
 * The report tests' fleet on a real server: two sibling accounts (distA, distB), a virtual
 * account of distA, an account of distA without viewReportFlag, and devices reporting a
 * crafted day through the GT06 port — park, idle, drive 12.5 km with a 120 km/h streak, idle,
 * park inside a fence, an SOS; a second device parked with a vibration alarm.
 */
import assert from "node:assert/strict";
import { ApiClient } from "./api_client.ts";
import { devicePorts } from "./gateway.ts";
import { RawDevice } from "./raw_device.ts";
import type { ServerProcess } from "./server.ts";
import { type DeviceFix, sampleFix } from "../../modules/simulator/fix.ts";
import {
  gt06Alarm,
  gt06Heartbeat,
  gt06Location,
  gt06Login,
} from "../../modules/simulator/devices/gt06.ts";

export const PASSWORD = "Passw0rd1";
export const DEV1 = "359710041000011";
export const DEV2 = "359710041000029";
export const DEV_B = "359710041000037";

const MIN = 60_000;
/** Metres per degree of latitude. */
const M_PER_DEG = 111_320;

export const P0 = { lat: 22.54, lng: 114.05 };
/** Where DEV2 parks. */
export const P2 = { lat: 22.6, lng: 114.1 };

/**
 * The crafted day's start: three hours ago on a whole minute, moved earlier when the 40
 * minutes would cross a UTC midnight (the mileage test expects one day).
 */
export function trackBase(now = Date.now()): number {
  let base = Math.floor((now - 3 * 60 * MIN) / MIN) * MIN;
  const day = (t: number) => Math.floor(t / 86_400_000);
  if (day(base) !== day(base + 40 * MIN)) base = day(base + 40 * MIN) * 86_400_000 - 50 * MIN;
  return base;
}

export interface Fleet {
  base: number;
  /** Where DEV1's drive ends (it parks there, inside the fence). */
  p1: { lat: number; lng: number };
  ids: { distA: string; distB: string };
  api: {
    admin: ApiClient;
    distA: ApiClient;
    distB: ApiClient;
    virtualA: ApiClient;
    noReports: ApiClient;
  };
}

async function addAccount(admin: ApiClient, body: Record<string, unknown>): Promise<string> {
  const r = await admin.call("/v3/new/account/add", {
    nickName: body.account,
    password: PASSWORD,
    ...body,
  });
  return r.id;
}

/** Accounts, devices, a fence around the drive's end; then the devices report. */
export async function buildFleet(server: ServerProcess, adminPassword: string): Promise<Fleet> {
  const admin = await ApiClient.login(server.url, "admin", adminPassword);
  const me = await admin.call("/v3/new/account/current");
  const distA = await addAccount(admin, {
    account: "repDistA",
    accountType: 8,
    parentId: me.userId,
  });
  const distB = await addAccount(admin, {
    account: "repDistB",
    accountType: 8,
    parentId: me.userId,
  });
  await addAccount(admin, {
    account: "repNoReports",
    accountType: 9,
    parentId: distA,
    permissions: { viewReportFlag: 0 },
  });
  for (const [userId, imeis] of [[distA, [DEV1, DEV2]], [distB, [DEV_B]]] as const) {
    const r = await admin.call("/v3/new/newEquipment/importEquipment", {
      userId,
      mcType: "GT06N",
      imeis,
    });
    assert.equal(r.succeeded, imeis.length, JSON.stringify(r));
  }
  const apiA = await ApiClient.login(server.url, "repDistA", PASSWORD);
  await apiA.call("/v3/new/account/virtual/add", {
    account: "repVirtA",
    nickName: "repVirtA",
    password: PASSWORD,
    scope: { instructionsFlag: 0, updateFlag: 0, videoFlag: 0 },
  });
  const base = trackBase();
  const drive = driveTrack(base);
  await apiA.call("/v3/new/geofence/save", {
    kind: "fence",
    name: "Depot",
    shape: { kind: "circle", center: drive.p1, radius: 300 },
    enterAlert: true,
    exitAlert: true,
    imeis: [DEV1],
  });
  const port = devicePorts(server).gt06;
  await report(port, DEV1, drive.frames);
  await report(port, DEV2, parkedTrack(base));
  await report(port, DEV_B, [{ fix: fixAt(base, P0, 0, false) }]);
  return {
    base,
    p1: drive.p1,
    ids: { distA, distB },
    api: {
      admin,
      distA: apiA,
      distB: await ApiClient.login(server.url, "repDistB", PASSWORD),
      virtualA: await ApiClient.login(server.url, "repVirtA", PASSWORD),
      noReports: await ApiClient.login(server.url, "repNoReports", PASSWORD),
    },
  };
}

interface Frame {
  fix: DeviceFix;
  alarm?: boolean;
}

function fixAt(
  time: number,
  at: { lat: number; lng: number },
  speedKmh: number,
  acc: boolean,
  odometerKm = 1000,
): DeviceFix {
  return sampleFix({
    time: new Date(time),
    latitude: at.lat,
    longitude: at.lng,
    speedKmh,
    course: 0,
    acc,
    odometerKm,
  });
}

/**
 * DEV1: parked (ACC off) 0-10 min, idling 10-12, driving north 12-22 (72 km/h, 120 km/h from
 * 15:20 to 15:50), idling 22-24, parked 24-32 with an SOS at 25.
 */
export function driveTrack(base: number): { frames: Frame[]; p1: { lat: number; lng: number } } {
  const frames: Frame[] = [];
  for (let k = 0; k < 20; k++) frames.push({ fix: fixAt(base + k * 30_000, P0, 0, false) });
  for (let k = 0; k <= 4; k++) {
    frames.push({ fix: fixAt(base + 10 * MIN + k * 30_000, P0, 0, true) });
  }
  let lat = P0.lat, odometer = 1000;
  for (let k = 1; k <= 60; k++) {
    const speed = k >= 20 && k <= 23 ? 120 : 72;
    const metres = (speed / 3.6) * 10;
    lat += metres / M_PER_DEG;
    odometer += metres / 1000;
    frames.push({
      fix: fixAt(base + 12 * MIN + k * 10_000, { lat, lng: P0.lng }, speed, true, odometer),
    });
  }
  const p1 = { lat, lng: P0.lng };
  for (let k = 1; k <= 20; k++) {
    const t = base + 22 * MIN + k * 30_000;
    frames.push({ fix: fixAt(t, p1, 0, k <= 4, odometer) });
    if (k === 6) {
      frames.push({
        fix: { ...fixAt(t + 1000, p1, 0, false, odometer), alarm: "sos" },
        alarm: true,
      });
    }
  }
  return { frames, p1 };
}

/** DEV2: parked with ACC off for ten minutes, a vibration alarm at five. */
function parkedTrack(base: number): Frame[] {
  const frames: Frame[] = [];
  for (let k = 0; k <= 10; k++) {
    frames.push({ fix: fixAt(base + k * MIN, P2, 0, false, 500) });
    if (k === 5) {
      frames.push({
        fix: { ...fixAt(base + k * MIN + 1000, P2, 0, false, 500), alarm: "vibration" },
        alarm: true,
      });
    }
  }
  return frames;
}

/** Logs the device in, sends its frames; the heartbeat's reply says everything is stored. */
async function report(port: number, imei: string, frames: Frame[]): Promise<void> {
  const d = await RawDevice.open(port);
  try {
    let serial = 1;
    await d.send(gt06Login(imei, serial++));
    await d.take(10);
    for (const f of frames) {
      if (f.alarm) {
        await d.send(gt06Alarm(f.fix, serial++));
        await d.take(10);
      } else await d.send(gt06Location(f.fix, serial++));
    }
    await d.send(gt06Heartbeat(frames[frames.length - 1].fix, serial++));
    await d.take(10);
  } finally {
    await d.done();
  }
}
