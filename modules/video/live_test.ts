/**
 * The video service's rules with a small in-test media hub and a terminal that answers on the
 * connection it is handed (the wire itself is covered by jt808/video_test.ts and
 * tests/integration/video_test.ts): live start announces the media address and reuses a
 * running stream, refuses offline devices and times out; idle streams stop after 60 s;
 * history list, control and downloads (states, batch limit, 24 h, 7-day clean-up); the daily
 * play limit; share links.
 */
import assert from "node:assert/strict";
import { BizError } from "../../lib/errors.ts";
import type { Session } from "../../lib/http/env.ts";
import type { OutgoingCommand, VideoRequest } from "../gateway/protocols/types.ts";
import type { LiveConnection } from "../gateway/types.ts";
import { createVideo } from "./wiring.ts";
import { VideoStore } from "./store.ts";
import type { MediaHub, StreamInfo, StreamKey } from "./types.ts";
import { simOf } from "./paths.ts";
import { openTestKv } from "../../tests/helpers/test_kv.ts";

const IMEI = "865000000000017";
const SESSION: Session = {
  accountId: "acc1",
  cAccountId: "acc1",
  isVirtual: false,
  jti: "j",
  via: "bearer",
};

const id = (k: StreamKey) => `${k.sim}/${k.channel}/${k.purpose}`;

/** Streams appear when the "terminal" connects; `connectOn` says which requests make one. */
class TestHub implements MediaHub {
  readonly live = new Map<string, StreamInfo>();
  private readonly waiting = new Map<string, (i: StreamInfo | null) => void>();
  closed: string[] = [];
  recordSize: number | null = 2048;

  expect(key: StreamKey, timeoutMs: number): Promise<StreamInfo | null> {
    const running = this.live.get(id(key));
    if (running) return Promise.resolve(running);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id(key));
        resolve(null);
      }, timeoutMs);
      this.waiting.set(id(key), (i) => {
        clearTimeout(timer);
        resolve(i);
      });
    });
  }

  /** The terminal's media connection arrived and its first segment is ready. */
  connect(key: StreamKey): void {
    const now = Date.now();
    const info: StreamInfo = {
      key,
      video: "h264",
      audio: null,
      startedAt: now,
      lastPacketAt: now,
      lastViewedAt: now,
      bytesIn: 1,
      connected: true,
    };
    this.live.set(id(key), info);
    this.waiting.get(id(key))?.(info);
    this.waiting.delete(id(key));
  }

  playlist(key: StreamKey): string | null {
    const s = this.live.get(id(key));
    if (!s) return null;
    s.lastViewedAt = Date.now();
    return "#EXTM3U\n";
  }
  segment(key: StreamKey, name: string): Uint8Array | null {
    return this.live.has(id(key)) && name === "init.mp4" ? new Uint8Array([1]) : null;
  }
  info(key: StreamKey): StreamInfo | null {
    return this.live.get(id(key)) ?? null;
  }
  streams(): StreamInfo[] {
    return [...this.live.values()];
  }
  close(key: StreamKey): void {
    this.closed.push(id(key));
    this.live.delete(id(key));
  }
  async record(key: StreamKey, path: string): Promise<number | null> {
    if (!this.live.has(id(key)) || this.recordSize === null) return null;
    await Deno.writeFile(path, new Uint8Array(this.recordSize));
    return this.recordSize;
  }
}

interface Rig {
  hub: TestHub;
  sent: VideoRequest[];
  video: ReturnType<typeof createVideo>;
  online: { value: boolean };
  dataDir: string;
  kv: Deno.Kv;
  /** Whether the terminal answers media requests by connecting. */
  streams: { value: boolean };
}

