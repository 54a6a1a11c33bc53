/**
 * `deno task simulate`: simulated GPS trackers driving around a city and reporting to the
 * gateway over their real protocols.
 *
 *   deno task simulate --devices 50 --protocol gt06 --import --account admin --password …
 *
 * Prints one status line per second; Ctrl-C stops cleanly (connections closed, summary).
 */
import type { ProtocolName } from "../modules/devices/models.ts";
import { ApiError, CODES, MODEL_FOR, PlatformApi } from "../modules/simulator/api.ts";
import { DEFAULT_IMEI_PREFIX, Simulator } from "../modules/simulator/simulator.ts";
import { parseCentre } from "../modules/simulator/routes.ts";
import type { VideoTerminalOptions } from "../modules/simulator/devices/jt808_video.ts";
import { testClip } from "../modules/simulator/video/clip.ts";
import { streamClip } from "../modules/simulator/video/streamer.ts";

const USAGE = `Usage: deno task simulate [options]

  --devices N            number of simulated trackers (default 10)
  --protocol P           gt06 | jt808 | h02 | osmand (default gt06)
  --host H               gateway host (default 127.0.0.1)
  --port P               gateway port (default: the protocol's, 5023/5015/5013/5055)
  --interval S           seconds between reports (default 10, at least 1)
  --imei-prefix D        IMEI prefix digits (default ${DEFAULT_IMEI_PREFIX}); IMEI = prefix +
                         zero-padded index + Luhn digit; JT/T 808 terminal = last 12 digits
  --start-index I        index of the first device (default 0)
  --seed N               random seed; the same seed gives the same drives (default 1)
  --centre C             shenzhen | berlin | "lat,lng" (default shenzhen)
  --alarms X             alarm rate multiplier, 0 = none (default 1)
  --reconnects X         connection drops per device and hour, 0 = none (default 0.5)
  --osmand-form F        query | json | mixed (default mixed)
  --duration S           stop after S seconds (default: run until Ctrl-C)
  --video                JT/T 808 terminals with a dashcam: answer live (0x9101/0x9102), history
                         (0x9205/0x9201/0x9202) by streaming the test clip over JT/T 1078, and
                         raise ADAS alarms whose picture they upload after 0x9208
  --video-alarms S       seconds between a terminal's ADAS alarms with --video (default 300)
  --import               import the simulated IMEIs under the account first
  --api URL              platform URL for --import (default http://127.0.0.1:8000)
  --account A            login for --import (default admin)
  --password P           password for --import (default: $ADMIN_PASSWORD)
  --help                 this text
`;

const PROTOCOLS: ProtocolName[] = ["gt06", "jt808", "h02", "osmand"];
const FLAGS = new Set(["import", "help", "video"]);

function parseArgs(args: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (!a.startsWith("--")) fail(`unexpected argument "${a}"`);
    const [name, inline] = a.slice(2).split(/=(.*)/s, 2);
    if (FLAGS.has(name)) {
      out[name] = "true";
    } else if (inline !== undefined) {
      out[name] = inline;
    } else {
      if (i + 1 >= args.length) fail(`--${name} needs a value`);
      out[name] = args[++i];
    }
  }
  return out;
}

function fail(message: string): never {
  console.error(`simulate: ${message}\n\n${USAGE}`);
  Deno.exit(2);
}

function num(value: string | undefined, name: string, fallback: number, min = 0): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < min) fail(`--${name} must be a number ≥ ${min}`);
  return n;
}

const KNOWN = new Set([
  "devices",
  "protocol",
  "host",
  "port",
  "interval",
  "imei-prefix",
  "start-index",
  "seed",
  "centre",
  "center",
  "alarms",
  "reconnects",
  "osmand-form",
  "duration",
  "video",
  "video-alarms",
  "import",
  "api",
  "account",
  "password",
  "help",
]);

const args = parseArgs(Deno.args);
if (args.help) {
  console.log(USAGE);
  Deno.exit(0);
}
for (const k of Object.keys(args)) if (!KNOWN.has(k)) fail(`unknown option --${k}`);

const protocol = (args.protocol ?? "gt06").toLowerCase() as ProtocolName;
if (!PROTOCOLS.includes(protocol)) fail(`--protocol must be one of ${PROTOCOLS.join(", ")}`);
const devices = Math.floor(num(args.devices, "devices", 10, 1));
const interval = num(args.interval, "interval", 10, 1);
const prefix = args["imei-prefix"] ?? DEFAULT_IMEI_PREFIX;
if (!/^\d{1,13}$/.test(prefix)) fail("--imei-prefix must be 1-13 digits");
const startIndex = Math.floor(num(args["start-index"], "start-index", 0));
if (String(startIndex + devices - 1).length > 14 - prefix.length) {
  fail(`${devices} devices from index ${startIndex} do not fit after prefix ${prefix}`);
}
const osmandForm = (args["osmand-form"] ?? "mixed") as "query" | "json" | "mixed";
if (!["query", "json", "mixed"].includes(osmandForm)) fail("--osmand-form: query, json or mixed");
let centre;
try {
  centre = parseCentre(args.centre ?? args.center ?? "shenzhen");
} catch (e) {
  fail((e as Error).message);
}
const duration = args.duration === undefined ? undefined : num(args.duration, "duration", 0, 1);
if (args.video && protocol !== "jt808") fail("--video needs --protocol jt808");
const video = args.video
  ? await dashcam(num(args["video-alarms"], "video-alarms", 300))
  : undefined;

await checkFileLimit(devices);

