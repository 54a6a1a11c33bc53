/**
 * The test task's passes (issue 23): pass 1 runs every test on the default store (Deno KV) but
 * the browser tests, pass 2 runs the store-level tests again with TP_TEST_BACKEND=postgres (each
 * store on a PgKv, each server in cluster mode on its own database and the run's NATS), and pass 3
 * runs the browser tests on Deno KV at the same time as pass 2.
 *
 * Pass 2's rule: every test file that opens its store through tests/helpers/test_kv.ts (the
 * stores' tests, found by their `openTestKv(` call) or starts the product as a process
 * (`startServer(`: every file under tests/integration/ and the module tests that do), minus
 * KV_ONLY. Browser tests (tests/e2e/), the cluster test (tests/cluster/, on PostgreSQL in pass
 * 1 already), benches and the in-process API tests (tests/helpers/harness.ts, the same stores
 * through the routes; ~8 more minutes) stay on Deno KV, so the whole run stays well under CI's
 * 30 minutes. Any of them runs on PostgreSQL with `deno task test --backend=postgres <files>`.
 */
import { join, relative } from "node:path";
import { denoChildArgs } from "../lib/deno_child.ts";
import { writeAll, type Writer } from "../lib/net/write_all.ts";
import { failureReport, OutputTail, pumpKeepingTail } from "./test_failures.ts";

export type Backend = "kv" | "postgres" | "both";

/** Files pass 2 leaves out although they match its rule, with the reason. */
export const KV_ONLY: Readonly<Record<string, string>> = {
  "app/kv_boundary_test.ts": "checks the sources, opens no store",
  "tests/integration/compile_test.ts":
    "compiles the binary again (a minute or more); it runs the same main.ts as pass 2's servers",
};

const ROOT = new URL("../", import.meta.url).pathname;
/** Folders without tests of any pass. */
const NO_TEST_DIRS = new Set(["node_modules", "build", "dist", "data", ".git"]);
/** Pass 2 also leaves out the browser tests and the benches. */
const SKIPPED_DIRS = new Set([...NO_TEST_DIRS, "e2e", "bench"]);

/** Splits `--backend=…` off the arguments; the rest go to `deno test`. */
export function parseBackend(args: string[]): { backend: Backend; rest: string[] } {
  let backend: Backend = "both";
  const rest: string[] = [];
  for (const arg of args) {
    const m = /^--backend=(.*)$/.exec(arg);
    if (!m) {
      rest.push(arg);
    } else if (m[1] === "kv" || m[1] === "postgres" || m[1] === "both") {
      backend = m[1];
    } else {
      throw new Error(`--backend must be kv, postgres or both (got "${m[1]}")`);
    }
  }
  return { backend, rest };
}

/** Pass 2's test files (relative to the repository root), sorted. */
export async function postgresPassFiles(): Promise<string[]> {
  const files: string[] = [];
  for await (const path of testFiles(ROOT)) {
    const rel = relative(ROOT, path);
    if (rel in KV_ONLY || rel.startsWith("tests/cluster/")) continue;
    const text = await Deno.readTextFile(path);
    if (text.includes("openTestKv(") || text.includes("startServer(")) files.push(rel);
  }
  return files.sort();
}

async function* testFiles(dir: string, skipped = SKIPPED_DIRS): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory && !skipped.has(entry.name)) yield* testFiles(path, skipped);
    else if (entry.isFile && /_test\.tsx?$/.test(entry.name)) yield path;
  }
}

/**
 * The arguments of pass 2. Without paths: its whole set. With paths (files or folders) and
 * `--backend=both`, the given paths' files that are in its set (none: pass 2 is skipped); with
 * `--backend=postgres`, exactly the paths given. Other arguments (--filter …) go to both.
 */
export function postgresPassArgs(
  args: string[],
  backend: Backend,
  passFiles: string[],
): string[] | null {
  const paths = args.filter(isPath);
  if (paths.length === 0) return [...args, ...passFiles];
  if (backend === "postgres") return args;
  const wanted = passFiles.filter((f) => paths.some((p) => covers(p, f)));
  if (wanted.length === 0) return null;
  return [...args.filter((a) => !isPath(a)), ...wanted];
}