async function rig(): Promise<Rig> {
  const kv = await openTestKv();
  const dataDir = await Deno.makeTempDir({ prefix: "tp-video-" });
  const hub = new TestHub();
  const sent: VideoRequest[] = [];
  const online = { value: true };
  const streams = { value: true };
  /** The video area, once built (the terminal answers through its desk). */
  const built: { video?: ReturnType<typeof createVideo> } = {};
  const conn: LiveConnection = {
    imei: IMEI,
    protocol: "jt808",
    remote: "127.0.0.1:40000",
    connectedAt: 0,
    heardAt: 0,
    credentialed: true,
    send(c: OutgoingCommand) {
      if (c.native?.kind !== "jt808Video") throw new Error("not video");
      const r = c.native.request;
      sent.push(r);
      // The terminal: media requests connect to the hub, a query is answered with 0x1205.
      queueMicrotask(() => {
        if (!streams.value) return;
        if (r.type === "live") {
          hub.connect({ sim: simOf(IMEI), channel: r.channel, purpose: "live" });
        }
        if (r.type === "playback") {
          const pending = [...hub["waiting"].keys()].find((k) => k.startsWith(simOf(IMEI)));
          const [, ch, purpose] = pending!.split("/");
          hub.connect({ sim: simOf(IMEI), channel: Number(ch), purpose });
        }
        if (r.type === "queryResources") {
          built.video!.desk.onVideo(conn, {
            kind: "resources",
            serial: c.ref & 0xffff,
            files: [{
              channel: 1,
              start: r.start + 60_000,
              end: r.start + 120_000,
              alarmFlags: "0",
              avType: 0,
              streamType: 2,
              storageType: 1,
              size: 1000,
            }, {
              channel: 2,
              start: r.start,
              end: r.start + 60_000,
              alarmFlags: "4",
              avType: 0,
              streamType: 1,
              storageType: 1,
              size: 2000,
            }],
          });
        }
      });
      return Promise.resolve();
    },
    close() {},
  };
  const video = built.video = createVideo({
    store: new VideoStore(kv),
    dataDir,
    hub,
    connections: { get: (imei) => (online.value && imei === IMEI ? conn : undefined) },
    alerts: { range: () => Promise.resolve([]) },
    devices: {
      visibleDevice: (_s, imei) =>
        imei === IMEI
          ? Promise.resolve({ imei, deviceName: "Cam 1" })
          : Promise.reject(new BizError("deviceNoPermission")),
    },
    visibleImeis: () => Promise.resolve([IMEI]),
    device: () => ({ userId: "acc1", deviceName: "Cam 1" }),
    mediaAddress: () => ({ host: "media.example.com", port: 7078 }),
    attachmentAddress: () => ({ host: "media.example.com", port: 7079 }),
    startTimeoutMs: 300,
  });
  return { hub, sent, video, online, dataDir, kv, streams };
}

async function done(r: Rig) {
  r.kv.close();
  await Deno.remove(r.dataDir, { recursive: true });
}

async function refusal(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    if (e instanceof BizError) return e.key;
    throw e;
  }
  throw new Error("not refused");
}

Deno.test("live start: 0x9101 names the media address; a second start reuses; stop closes", async () => {
  const r = await rig();
  try {
    const { live } = r.video.services;
    const a = await live.start(SESSION, IMEI, 2, "main");
    assert.deepEqual(a, { url: `/v3/new/video/hls/${IMEI}/2/live/index.m3u8`, codec: "h264" });
    assert.deepEqual(r.sent, [{
      type: "live",
      host: "media.example.com",
      port: 7078,
      channel: 2,
      stream: "main",
    }]);
    assert.deepEqual(await live.start(SESSION, IMEI, 2, "sub"), a);
    assert.equal(r.sent.length, 1, "reused: nothing sent");
    await live.stop(SESSION, IMEI, 2);
    assert.deepEqual(r.sent.at(-1), { type: "liveClose", channel: 2 });
    assert.deepEqual(r.hub.closed, [`${simOf(IMEI)}/2/live`]);
  } finally {
    await done(r);
  }
});

Deno.test("live start: offline device, unknown device, and a terminal that never streams", async () => {
  const r = await rig();
  try {
    const { live } = r.video.services;
    r.online.value = false;
    assert.equal(await refusal(live.start(SESSION, IMEI, 1, "sub")), "deviceOffline");
    assert.equal(
      await refusal(live.start(SESSION, "865000000000025", 1, "sub")),
      "deviceNoPermission",
    );
    r.online.value = true;
    r.streams.value = false;
    assert.equal(await refusal(live.start(SESSION, IMEI, 1, "sub")), "videoResponseTimeout");
    assert.deepEqual(r.sent.at(-1), { type: "liveClose", channel: 1 }, "the request is withdrawn");
  } finally {
    await done(r);
  }
});

