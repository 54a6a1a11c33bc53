/**
 * Two instances' media hubs sharing a link and a store (issue 23): a camera's JT/T 1078
 * connection reaches instance B's listener while the viewer asked instance A. A's expect
 * resolves, A serves B's playlist and segments byte for byte, records B's stream into its own
 * file, and A's close ends B's stream. Run on the in-process link and on a real nats-server.
 */
import assert from "node:assert/strict";
import { FsBlobStore } from "../../lib/blobs/fs.ts";
import { LocalLink } from "../../lib/cluster/local.ts";
import { NatsLink } from "../../lib/cluster/nats_link.ts";
import type { ClusterLink } from "../../lib/cluster/types.ts";
import { testNats } from "../../tests/helpers/nats.ts";
import { testClip } from "../simulator/video/clip.ts";
import { streamClip } from "../simulator/video/streamer.ts";
import { ClusterMediaHub } from "./cluster_media.ts";
import { MediaHolderStore } from "./store_media_holder.ts";
import { createMediaHub, startMediaListener } from "./media/mod.ts";

/** A history stream (a download's kind: its segments keep their samples for the recorder). */
const KEY = { sim: "013800138000", channel: 1, purpose: "dl0123456789abcdef" };

async function rig(links: [ClusterLink, ClusterLink]) {
  const kv = await Deno.openKv(":memory:");
  const dir = await Deno.makeTempDir({ prefix: "tp-cluster-media-" });
  const blobs = new FsBlobStore(dir);
  const instance = (name: string, link: ClusterLink) => {
    const local = createMediaHub({ lingerMs: 60_000 });
    const listener = startMediaListener(local, 0, { hostname: "127.0.0.1" });
    const hub = new ClusterMediaHub({
      local,
      cluster: { instanceId: name, link },
      holders: new MediaHolderStore(kv),
      blobs,
      workDir: `${dir}/${name}/work`,
    });
    return { local, listener, hub };
  };
  const a = instance("inst-a", links[0]), b = instance("inst-b", links[1]);
  return {
    a,
    b,
    kv,
    dir,
    async done() {
      for (const i of [a, b]) {
        i.hub.dispose();
        await i.listener.close();
        i.local.dispose();
      }
      kv.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

/**
 * `announced`: resolves once the expectation has left A for the others (NatsLink.flush). In the
 * product the terminal connects only after a JT/T 808 round trip that follows it; here it
 * connects at once, so without it a busy machine can let the connection reach B first.
 */
async function scenario(
  links: [ClusterLink, ClusterLink],
  announced: () => Promise<void> = () => Promise.resolve(),
) {
  const r = await rig(links);
  const abort = new AbortController();
  try {
    const clip = await testClip(false);
    const ready = r.a.hub.expect(KEY, 10_000);
    await announced();
    const streaming = streamClip({
      host: "127.0.0.1",
      port: r.b.listener.port,
      sim: KEY.sim,
      channel: KEY.channel,
      clip,
      rateMultiplier: 2,
      signal: abort.signal,
    }).catch(() => null);
    const info = await ready;
    assert.ok(info, "A learns that the stream is ready on B");
    assert.equal(info.video, "h264");
    assert.equal(r.a.local.info(KEY), null, "the stream is not on A");
    assert.equal(r.a.hub.info(KEY)?.connected, true, "A knows it runs (on B)");
    assert.ok(r.b.local.info(KEY)?.connected, "the stream is on B");
    assert.equal(await new MediaHolderStore(r.kv).holder(KEY), "inst-b");

    // Wait for a few segments, then A serves B's HLS as B has it.
    for (let i = 0; i < 100 && (r.b.local.playlist(KEY)?.match(/\.m4s/g)?.length ?? 0) < 2; i++) {
      await new Promise((res) => setTimeout(res, 50));
    }
    const playlist = await r.a.hub.remoteFile(KEY, "index.m3u8");
    assert.ok(playlist);
    assert.equal(playlist.type, "application/vnd.apple.mpegurl");
    const first = /^(s\d+\.m4s)$/m.exec(playlist.body as string)![1];
    const init = await r.a.hub.remoteFile(KEY, "init.mp4");
    assert.deepEqual(init?.body, r.b.local.segment(KEY, "init.mp4"));
    const segment = await r.a.hub.remoteFile(KEY, first);
    assert.equal(segment?.type, "video/mp4");
    assert.deepEqual(segment?.body, r.b.local.segment(KEY, first));
    assert.ok((segment!.body as Uint8Array).length > 1000);
    assert.equal(await r.a.hub.remoteFile(KEY, "s999999.m4s"), null);
    assert.equal(await r.a.hub.remoteFile({ ...KEY, channel: 2 }, "index.m3u8"), null);

    // A records the stream B holds: B records it and hands the MP4 over the blob store.
    const path = `${r.dir}/a-recording.mp4`;
    const recording = r.a.hub.record(KEY, path, 1_500);
    const size = await recording;
    assert.ok(size && size > 1000, `recorded ${size} bytes`);
    assert.equal((await Deno.stat(path)).size, size);
    assert.deepEqual(await Array.fromAsync(Deno.readDir(`${r.dir}/video/handover`)), []);

    // A's close ends B's stream.
    r.a.hub.close(KEY);
    for (let i = 0; i < 50 && r.b.local.info(KEY); i++) {
      await new Promise((res) => setTimeout(res, 20));
    }
    assert.equal(r.b.local.info(KEY), null);
    assert.equal(r.a.hub.info(KEY), null);
    abort.abort();
    await streaming;
  } finally {
    abort.abort();
    await r.done();
  }
}

Deno.test("cluster media (LocalLink): HLS, recording and close of a stream held by another instance", async () => {
  const link = new LocalLink();
  await scenario([link, link]);
  await link.close();
});

Deno.test("cluster media (NatsLink): the same across two links on a real nats-server", async () => {
  const nats = await testNats();
  const a = await NatsLink.connect(nats.url), b = await NatsLink.connect(nats.url);
  try {
    await scenario([a, b], () => a.flush());
  } finally {
    await a.close();
    await b.close();
    await nats.stop();
  }
});

Deno.test("cluster media: an expectation nobody meets resolves null after its time", async () => {
  const link = new LocalLink();
  const r = await rig([link, link]);
  try {
    const started = Date.now();
    assert.equal(await r.a.hub.expect({ ...KEY, channel: 3 }, 300), null);
    assert.ok(Date.now() - started >= 290);
  } finally {
    await r.done();
    await link.close();
  }
});

Deno.test("cluster media (NatsLink): the asking instance expects at once, and its own close's echo does not withdraw it", async () => {
  const nats = await testNats();
  const a = await NatsLink.connect(nats.url), b = await NatsLink.connect(nats.url);
  const r = await rig([a, b]);
  const abort = new AbortController();
  try {
    // A playback replaces the previous one: close, then expect, then the command goes out.
    r.a.hub.close(KEY);
    const ready = r.a.hub.expect(KEY, 10_000);
    // A connection landing on A before any NATS message came back is bound to the purpose,
    // not refused (or taken for live video).
    const early = r.a.local.open({ close() {} }, KEY.sim, KEY.channel);
    assert.equal(early?.key.purpose, KEY.purpose);
    // Closed and asked again: the echoes of A's closes and expects must leave the last one.
    r.a.hub.close(KEY);
    const again = r.a.hub.expect(KEY, 10_000);
    await a.flush();
    await new Promise((res) => setTimeout(res, 200));
    const streaming = streamClip({
      host: "127.0.0.1",
      port: r.a.listener.port,
      sim: KEY.sim,
      channel: KEY.channel,
      clip: await testClip(false),
      rateMultiplier: 2,
      signal: abort.signal,
    }).catch(() => null);
    assert.ok((await again)?.connected, "still expected after the echoes: the stream is ready");
    assert.ok(r.a.local.info(KEY)?.connected);
    assert.ok((await ready)?.connected, "the first asker hears of the stream too");
    abort.abort();
    await streaming;
  } finally {
    abort.abort();
    await r.done();
    await a.close();
    await b.close();
    await nats.stop();
  }
});