function isPath(arg: string): boolean {
  if (arg.startsWith("-")) return false;
  try {
    Deno.statSync(arg);
    return true;
  } catch {
    return false;
  }
}

/** Whether the given path (a file or a folder) takes in the file. */
function covers(given: string, file: string): boolean {
  const rel = relative(ROOT, join(Deno.cwd(), given));
  return rel === file || rel === "" || file.startsWith(`${rel}/`);
}

/**
 * What the test task type-checks once, before the passes: the paths given, or every test file.
 * The passes then run with --no-check: `deno test` type-checks only with node_modules in "auto"
 * mode, which rewrites the linked packages under the running servers (lib/deno_child.ts).
 */
export async function typeCheckTargets(args: string[]): Promise<string[]> {
  const paths = args.filter(isPath);
  if (paths.length) return paths;
  const files: string[] = [];
  for await (const path of testFiles(ROOT, NO_TEST_DIRS)) files.push(relative(ROOT, path));
  return files.sort();
}

/** The browser tests: with no paths given they are a pass of their own (pass 3). */
export const BROWSER_TESTS = "tests/e2e/";

/**
 * Pass 1's and pass 3's arguments. With no paths given, pass 1 leaves the browser tests out and
 * pass 3 runs them (beside pass 2: the run's two slowest parts share the wait); with paths,
 * pass 1 runs exactly them and there is no pass 3.
 */
export function browserSplit(args: string[]): { pass1: string[]; pass3: string[] | null } {
  if (args.some(isPath)) return { pass1: args, pass3: null };
  return { pass1: [...args, `--ignore=${BROWSER_TESTS}`], pass3: [...args, BROWSER_TESTS] };
}

/** Where a pass's output goes (the test task's own stdout and stderr). */
export interface PassOutput {
  stdout: Writer;
  stderr: Writer;
}

export interface PassResult {
  name: string;
  code: number;
  ms: number;
  /** What `deno test` said failed (its ERRORS section), when the pass failed. */
  failures?: string;
}

/**
 * Runs `deno test` with the arguments and environment; its exit code, how long it took and, when
 * it failed, its failure report. `buffered`: its output is held and printed whole when it ends (a
 * pass running beside another would otherwise interleave with it line by line).
 */
export async function runPass(
  name: string,
  args: string[],
  env: Record<string, string>,
  buffered = false,
  out: PassOutput = { stdout: Deno.stdout, stderr: Deno.stderr },
): Promise<PassResult> {
  const banner = new TextEncoder().encode(`\n=== ${name} ===\n\n`);
  if (!buffered) await writeAll(out.stderr, banner);
  const started = Date.now();
  const child = new Deno.Command(Deno.execPath(), {
    args: denoChildArgs("test", "-A", "--no-check", ...args),
    stdout: "piped",
    stderr: "piped",
    env,
  }).spawn();
  const tail = new OutputTail();
  let code: number;
  if (buffered) {
    const output = await child.output();
    await writeAll(out.stderr, banner);
    await writeAll(out.stderr, HELD);
    for (const [bytes, to] of [[output.stdout, out.stdout], [output.stderr, out.stderr]] as const) {
      tail.add(bytes);
      await writeAll(to, bytes);
    }
    code = output.code;
  } else {
    await Promise.all([
      pumpKeepingTail(child.stdout, out.stdout, tail),
      pumpKeepingTail(child.stderr, out.stderr, tail),
    ]);
    code = (await child.status).code;
  }
  const result: PassResult = { name, code, ms: Date.now() - started };
  if (code !== 0) result.failures = failureReport(tail.text);
  return result;
}

const HELD = new TextEncoder().encode(
  "(run beside the pass above; its output, held until it ended)\n\n",
);

export function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, "0")} s`;
}
