/**
 * `deno task test`: checks for a browser, builds the client bundles, starts one PostgreSQL and
 * one nats-server for the run, then runs every test on Deno KV (pass 1, the browser tests as
 * pass 3) and the store-level tests again on PostgreSQL (pass 2, beside pass 3;
 * scripts/test_passes.ts says which).
 * (Not named test.ts: `deno test` would pick that name up as a test module and recurse.)
 * `--backend=kv|postgres|both` (default both) picks the passes; other arguments go to
 * `deno test` (e.g. files or --filter).
 */
import { chromiumPath } from "../tests/helpers/browser.ts";
import { SYSTEM_FONTS } from "../modules/reports/export/font.ts";
import { startPostgres } from "../tests/helpers/postgres.ts";
import { startNats } from "../tests/helpers/nats.ts";
import {
  browserSplit,
  formatDuration,
  parseBackend,
  type PassResult,
  postgresPassArgs,
  postgresPassFiles,
  runPass,
  typeCheckTargets,
} from "./test_passes.ts";

const { backend, rest: testArgs } = parseBackend(Deno.args);

const INSTALL = "apt-get install -y chromium";
const browser = chromiumPath() ?? await installChromium();
if (!browser) {
  console.error(
    "\n*** No Chromium found. The end-to-end tests need it. Install it with:\n\n" +
      `    ${INSTALL}\n\n` +
      "(or set CHROMIUM_PATH to a Chromium/Chrome executable).\n",
  );
  Deno.exit(1);
}

// The PDF export tests need Debian's CJK font (the product itself falls back to an npm font).
const FONT_INSTALL = "apt-get install -y fonts-noto-cjk";
if (!SYSTEM_FONTS.some((f) => isFile(f.path)) && !await aptInstall("fonts-noto-cjk")) {
  console.error(
    `\n*** No CJK font for the PDF export tests. Install it with:\n\n    ${FONT_INSTALL}\n`,
  );
  Deno.exit(1);
}

// The video tests check the muxed HLS segments and MP4 downloads with ffprobe/ffmpeg (issue 20).
const FFMPEG_INSTALL = "apt-get install -y ffmpeg";
if (!onPath("ffprobe") && !await aptInstall("ffmpeg")) {
  console.error(
    `\n*** No ffmpeg/ffprobe for the video tests. Install it with:\n\n    ${FFMPEG_INSTALL}\n`,
  );
  Deno.exit(1);
}

// Cluster mode's tests (issue 23) run on a throwaway PostgreSQL and nats-server, and the cluster
// test puts HAProxy in front of the instances.
for (
  const [pkg, present] of [
    ["postgresql", () => isFile("/usr/lib/postgresql/15/bin/initdb")],
    ["nats-server", () => onPath("nats-server")],
    ["haproxy", () => onPath("haproxy")],
  ] as const
) {
  if (!present() && !await aptInstall(pkg)) {
    console.error(
      `\n*** No ${pkg} for the cluster-mode tests. Install it with:\n\n` +
        `    apt-get install -y ${pkg}\n`,
    );
    Deno.exit(1);
  }
}

function onPath(command: string): boolean {
  const dirs = (Deno.env.get("PATH") ?? "/usr/bin:/bin").split(":");
  return dirs.some((dir) => isFile(`${dir}/${command}`));
}

/** A fresh machine needs only the README's commands: as root with apt-get, fetch Debian's. */
async function installChromium(): Promise<string | null> {
  return await aptInstall("chromium") ? chromiumPath() : null;
}

/** Installs a Debian package when running as root where apt-get exists; false otherwise. */
async function aptInstall(pkg: string): Promise<boolean> {
  if (Deno.build.os !== "linux" || Deno.uid() !== 0 || !isFile("/usr/bin/apt-get")) return false;
  console.error(`No ${pkg} found: installing Debian's (apt-get install -y ${pkg})…`);
  const env = { DEBIAN_FRONTEND: "noninteractive" };
  if (await run(["update", "-qq"], env, "apt-get") !== 0) return false;
  return await run(["install", "-y", "-qq", pkg], env, "apt-get") === 0;
}

function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

async function run(
  args: string[],
  env: Record<string, string> = {},
  command = Deno.execPath(),
): Promise<number> {
  const child = new Deno.Command(command, {
    args,
    stdout: "inherit",
    stderr: "inherit",
    env,
  }).spawn();
  return (await child.status).code;
}

const buildCode = await run(["run", "-A", "scripts/build.ts"], { TP_TEST_ISLANDS: "1" });
if (buildCode !== 0) Deno.exit(buildCode);
// Type-checked once here, alone; the passes run with --no-check (scripts/test_passes.ts).
const checkCode = await run(["check", ...await typeCheckTargets(testArgs)]);
if (checkCode !== 0) Deno.exit(checkCode);

// One PostgreSQL and one NATS for the whole run (each test takes its own database).
const postgres = await startPostgres();
const nats = await startNats();
let stopping: Promise<void> | null = null;
const stopServices = () => stopping ??= nats.stop().then(() => postgres.stop());
// pg_ctl detaches the server: an interrupted run must still stop it.
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  Deno.addSignalListener(signal, () => void stopServices().finally(() => Deno.exit(130)));
}
const runEnv = {
  CHROMIUM_PATH: browser,
  TP_TEST_DATABASE_URL: postgres.adminUrl,
  TP_TEST_NATS_URL: nats.url,
};
const passes: PassResult[] = [];
try {
  const { pass1, pass3 } = backend === "postgres"
    ? { pass1: null, pass3: null }
    : browserSplit(testArgs);
  // Each pass its own block of test-server ports (tests/helpers/ports.ts): 2 and 3 run at once.
  const ports = (i: number) => ({ TP_TEST_PORT_BLOCK: `${i}/3` });
  if (pass1) passes.push(await runPass("pass 1: Deno KV", pass1, { ...runEnv, ...ports(0) }));
  const pass2 = backend === "kv"
    ? null
    : postgresPassArgs(testArgs, backend, await postgresPassFiles());
  // Passes 2 and 3 at once (TP_TEST_SERIAL=1: one after the other); pass 2's output is held.
  const serial = Deno.env.get("TP_TEST_SERIAL") === "1";
  const beside: Promise<PassResult>[] = [];
  if (pass3) {
    beside.push(runPass("pass 3: browser tests, Deno KV", pass3, { ...runEnv, ...ports(1) }));
  }
  if (pass2) {
    const env = { ...runEnv, ...ports(2), TP_TEST_BACKEND: "postgres" };
    if (serial) await Promise.all(beside);
    beside.push(runPass("pass 2: PostgreSQL", pass2, env, Boolean(pass3) && !serial));
  }
  passes.push(...(await Promise.all(beside)).sort((a, b) => a.name.localeCompare(b.name)));
} finally {
  await stopServices();
}
// What failed, again at the very end: CI keeps the tail of the output, and pass 1's own
// report is far above passes 2 and 3.
for (const p of passes.filter((p) => p.failures)) {
  console.error(`\n=== what failed in ${p.name} (repeated from its output) ===\n\n${p.failures}\n`);
}
for (const p of passes) {
  console.error(`${p.name}: ${p.code === 0 ? "ok" : "FAILED"} in ${formatDuration(p.ms)}`);
}
Deno.exit(passes.find((p) => p.code !== 0)?.code ?? 0);
