/**
 * `deno task dev`: builds the islands in dev mode, runs main.ts, and on every change
 * rebuilds the client bundles and restarts the server.
 */
import { buildIslands } from "./scripts/build.ts";
import { RUN_MAIN_ARGS } from "./lib/deno_child.ts";

const root = new URL(".", import.meta.url).pathname;
const WATCHED = [
  "app",
  "islands",
  "components",
  "routes",
  "lib",
  "modules",
  "locales",
  "static",
  "main.ts",
];

let server: Deno.ChildProcess | null = null;

async function rebuild() {
  const started = performance.now();
  try {
    await buildIslands({ root, outDir: `${root}build`, dev: true });
    console.log(`[dev] client bundles built in ${Math.round(performance.now() - started)} ms`);
  } catch (e) {
    console.error("[dev] build failed:", (e as Error).message);
  }
}

async function restart() {
  if (server) {
    try {
      server.kill("SIGTERM");
      await server.status;
    } catch { /* already gone */ }
  }
  server = new Deno.Command(Deno.execPath(), {
    args: RUN_MAIN_ARGS,
    cwd: root,
    stdout: "inherit",
    stderr: "inherit",
  }).spawn();
}

await rebuild();
await restart();

let timer: ReturnType<typeof setTimeout> | undefined;
const watcher = Deno.watchFs(WATCHED.map((p) => `${root}${p}`), { recursive: true });
for await (const event of watcher) {
  if (event.paths.every((p) => p.includes("/build/") || p.endsWith("~"))) continue;
  clearTimeout(timer);
  // Editors write several events per save; act once they settle.
  timer = setTimeout(async () => {
    await rebuild();
    await restart();
  }, 150);
}
