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
import { testClip } from "../../modules/simulator/video/clip.ts";
import { streamClip } from "../../modules/simulator/video/streamer.ts";
import { decodeErrors, probe } from "../../modules/video/media/probe_test_helpers.ts";
import type { EventMediaRow, HistoryFile } from "../../modules/video/model.ts";
import { ApiClient } from "../helpers/api_client.ts";
import {
  downloadRecording,
  newestRecording,
  videoTerminalOnline,
} from "../helpers/video_terminal.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { freePort, type ServerProcess, startServer } from "../helpers/server.ts";

const ADMIN_PASSWORD = "Admin12345";
const PICTURE = await Deno.readFile(
  new URL("../../modules/simulator/devices/alarm_picture.jpg", import.meta.url),
);

async function jt808Port(output: () => string): Promise<number> {
  return await waitFor("the gateway ports in the server log", () => {
    const m = output().match(/Device gateway: .*JT\/T 808 (\d+)/);
    return Promise.resolve(m ? Number(m[1]) : null);
  }, 20_000);
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
  await videoTerminalOnline(admin, imei);
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
        }, 20_000);
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
        const alert = alerts.list.find((a: { id: string }) => a.id === row.alertId);
        assert.ok(alert, "the alert exists in the alert list");
        // The alert names what the camera saw (the alert centre shows it in words).
        assert.deepEqual(alert.detail, { safety: "adas:1" });
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

Deno.test({
  name: "video: live start → HLS playlist and segments → stop; history play; download → MP4",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async (t) => {
    let r: Rig | null = null;
    try {
      const clip = await testClip();
      r = await rig({
        alarmEverySeconds: 0,
        picture: PICTURE,
        channels: 2,
        streamer: (o) => streamClip({ ...o, clip }).then(() => {}),
      });
      const { admin, imei, server } = r;
      const auth = { authorization: `Bearer ${await token(server)}` };
      const get = (path: string) => fetch(`${server.url}${path}`, { headers: auth });
      await t.step("live start → the playlist and its segments are served → stop", async () => {
        const started = Date.now();
        const live = await admin.call("/v3/new/video/live/start", {
          imei,
          channel: 1,
          stream: "main",
        });
        assert.ok(Date.now() - started < 15_000);
        assert.equal(live.url, `/v3/new/video/hls/${imei}/1/live/index.m3u8`);
        assert.equal(live.codec, "h264");
        const playlist = await get(live.url);
        assert.equal(playlist.status, 200);
        assert.match(playlist.headers.get("content-type") ?? "", /mpegurl/);
        const text = await playlist.text();
        assert.match(text, /^#EXTM3U/);
        const base = live.url.slice(0, live.url.lastIndexOf("/") + 1);
        const map = /#EXT-X-MAP:URI="([^"]+)"/.exec(text);
        assert.ok(map, text);
        const init = await get(base + map[1]);
        assert.equal(init.status, 200);
        assert.ok((await init.arrayBuffer()).byteLength > 0);
        const segment = text.split("\n").find((l) => l && !l.startsWith("#"));
        assert.ok(segment, text);
        const seg = await get(base + segment);
        assert.equal(seg.status, 200);
        assert.ok((await seg.arrayBuffer()).byteLength > 1000);
        const metrics = await (await fetch(`${server.url}/metrics`)).text();
        assert.match(metrics, /tp_video_streams\{kind="live",connected="true"\} 1/);
        // A second start reuses the stream.
        const again = await admin.call("/v3/new/video/live/start", { imei, channel: 1 });
        assert.equal(again.url, live.url);
        await admin.call("/v3/new/video/live/stop", { imei, channel: 1 });
        const gone = await get(live.url);
        assert.equal(gone.status, 404);
        assert.equal((await gone.json()).code, CATALOGUE.videoFileNotFound);
      });
      const file = await newestRecording(admin, imei);
      await t.step("history play: the recording streams as its own HLS", async () => {
        const play = await admin.call("/v3/new/video/history/play", {
          imei,
          channel: 1,
          startTime: file.startTime,
          endTime: file.endTime,
        });
        assert.equal(play.url, `/v3/new/video/hls/${imei}/1/playback/index.m3u8`);
        const res = await get(play.url);
        assert.equal(res.status, 200);
        assert.match(await res.text(), /#EXTINF/);
        await admin.call("/v3/new/video/history/control", { imei, channel: 1, action: "stop" });
      });
      await t.step("download: downloading → success, the MP4 is served", async () => {
        const { started, done } = await downloadRecording(admin, admin, imei, file);
        assert.equal(started.state, "downloading");
        assert.equal(done.state, "success");
        assert.ok(done.size > 10_000, `${done.size} bytes`);
        const mp4 = await get(done.url!);
        assert.equal(mp4.status, 200);
        assert.equal(mp4.headers.get("content-type"), "video/mp4");
        const bytes = new Uint8Array(await mp4.arrayBuffer());
        assert.equal(bytes.length, done.size);
        assert.equal(new TextDecoder().decode(bytes.subarray(4, 8)), "ftyp");
        // The whole 10 s test clip, decodable (ffprobe, as the media tests check segments).
        const path = await Deno.makeTempFile({ suffix: ".mp4" });
        try {
          await Deno.writeFile(path, bytes);
          const p = await probe(path);
          assert.equal(p.codec, "h264");
          assert.equal(p.width, 320);
          assert.ok(Math.abs(p.duration - 10) < 1.5, `${p.duration} s`);
          assert.equal(await decodeErrors(path), "");
        } finally {
          await Deno.remove(path);
        }
      });
    } finally {
      await close(r);
    }
  },
});