const problems = new Map<string, number>();
let lastProblem = "";
const sim = new Simulator({
  protocol,
  devices,
  host: args.host ?? "127.0.0.1",
  port: args.port === undefined ? undefined : Math.floor(num(args.port, "port", 0, 1)),
  intervalSeconds: interval,
  imeiPrefix: prefix,
  startIndex,
  seed: Math.floor(num(args.seed, "seed", 1)),
  centre,
  alarmScale: num(args.alarms, "alarms", 1),
  reconnectsPerHour: num(args.reconnects, "reconnects", 0.5),
  osmandForm,
  video,
  onProblem: (_imei, message) => {
    problems.set(message, (problems.get(message) ?? 0) + 1);
    lastProblem = message;
  },
  onCommand: (imei, text, reply) =>
    console.log(
      `  command for ${imei}: ${JSON.stringify(text)} → ${
        reply === null ? "(received)" : JSON.stringify(reply)
      }`,
    ),
});

if (args.import) {
  const base = args.api ?? "http://127.0.0.1:8000";
  const account = args.account ?? "admin";
  const password = args.password ?? Deno.env.get("ADMIN_PASSWORD");
  if (!password) fail("--import needs --password (or ADMIN_PASSWORD in the environment)");
  try {
    const api = await PlatformApi.login(base, account, password);
    const userId = await api.currentUserId();
    const r = await api.importDevices(userId, MODEL_FOR[protocol], sim.imeis, (done) => {
      if (sim.imeis.length > 1000) console.log(`  import ${done}/${sim.imeis.length}`);
    });
    console.log(
      `Imported ${r.imported} ${MODEL_FOR[protocol]} devices under "${account}"` +
        (r.existing ? `, ${r.existing} already registered` : "") +
        (r.failed.length
          ? `, ${r.failed.length} refused (${r.failed[0].imei}: ${r.failed[0].reason})`
          : ""),
    );
  } catch (e) {
    if (e instanceof ApiError && e.code === CODES.captchaIncorrect) {
      console.error(
        "simulate: the login needs a captcha. Start the server with CAPTCHA=off for automation.",
      );
    } else if (e instanceof TypeError) {
      console.error(`simulate: cannot reach ${base}: ${e.message}`);
    } else {
      console.error(`simulate: import failed: ${(e as Error).message}`);
    }
    Deno.exit(1);
  }
}

console.log(
  `Simulating ${devices} ${protocol} devices (${sim.imeis[0]}…${sim.imeis.at(-1)}) → ` +
    `${
      args.host ?? "127.0.0.1"
    }:${sim.port}, every ${interval} s around ${centre.name}. Ctrl-C stops.`,
);
sim.start();
const started = Date.now();
let lastFrames = 0;
let shownProblem = "";

function line(): string {
  const s = sim.stats;
  const secs = Math.round((Date.now() - started) / 1000);
  const rate = s.framesSent - lastFrames;
  lastFrames = s.framesSent;
  return `[${
    String(secs).padStart(4)
  }s] connected ${s.connected}/${devices}  frames ${s.framesSent} (+${rate}/s)  ` +
    `acks ${s.acks}  commands ${s.commands}  replies ${s.replies}  alarms ${s.alarms}  ` +
    `reconnects ${s.reconnects}  refused ${s.refused}  errors ${s.errors}`;
}

const ticker = setInterval(() => {
  console.log(line());
  if (lastProblem && lastProblem !== shownProblem) {
    console.log(`  last problem: ${lastProblem}`);
    shownProblem = lastProblem;
  }
}, 1000);

let stopping = false;
async function shutdown(reason: string): Promise<never> {
  if (stopping) Deno.exit(130); // second Ctrl-C: leave now
  stopping = true;
  clearInterval(ticker);
  console.log(`\n${reason}: closing ${devices} connections…`);
  await sim.stop();
  console.log(line());
  if (problems.size) {
    console.log("Problems seen:");
    for (const [m, n] of problems) console.log(`  ${n} × ${m}`);
  }
  Deno.exit(0);
}

Deno.addSignalListener("SIGINT", () => void shutdown("Interrupted"));
if (Deno.build.os !== "windows") {
  Deno.addSignalListener("SIGTERM", () => void shutdown("Terminated"));
}
if (duration !== undefined) {
  setTimeout(() => void shutdown(`${duration} s elapsed`), duration * 1000);
}

/** Each simulated TCP device holds one socket: warn before the process runs out of them. */
async function checkFileLimit(n: number): Promise<void> {
  if (Deno.build.os === "windows" || n < 500) return;
  try {
    const out = await new Deno.Command("sh", { args: ["-c", "ulimit -n"], stdout: "piped" })
      .output();
    const limit = Number(new TextDecoder().decode(out.stdout).trim());
    if (Number.isFinite(limit) && limit < n + 64) {
      console.warn(
        `simulate: the open-file limit is ${limit}, too low for ${n} connections. ` +
          `Raise it first: ulimit -n ${Math.max(65536, n + 1024)}`,
      );
    }
  } catch { /* no shell: carry on */ }
}

/** The simulated dashcam: two channels, the test clip over JT/T 1078, a picture on alarms. */
async function dashcam(alarmEverySeconds: number): Promise<VideoTerminalOptions> {
  const picture = await Deno.readFile(
    new URL("../modules/simulator/devices/alarm_picture.jpg", import.meta.url),
  );
  const clip = await testClip();
  return {
    alarmEverySeconds,
    picture,
    channels: 2,
    streamer: (o) => streamClip({ ...o, clip }).then(() => {}),
  };
}
