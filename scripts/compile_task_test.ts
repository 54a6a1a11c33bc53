/**
 * `deno task compile` must embed every worker module the product starts (a worker is no
 * static import, so `deno compile` leaves it out unless `--include`d, and the binary then
 * fails only when the worker starts: without the send thread, no device gets a reply) and
 * must run with the server's V8 flags.
 */
import assert from "node:assert/strict";
import { relative } from "node:path";
import { fileURLToPath as fromFileUrl } from "node:url";
import { SERVER_V8_ARG } from "../lib/v8_flags.ts";

const ROOT = fromFileUrl(new URL("../", import.meta.url));

/** The `deno compile …` arguments of deno.json's compile task. */
async function compileArgs(): Promise<string[]> {
  const config = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`));
  const step = (config.tasks.compile as string).split("&&").map((s) => s.trim())
    .find((s) => s.startsWith("deno compile "));
  assert.ok(step, `no "deno compile" step in the compile task: ${config.tasks.compile}`);
  return step.split(/\s+/).slice(2);
}

/** What the task `--include`s, as repository paths. */
function includes(args: string[]): string[] {
  const out: string[] = [];
  args.forEach((a, i) => {
    if (a === "--include") out.push(args[i + 1]);
    else if (a.startsWith("--include=")) out.push(a.slice("--include=".length));
  });
  return out.map((p) => p.replace(/^\.\//, "").replace(/\/$/, ""));
}

/** Repository files (not dependencies) in a module's static graph. */
async function localGraph(entry: string): Promise<string[]> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", entry],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
  const info = JSON.parse(new TextDecoder().decode(out.stdout));
  return (info.modules as { local?: string }[])
    .map((m) => m.local)
    .filter((p): p is string => !!p && p.startsWith(ROOT) && !p.includes("/node_modules/"));
}

const WORKER = /new Worker\(\s*new URL\(\s*["'`]([^"'`]+)["'`]\s*,\s*import\.meta\.url\s*\)/g;

/**
 * Every worker module the product can start: the workers named in main.ts's graph, then in
 * theirs, and so on. A `new Worker(` in any other form fails: it could not be checked.
 */
async function workerModules(): Promise<string[]> {
  const found = new Set<string>();
  const scanned = new Set<string>();
  const queue = [`${ROOT}main.ts`];
  while (queue.length) {
    for (const file of await localGraph(queue.shift()!)) {
      if (scanned.has(file)) continue;
      scanned.add(file);
      const text = await Deno.readTextFile(file);
      const named = [...text.matchAll(WORKER)];
      const all = text.match(/new Worker\(/g)?.length ?? 0;
      assert.equal(
        named.length,
        all,
        `${relative(ROOT, file)} starts a worker not as new Worker(new URL("…", import.meta.url))`,
      );
      for (const [, spec] of named) {
        const worker = fromFileUrl(new URL(spec, `file://${file}`));
        if (!found.has(worker)) queue.push(worker);
        found.add(worker);
      }
    }
  }
  return [...found].map((p) => relative(ROOT, p)).sort();
}

Deno.test("deno task compile includes every worker module the product starts", async () => {
  const included = includes(await compileArgs());
  const workers = await workerModules();
  // The scan works: the gateway's I/O worker and send thread are found.
  assert.ok(workers.includes("modules/gateway/transport/io_worker.ts"), workers.join(", "));
  assert.ok(workers.includes("modules/gateway/transport/send_worker.ts"), workers.join(", "));
  const missing = workers.filter((w) =>
    !included.some((inc) => w === inc || w.startsWith(`${inc}/`))
  );
  assert.deepEqual(missing, [], `add --include for: ${missing.join(", ")}`);
});

Deno.test("deno task compile runs the binary with the server's V8 flags", async () => {
  const args = await compileArgs();
  const entry = args.indexOf("main.ts");
  assert.ok(entry > 0, "the compile step's entry is main.ts");
  assert.ok(args.slice(0, entry).includes(SERVER_V8_ARG), `expected ${SERVER_V8_ARG}`);
});
