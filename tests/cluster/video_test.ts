/**
 * Video in cluster mode (issue 23): two instances behind HAProxy, a simulated JT/T 808 dashcam
 * on the balancer's ports. Its JT/T 1078 stream reaches whichever instance the balancer picks;
 * a live stream started through A is served as HLS by both A and B (the one that does not hold
 * it asks the holder over tp.media.<instanceId>), and a download started through A is served,
 * whole, by B (the MP4 is a blob in PostgreSQL).
 */
import assert from "node:assert/strict";
import { PlatformApi } from "../../modules/simulator/api.ts";
import { Simulator } from "../../modules/simulator/simulator.ts";
import { testClip } from "../../modules/simulator/video/clip.ts";
import { streamClip } from "../../modules/simulator/video/streamer.ts";
import { ApiClient } from "../helpers/api_client.ts";
import { startCluster } from "../helpers/cluster.ts";
import { loginToken } from "./live_stream.ts";
import { waitFor } from "../helpers/wait_for.ts";
import {
  downloadRecording,
  newestRecording,
  videoTerminalOnline,
} from "../helpers/video_terminal.ts";

const ADMIN_PASSWORD = "Admin12345";
const PICTURE = await Deno.readFile(
  new URL("../../modules/simulator/devices/alarm_picture.jpg", import.meta.url),
);

Deno.test({
  name: "cluster video: HLS of a live stream and a download's MP4 from either instance",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async (t) => {
    const cluster = await startCluster({ instances: 2, env: { ADMIN_PASSWORD } });
    let fleet: Simulator | null = null;
    try {
      const [a, b] = cluster.instances;
      const clip = await testClip();
      fleet = new Simulator({
        protocol: "jt808",
        devices: 1,
        port: cluster.ports.jt808,
        imeiPrefix: "86510000",
        intervalSeconds: 1,
        alarmScale: 0,
        reconnectsPerHour: 0,
        video: {
          alarmEverySeconds: 0,
          picture: PICTURE,
          channels: 2,
          streamer: (o) => streamClip({ ...o, clip }).then(() => {}),
        },
      });
      const [imei] = fleet.imeis;
      const api = await PlatformApi.login(a.url, "admin", ADMIN_PASSWORD);
      await api.importDevices(await api.currentUserId(), "JT808", [imei]);
      fleet.start();
      const viaA = await ApiClient.login(a.url, "admin", ADMIN_PASSWORD);
      const viaB = await ApiClient.login(b.url, "admin", ADMIN_PASSWORD);
      await videoTerminalOnline(viaA, imei);
      const auth = { authorization: `Bearer ${await loginToken(a.url, "admin", ADMIN_PASSWORD)}` };
      const get = (base: string, path: string) => fetch(`${base}${path}`, { headers: auth });

      await t.step("live through A: playlist and segments from A and from B", async () => {
        const live = await viaA.call("/v3/new/video/live/start", { imei, channel: 1 });
        assert.equal(live.url, `/v3/new/video/hls/${imei}/1/live/index.m3u8`);
        const dir = live.url.slice(0, live.url.lastIndexOf("/") + 1);
        for (const base of [a.url, b.url]) {
          const playlist = await get(base, live.url);
          assert.equal(playlist.status, 200, base);
          const text = await playlist.text();
          assert.match(text, /^#EXTM3U/);
          const segment = text.split("\n").find((l) => l && !l.startsWith("#"))!;
          const seg = await get(base, dir + segment);
          assert.equal(seg.status, 200, `${base} ${segment}`);
          assert.ok((await seg.arrayBuffer()).byteLength > 1000);
        }
        // A second start through B reuses the stream, wherever it is.
        const again = await viaB.call("/v3/new/video/live/start", { imei, channel: 1 });
        assert.equal(again.url, live.url);
        await viaB.call("/v3/new/video/live/stop", { imei, channel: 1 });
        await waitFor("the stream gone on both", async () => {
          const statuses = await Promise.all(
            [a.url, b.url].map(async (base) => {
              const r = await get(base, live.url);
              await r.body?.cancel();
              return r.status;
            }),
          );
          return statuses.every((s) => s === 404);
        }, 5_000);
      });

      await t.step("a download through A is served whole by B", async () => {
        const file = await newestRecording(viaA, imei);
        const { done } = await downloadRecording(viaA, viaB, imei, file);
        assert.equal(done.state, "success");
        const mp4 = await get(b.url, done.url!);
        assert.equal(mp4.status, 200);
        assert.equal(mp4.headers.get("content-type"), "video/mp4");
        const bytes = new Uint8Array(await mp4.arrayBuffer());
        assert.equal(bytes.length, done.size);
        assert.equal(new TextDecoder().decode(bytes.subarray(4, 8)), "ftyp");
      });
    } catch (e) {
      if (Deno.env.get("TP_DEBUG_CLUSTER")) {
        for (const i of cluster.instances) console.log(i.server.output().slice(-6000));
      }
      throw e;
    } finally {
      await fleet?.stop();
      await cluster.stop();
    }
  },
});