Deno.test("idle sweep: a stream whose playlist nobody fetched for 60 s stops (0x9102)", async () => {
  const r = await rig();
  try {
    const { live, hls } = r.video.services;
    await live.start(SESSION, IMEI, 1, "sub");
    await live.start(SESSION, IMEI, 3, "sub");
    const t0 = Date.now();
    await hls.forViewer(SESSION, IMEI, 3, "live", "index.m3u8"); // viewed now
    r.hub.live.get(`${simOf(IMEI)}/1/live`)!.lastViewedAt = t0 - 61_000;
    r.hub.live.get(`${simOf(IMEI)}/1/live`)!.startedAt = t0 - 61_000;
    live.sweep(t0);
    await new Promise((res) => setTimeout(res, 10));
    assert.deepEqual(r.hub.closed, [`${simOf(IMEI)}/1/live`]);
    assert.deepEqual(r.sent.at(-1), { type: "liveClose", channel: 1 });
    assert.equal(
      await refusal(hls.forViewer(SESSION, IMEI, 1, "live", "index.m3u8")),
      "videoFileNotFound",
    );
    assert.equal(
      await refusal(hls.forViewer(SESSION, IMEI, 3, "live", "../../etc.m3u8")),
      "videoFileNotFound",
    );
  } finally {
    await done(r);
  }
});

Deno.test("history: list (0x9205 → files in time order, channel 0 = all), play, control", async () => {
  const r = await rig();
  try {
    const { live } = r.video.services;
    const startTime = "2026-11-25T00:00:00.000Z";
    const endTime = "2026-11-26T00:00:00.000Z";
    const all = await live.list(SESSION, { imei: IMEI, channel: 0, startTime, endTime });
    assert.deepEqual(all.map((f) => [f.channel, f.startTime, f.stream, f.alarmFlags]), [
      [2, "2026-11-25T00:00:00.000Z", "main", "4"],
      [1, "2026-11-25T00:01:00.000Z", "sub", "0"],
    ]);
    const one = await live.list(SESSION, { imei: IMEI, channel: 1, startTime, endTime });
    assert.equal(one.length, 1);
    assert.equal(one[0].id, "1-2026-11-25T00:01:00.000Z-2026-11-25T00:02:00.000Z");
    assert.equal(
      await refusal(live.list(SESSION, { imei: IMEI, channel: 1, startTime: endTime, endTime })),
      "videoRangeInvalid",
    );
    const play = await live.play(SESSION, {
      imei: IMEI,
      channel: 1,
      startTime: one[0].startTime,
      endTime: one[0].endTime,
    });
    assert.equal(play.url, `/v3/new/video/hls/${IMEI}/1/playback/index.m3u8`);
    assert.deepEqual(r.sent.at(-1), {
      type: "playback",
      host: "media.example.com",
      port: 7078,
      channel: 1,
      start: Date.parse(one[0].startTime),
      end: Date.parse(one[0].endTime),
    });
    await live.control(SESSION, { imei: IMEI, channel: 1, action: "speed", speed: 4 });
    assert.deepEqual(r.sent.at(-1), {
      type: "playbackControl",
      channel: 1,
      control: 3,
      speed: 3,
      seekTo: 0,
    });
    await live.control(SESSION, { imei: IMEI, channel: 1, action: "stop" });
    assert.equal(
      await refusal(live.control(SESSION, { imei: IMEI, channel: 1, action: "pause" })),
      "videoPlaybackError",
    );
  } finally {
    await done(r);
  }
});

