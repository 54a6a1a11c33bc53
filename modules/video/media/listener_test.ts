import assert from "node:assert/strict";
import { testClip } from "../../simulator/video/clip.ts";
import { streamClip } from "../../simulator/video/streamer.ts";
import { createMediaHub, startMediaListener } from "./mod.ts";
import { decodeErrors, probe } from "./probe_test_helpers.ts";

Deno.test("a terminal streams the clip over TCP: the hub serves HLS, records an MP4, garbage connections do no harm", async () => {
  const hub = createMediaHub({ lingerMs: 60_000 });
  const listener = startMediaListener(hub, 0, { hostname: "127.0.0.1" });
  const dir = await Deno.makeTempDir();
  try {
    const key = { sim: "013800138000", channel: 2, purpose: "dl-test" };
    const ready = hub.expect(key, 10_000);
    // A hostile neighbour: random bytes on another connection.
    const hostile = await Deno.connect({ hostname: "127.0.0.1", port: listener.port });
    const junk = new Uint8Array(196_608);
    for (let i = 0; i < 3; i++) crypto.getRandomValues(junk.subarray(i * 65536, (i + 1) * 65536));
    const hostileDone = hostile.write(junk).then(() => hostile.read(new Uint8Array(10))).catch(() =>
      null
    );
    const clip = await testClip(true);
    const streaming = streamClip({
      host: "127.0.0.1",
      port: listener.port,
      sim: key.sim,
      channel: key.channel,
      clip,
      rateMultiplier: 4,
    });
    const info = await ready;
    assert.ok(info, "the first segment arrived");
    assert.equal(info.video, "h264");
    assert.equal(info.key.purpose, "dl-test");
    const recording = hub.record(key, `${dir}/rec.mp4`, 30_000);
    const playlist = hub.playlist(key)!;
    assert.match(playlist, /#EXT-X-MAP:URI="init.mp4"/);
    const first = playlist.match(/^s\d+\.m4s$/m)![0];
    assert.ok(hub.segment(key, "init.mp4")!.length > 500);
    assert.ok(hub.segment(key, first)!.length > 1000);
    const stats = await streaming;
    assert.equal(stats.frames, 120);
    const size = await recording;
    assert.ok(size && size > 100_000, `recorded ${size}`);
    const after = hub.info(key)!;
    assert.equal(after.connected, false);
    assert.equal(after.audio, "g711a");
    assert.equal(after.audioNote, undefined, "G.711 is played (as FLAC), not dropped");
    assert.ok(after.bytesIn > 150_000);
    assert.match(hub.playlist(key)!, /#EXT-X-ENDLIST/);
    // The download decodes whole: every frame, 10 s.
    const p = await probe(`${dir}/rec.mp4`);
    assert.equal(p.codec, "h264");
    assert.equal(p.frames, 120);
    assert.ok(Math.abs(p.duration - 10) <= 1 / 12 + 0.001, `duration ${p.duration}`);
    assert.equal(await decodeErrors(`${dir}/rec.mp4`), "");
    const tracks = await new Deno.Command("ffprobe", {
      args: [
        "-v",
        "error",
        "-show_entries",
        "stream=codec_name,duration",
        "-of",
        "csv=p=0",
        `${dir}/rec.mp4`,
      ],
      stdout: "piped",
    }).output();
    const rows = new TextDecoder().decode(tracks.stdout).trim().split("\n").map((r) =>
      r.split(",")
    );
    assert.deepEqual(rows.map((r) => r[0]).sort(), ["flac", "h264"]);
    const audioSeconds = Number(rows.find((r) => r[0] === "flac")![1]);
    assert.ok(Math.abs(audioSeconds - 10) < 0.3, `audio ${audioSeconds} s`);
    // Every served segment decodes after the init segment.
    const names = hub.playlist(key)!.match(/^s\d+\.m4s$/gm)!;
    const parts = [hub.segment(key, "init.mp4")!, ...names.map((n) => hub.segment(key, n)!)];
    await Deno.writeFile(`${dir}/hls.mp4`, new Uint8Array(parts.flatMap((x) => [...x])));
    assert.equal(await decodeErrors(`${dir}/hls.mp4`), "");
    assert.equal((await probe(`${dir}/hls.mp4`)).frames, names.length * 12);
    assert.equal(await hostileDone, null, "the garbage connection was closed");
    hub.close(key);
    assert.equal(hub.info(key), null);
  } finally {
    hub.dispose();
    await listener.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("unannounced media is refused; a second start reuses the live stream; a reconnect resumes it; close ends it", async () => {
  const hub = createMediaHub();
  const listener = startMediaListener(hub, 0, { hostname: "127.0.0.1" });
  try {
    const key = { sim: "000000000042", channel: 1, purpose: "live" };
    const clip = await testClip(false);
    const send = (signal?: AbortSignal) =>
      streamClip({
        host: "127.0.0.1",
        port: listener.port,
        sim: "42",
        channel: 1,
        clip,
        loop: true,
        signal,
        rateMultiplier: 2,
      });
    // Nobody asked for this channel: the connection is closed at its first frame.
    const spoofed = await send();
    assert.ok(spoofed.frames < 5, `refused after ${spoofed.frames} frames`);
    assert.deepEqual(hub.streams(), []);
    const ready = hub.expect(key, 10_000);
    const first = new AbortController();
    const streaming = send(first.signal);
    const info = await ready;
    assert.ok(info?.connected);
    const again = await hub.expect(key, 10);
    assert.ok(again, "a running live stream answers at once");
    assert.deepEqual(hub.streams().map((s) => s.key), [key]);
    // The terminal drops its connection and reconnects: the live stream takes it back.
    first.abort();
    await streaming;
    const resumed = send();
    for (let i = 0; i < 100 && !hub.info(key)?.connected; i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(hub.info(key)?.connected, true);
    hub.close(key);
    const stats = await resumed; // the server closed the connection
    assert.ok(stats.frames > 0);
    assert.equal(hub.info(key), null);
    assert.equal(await hub.expect(key, 50), null, "nothing connects: timeout");
  } finally {
    hub.dispose();
    await listener.close();
  }
});

Deno.test("silent connections are closed after the idle time, and the cap closes extra connections at once", async () => {
  const hub = createMediaHub();
  const listener = startMediaListener(hub, 0, {
    hostname: "127.0.0.1",
    idleMs: 300,
    maxConnections: 2,
  });
  const conns: Deno.TcpConn[] = [];
  try {
    for (let i = 0; i < 3; i++) {
      conns.push(await Deno.connect({ hostname: "127.0.0.1", port: listener.port }));
    }
    const started = Date.now();
    const ends = await Promise.all(conns.map(async (c) => {
      const n = await c.read(new Uint8Array(8)).catch(() => null);
      return { n, ms: Date.now() - started };
    }));
    assert.ok(ends.every((e) => e.n === null), "every connection was closed by the server");
    const sorted = ends.map((e) => e.ms).sort((a, b) => a - b);
    assert.ok(sorted[0] < 250, `the third connection was refused at once (${sorted[0]} ms)`);
    assert.ok(sorted[2] >= 250, `silent ones were closed after the idle time (${sorted[2]} ms)`);
  } finally {
    for (const c of conns) {
      try {
        c.close();
      } catch { /* closed */ }
    }
    hub.dispose();
    await listener.close();
  }
});
