/**
 * `deno task bench:video [--channels 50] [--seconds 30]`: simulated JT/T 1078 terminals stream
 * the ~1 Mbit/s 640x360 test clip (1 s GOP, looped, real time, with G.711A audio the hub turns into FLAC) over loopback into a media hub
 * running in its own process (the JT/T 1078 listener, reassembly, fMP4 HLS muxing). Reports the
 * hub process's CPU share and RSS, and the delay from a frame's packets arriving to its segment
 * being in the playlist (the oldest frame of each segment: the worst case; p50/p99).
 */
import { benchClip } from "../../modules/simulator/video/clip.ts";
import { streamClip } from "../../modules/simulator/video/streamer.ts";
import { createMediaHub, startMediaListener } from "../../modules/video/media/mod.ts";

/** `--name value` flags (and the bare `--hub-child`). */
function flag(name: string, fallback: string): string {
  const i = Deno.args.indexOf(`--${name}`);
  return i >= 0 && Deno.args[i + 1] !== undefined ? Deno.args[i + 1] : fallback;
}
const args = {
  channels: flag("channels", "50"),
  seconds: flag("seconds", "30"),
  warmup: flag("warmup", "5"),
  "hub-child": Deno.args.includes("--hub-child"),
};
const seconds = Number(args.seconds);
const warmup = Number(args.warmup);

if (args["hub-child"]) await hubChild();
else await main();

/** The hub process: prints its port, measures after the warm-up, prints the figures as JSON. */
async function hubChild(): Promise<void> {
  const delays: number[] = [];
  const measureFrom = Date.now() + warmup * 1000;
  let segments = 0;
  const hub = createMediaHub({
    onSegment: (_key, s) => {
      if (s.publishedAt < measureFrom) return;
      segments++;
      delays.push(s.publishedAt - s.firstArrival);
    },
  });
  const listener = startMediaListener(hub, 0, { hostname: "127.0.0.1" });
  // The signalling half announces each live stream (0x9101) before the terminal connects.
  for (let i = 0; i < Number(args.channels); i++) {
    hub.expect({ sim: simOf(i), channel: 1, purpose: "live" }, 60_000);
  }
  console.log(JSON.stringify({ port: listener.port }));
  await sleep(warmup * 1000);
  const cpu0 = cpuTicks();
  const t0 = performance.now();
  let rssMax = 0;
  let heapMax = 0;
  let externalMax = 0;
  const sampler = setInterval(() => {
    rssMax = Math.max(rssMax, rssBytes());
    const m = Deno.memoryUsage();
    heapMax = Math.max(heapMax, m.heapUsed);
    externalMax = Math.max(externalMax, m.external);
  }, 500);
  await sleep(seconds * 1000);
  clearInterval(sampler);
  const cpu = (cpuTicks() - cpu0) / 100 / ((performance.now() - t0) / 1000);
  const streams = hub.streams();
  const bytesIn = streams.reduce((n, s) => n + s.bytesIn, 0);
  delays.sort((a, b) => a - b);
  console.log(JSON.stringify({
    cpu,
    rssMax,
    heapMax,
    externalMax,
    segments,
    streams: streams.length,
    playing: streams.filter((s) => hub.playlist(s.key) !== null).length,
    p50: pct(delays, 0.5),
    p99: pct(delays, 0.99),
    max: delays[delays.length - 1] ?? null,
    bytesIn,
  }));
  hub.dispose();
  await listener.close();
  Deno.exit(0);
}

async function main(): Promise<void> {
  const channels = Number(args.channels);
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      new URL(import.meta.url).pathname,
      "--hub-child",
      "--seconds",
      String(seconds),
      "--warmup",
      String(warmup),
      "--channels",
      String(channels),
    ],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  const nextLine = async (): Promise<string> => {
    while (!buffered.includes("\n")) {
      const { value, done } = await lines.read();
      if (done) throw new Error("hub process ended");
      buffered += value;
    }
    const i = buffered.indexOf("\n");
    const line = buffered.slice(0, i);
    buffered = buffered.slice(i + 1);
    return line;
  };
  const { port } = JSON.parse(await nextLine());
  const clip = await benchClip();
  const clipBits = clip.frames.reduce((n, f) => n + f.length, 0) * 8;
  const bitrate = clipBits / (clip.frames.length / clip.fps);
  const stop = new AbortController();
  const streams = Array.from(
    { length: channels },
    (_, i) =>
      sleep((i * 1000) / channels).then(() =>
        streamClip({
          host: "127.0.0.1",
          port,
          sim: simOf(i),
          channel: 1,
          clip,
          loop: true,
          signal: stop.signal,
        })
      ),
  );
  const result = JSON.parse(await nextLine());
  stop.abort();
  await Promise.allSettled(streams);
  await child.status;
  const ms = (v: number | null) => (v === null ? "-" : `${Math.round(v)} ms`);
  console.log(
    [
      `bench:video — ${channels} channels × ${
        (bitrate / 1e6).toFixed(2)
      } Mbit/s (640x360, 15 fps, 1 s GOP) + G.711A audio (→ FLAC) ` +
      `over loopback, ${seconds} s measured after ${warmup} s warm-up, ${navigator.hardwareConcurrency} cores`,
      `  streams in the hub: ${result.streams}, with a playlist: ${result.playing}`,
      `  hub process CPU: ${(result.cpu * 100).toFixed(1)} % of one core ` +
      `(${((result.cpu / navigator.hardwareConcurrency) * 100).toFixed(1)} % of the machine)`,
      `  hub process RSS (max): ${mb(result.rssMax)} MB (JS heap used ${mb(result.heapMax)} MB, ` +
      `buffers ${mb(result.externalMax)} MB)`,
      `  segments published: ${result.segments}; oldest frame's arrival → segment in the playlist: ` +
      `p50 ${ms(result.p50)}, p99 ${ms(result.p99)}, max ${ms(result.max)}`,
      `  received: ${((result.bytesIn * 8) / 1e6 / (seconds + warmup)).toFixed(1)} Mbit/s of media`,
    ].join("\n"),
  );
}

function mb(bytes: number): string {
  return (bytes / 1024 / 1024).toFixed(0);
}

function simOf(i: number): string {
  return String(13900000000 + i).padStart(12, "0");
}

function pct(sorted: number[], p: number): number | null {
  if (!sorted.length) return null;
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

/** utime + stime of this process in clock ticks (USER_HZ 100). */
function cpuTicks(): number {
  const stat = Deno.readTextFileSync("/proc/self/stat");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return Number(fields[11]) + Number(fields[12]);
}

function rssBytes(): number {
  const m = Deno.readTextFileSync("/proc/self/status").match(/VmRSS:\s+(\d+) kB/);
  return m ? Number(m[1]) * 1024 : 0;
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