Deno.test("downloads: batch ≤ 10, downloading → success with the MP4, failure, 7-day clean-up", async () => {
  const r = await rig();
  try {
    const { downloads } = r.video.services;
    const file = { channel: 1, startTime: "2026-11-25T00:01:00Z", endTime: "2026-11-25T00:02:00Z" };
    assert.equal(
      await refusal(downloads.create(SESSION, { imei: IMEI, files: Array(11).fill(file) })),
      "videoBatchTooLarge",
    );
    const [row] = await downloads.create(SESSION, { imei: IMEI, files: [file] });
    assert.equal(row.state, "downloading");
    assert.equal(Date.parse(row.expiresAt) - Date.parse(row.createdAt), 24 * 3_600_000);
    const list = async () => (await downloads.list(SESSION, 1, 20, () => "Cam 1")).list;
    for (let i = 0; i < 50 && (await list())[0].state === "downloading"; i++) {
      await new Promise((res) => setTimeout(res, 20));
    }
    const [ok] = await list();
    assert.equal(ok.state, "success");
    assert.equal(ok.size, 2048);
    assert.equal(ok.url, `/v3/new/video/download/${ok.id}`);
    const f = await downloads.file(SESSION, ok.id);
    // The MP4 is a blob; in single mode it is the file it always was.
    assert.equal(f.blob.size, 2048);
    assert.equal((await new Response(f.blob.stream).arrayBuffer()).byteLength, 2048);
    const path = `${r.dataDir}/video/downloads/${ok.id}.mp4`;
    assert.equal((await Deno.stat(path)).size, 2048);
    assert.match(f.name, /^865000000000017_ch1_20261125T000100\.mp4$/);
    // Another account's task is not found.
    assert.equal(
      await refusal(downloads.file({ ...SESSION, accountId: "other" }, ok.id)),
      "videoFileNotFound",
    );
    r.hub.recordSize = null;
    await downloads.create(SESSION, { imei: IMEI, files: [file] });
    for (let i = 0; i < 50 && (await list())[0].state === "downloading"; i++) {
      await new Promise((res) => setTimeout(res, 20));
    }
    const [failed] = await list();
    assert.equal(failed.state, "failure");
    assert.equal(await refusal(downloads.file(SESSION, failed.id)), "videoDownloadFailed");
    assert.equal(await downloads.cleanUp(Date.now()), 0);
    assert.equal(await downloads.cleanUp(Date.now() + 8 * 86_400_000), 2);
    await assert.rejects(Deno.stat(path));
  } finally {
    await done(r);
  }
});

Deno.test("settings: defaults, the daily play limit, camera nicknames", async () => {
  const r = await rig();
  try {
    const { settings, live } = r.video.services;
    assert.deepEqual(await settings.get(SESSION), {
      defaultStream: "sub",
      liveDefaultMinutes: 5,
      playLimitPerDay: 100,
    });
    await settings.set(SESSION, {
      defaultStream: "main",
      liveDefaultMinutes: 0,
      playLimitPerDay: 2,
    });
    await live.start(SESSION, IMEI, 1); // the settings' default stream
    assert.deepEqual(r.sent.at(-1), {
      type: "live",
      host: "media.example.com",
      port: 7078,
      channel: 1,
      stream: "main",
    });
    await live.start(SESSION, IMEI, 1, "main");
    assert.equal(await refusal(live.start(SESSION, IMEI, 1, "main")), "videoPlayLimit");
    const cams = await settings.setCameras(SESSION, IMEI, [
      { channel: 2, nickname: "Cabin" },
      { channel: 1, nickname: "Road" },
      { channel: 3, nickname: "  " },
    ]);
    assert.deepEqual(cams, [{ channel: 1, nickname: "Road" }, { channel: 2, nickname: "Cabin" }]);
    assert.deepEqual(await settings.cameras(SESSION, IMEI), cams);
  } finally {
    await done(r);
  }
});

Deno.test("live start: viewers starting the same channel at once share one 0x9101", async () => {
  const r = await rig();
  try {
    const { live } = r.video.services;
    const [a, b] = await Promise.all([
      live.start(SESSION, IMEI, 5, "sub"),
      live.start(SESSION, IMEI, 5, "sub"),
    ]);
    assert.deepEqual(a, b);
    assert.equal(r.sent.filter((s) => s.type === "live").length, 1);
  } finally {
    await done(r);
  }
});
