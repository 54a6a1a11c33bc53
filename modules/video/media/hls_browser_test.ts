/**
 * The hub's HLS as a browser plays it: a terminal streams the clip live over JT/T 1078, a page
 * with hls.js (the console's player library) plays the hub's playlist in headless Chromium, and
 * the <video> element's time advances. Proves the init segment, fragments and playlist are what
 * MSE and hls.js accept, independently of the console pages (tests/e2e cover those).
 */
import assert from "node:assert/strict";
import { launchBrowser } from "../../../tests/helpers/browser.ts";
import { benchClip, testClip } from "../../simulator/video/clip.ts";
import { streamClip } from "../../simulator/video/streamer.ts";
import { createMediaHub, startMediaListener } from "./mod.ts";
import { Segmenter } from "./segmenter.ts";

const HLS_JS = new URL("../../../node_modules/hls.js/dist/hls.min.js", import.meta.url);

const PAGE = `<!doctype html><html><body><video id="v" muted autoplay playsinline></video>
<script src="/hls.js"></script><script>
  const v = document.getElementById("v");
  const hls = new Hls({ liveSyncDurationCount: 2 });
  window.hlsErrors = [];
  hls.on(Hls.Events.ERROR, (_e, d) => window.hlsErrors.push(d.details + (d.fatal ? " (fatal)" : "")));
  hls.loadSource("/hls/index.m3u8");
  hls.attachMedia(v);
  hls.on(Hls.Events.MANIFEST_PARSED, () => v.play());
</script></body></html>`;

Deno.test("hls.js in Chromium plays the hub's live HLS (H.264 + G.711A as FLAC): currentTime advances, audio decodes", async () => {
  const hub = createMediaHub();
  const listener = startMediaListener(hub, 0, { hostname: "127.0.0.1" });
  const key = { sim: "000000000777", channel: 1, purpose: "live" };
  const stop = new AbortController();
  const hlsJs = await Deno.readFile(HLS_JS);
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/") return new Response(PAGE, { headers: { "content-type": "text/html" } });
    if (path === "/hls.js") {
      return new Response(hlsJs, { headers: { "content-type": "text/javascript" } });
    }
    const name = path.replace("/hls/", "");
    if (name === "index.m3u8") {
      const text = hub.playlist(key);
      return text
        ? new Response(text, { headers: { "content-type": "application/vnd.apple.mpegurl" } })
        : new Response(null, { status: 404 });
    }
    const bytes = hub.segment(key, name);
    return bytes
      ? new Response(bytes as Uint8Array<ArrayBuffer>, { headers: { "content-type": "video/mp4" } })
      : new Response(null, { status: 404 });
  });
  const ready = hub.expect(key, 10_000);
  const streaming = streamClip({
    host: "127.0.0.1",
    port: listener.port,
    sim: key.sim,
    channel: 1,
    clip: await testClip(true),
    loop: true,
    signal: stop.signal,
  });
  const browser = await launchBrowser();
  try {
    assert.ok(await ready);
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${server.addr.port}/`);
    await page.waitForFunction(
      () => (document.getElementById("v") as HTMLVideoElement).currentTime > 0.5,
      null,
      { timeout: 20_000 },
    );
    const t0 = await page.evaluate(() =>
      (document.getElementById("v") as HTMLVideoElement).currentTime
    );
    await new Promise((r) => setTimeout(r, 4_000));
    const t1 = await page.evaluate(() =>
      (document.getElementById("v") as HTMLVideoElement).currentTime
    );
    assert.ok(t1 - t0 > 3, `played ${t1 - t0} s in 4 s`);
    const size = await page.evaluate(() => {
      const v = document.getElementById("v") as HTMLVideoElement;
      return [v.videoWidth, v.videoHeight];
    });
    assert.deepEqual(size, [320, 240]);
    // The G.711A audio plays too (as FLAC): Chromium counts decoded audio bytes.
    const audioBytes = await page.evaluate(() =>
      (document.getElementById("v") as unknown as { webkitAudioDecodedByteCount: number })
        .webkitAudioDecodedByteCount
    );
    assert.ok(audioBytes > 10_000, `audio decoded: ${audioBytes} bytes`);
    const errors = await page.evaluate(() =>
      (window as unknown as { hlsErrors: string[] }).hlsErrors
    );
    assert.deepEqual(errors.filter((e) => e.includes("fatal")), []);
  } finally {
    await browser.close();
    stop.abort();
    await streaming;
    await server.shutdown();
    hub.dispose();
    await listener.close();
  }
});

Deno.test("hls.js in Chromium plays across a resolution switch (discontinuity, second init segment)", async () => {
  const small = await testClip(false);
  const large = await benchClip(false);
  const seg = new Segmenter({ keep: 100, window: 100 });
  const frames = [
    ...small.frames.slice(0, 36).map((data, i) => ({ data, key: small.keys[i], ms: i * 83 })),
    ...large.frames.map((data, i) => ({ data, key: large.keys[i], ms: 36 * 83 + i * 67 })),
    ...large.frames.map((data, i) => ({ data, key: large.keys[i], ms: 36 * 83 + (30 + i) * 67 })),
  ];
  for (const f of frames) {
    seg.push({
      sim: "1",
      channel: 1,
      kind: "video",
      dataType: f.key ? 0 : 1,
      payloadType: 98,
      timestamp: f.ms,
      frameIntervalMs: 0,
      data: f.data,
    });
  }
  seg.flush();
  const hlsJs = await Deno.readFile(HLS_JS);
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/") return new Response(PAGE, { headers: { "content-type": "text/html" } });
    if (path === "/hls.js") {
      return new Response(hlsJs, { headers: { "content-type": "text/javascript" } });
    }
    const name = path.replace("/hls/", "");
    if (name === "index.m3u8") {
      return new Response(seg.playlist(true)!, {
        headers: { "content-type": "application/vnd.apple.mpegurl" },
      });
    }
    const bytes = seg.segment(name);
    return bytes
      ? new Response(bytes as Uint8Array<ArrayBuffer>, { headers: { "content-type": "video/mp4" } })
      : new Response(null, { status: 404 });
  });
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${server.addr.port}/`);
    await page.waitForFunction(
      () => (document.getElementById("v") as HTMLVideoElement).videoWidth === 320,
      null,
      { timeout: 20_000 },
    );
    await page.waitForFunction(
      () => (document.getElementById("v") as HTMLVideoElement).videoWidth === 640,
      null,
      { timeout: 20_000 },
    );
    await page.waitForFunction(
      () => (document.getElementById("v") as HTMLVideoElement).currentTime > 5,
      null,
      { timeout: 20_000 },
    );
    const errors = await page.evaluate(() =>
      (window as unknown as { hlsErrors: string[] }).hlsErrors
    );
    assert.deepEqual(errors.filter((e) => e.includes("fatal")), []);
  } finally {
    await browser.close();
    await server.shutdown();
  }
});
