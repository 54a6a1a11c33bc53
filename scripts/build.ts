/**
 * Builds the client islands: finds islands/**\/*.tsx, bundles them plus the boot script with
 * `deno bundle --code-splitting` (one shared Preact), renames entry outputs to content-hashed
 * names and writes `<outDir>/assets/*` and `<outDir>/manifest.json`.
 *
 * CLI: `deno run -A scripts/build.ts [--dev]` builds into `<repo>/build`.
 * Set TP_TEST_ISLANDS=1 to include islands/_test/ fixtures.
 */
import { basename, dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { IslandManifest } from "../lib/islands/manifest.ts";

export interface BuildOptions {
  /** Project root: holds islands/ and deno.json. */
  root: string;
  /** Output folder; gets assets/, manifest.json and the scratch folders .entries/, .bundle/. */
  outDir: string;
  /** Unminified output with inline source maps. */
  dev?: boolean;
  /** Also build islands/_test/ (default: env TP_TEST_ISLANDS=1). */
  includeTest?: boolean;
  /** URL prefix of the assets folder (default "/assets/"). */
  publicPath?: string;
}

export interface IslandSource {
  /** Path under islands/ without extension, "/"-separated: "Foo", "_test/Counter". */
  name: string;
  /** Absolute file path. */
  file: string;
}

const CLIENT_MODULE = fileURLToPath(new URL("../lib/islands/client.ts", import.meta.url));

function envFlag(name: string): boolean {
  try {
    return Deno.env.get(name) === "1";
  } catch {
    return false;
  }
}

/** All island files under `<root>/islands`, sorted by name. */
export async function findIslands(root: string, includeTest = false): Promise<IslandSource[]> {
  const base = join(root, "islands");
  const found: IslandSource[] = [];
  async function walk(dir: string, prefix: string): Promise<void> {
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(dir)];
    } catch (err) {
      if (err instanceof Deno.errors.NotFound) return;
      throw err;
    }
    for (const entry of entries) {
      if (entry.name.startsWith(".")) continue;
      const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.isDirectory) {
        if (rel === "_test" && !includeTest) continue;
        await walk(join(dir, entry.name), rel);
      } else if (entry.isFile && entry.name.endsWith(".tsx") && !/_test\.tsx$/.test(entry.name)) {
        found.push({ name: rel.slice(0, -".tsx".length), file: join(dir, entry.name) });
      }
    }
  }
  await walk(base, "");
  return found.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

async function sha256Hex(data: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", data);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Import specifier from a generated entry in `fromDir` to `file`. */
function importPath(fromDir: string, file: string): string {
  const rel = relative(fromDir, file).replaceAll("\\", "/");
  return rel.startsWith(".") ? rel : `./${rel}`;
}

async function runBundle(root: string, bundleDir: string, entries: string[], dev: boolean) {
  const args = ["bundle", "--platform", "browser", "--format", "esm", "--code-splitting"];
  args.push(...(dev ? ["--sourcemap", "inline"] : ["--minify"]));
  try {
    await Deno.stat(join(root, "deno.json"));
    // The project's import map and links: `react*` resolves to preact/compat exactly as on the
    // server, for our code and for npm React libraries alike (one Preact in the bundle).
    args.push("--config", join(root, "deno.json"));
  } catch {
    // No config: deno's own discovery applies.
  }
  args.push("--outdir", bundleDir, ...entries);
  // Deno.execPath() is the running deno, also when started through `npx deno`.
  const out = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: root,
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  if (!out.success) {
    const text = new TextDecoder().decode(out.stderr) + new TextDecoder().decode(out.stdout);
    throw new Error(`deno bundle failed (exit ${out.code}):\n${text}`);
  }
}

// Static imports of sibling chunks in esbuild's output, e.g. `from"./chunk-AB12CD34.js"`.
const STATIC_IMPORT = /(?:\bfrom|\bimport)\s*["']\.\/([^"']+\.js)["']/g;

function staticImports(code: string): string[] {
  return [...code.matchAll(STATIC_IMPORT)].map((m) => m[1]);
}

export async function buildIslands(opts: BuildOptions): Promise<IslandManifest> {
  const root = resolve(opts.root);
  const outDir = resolve(opts.outDir);
  const publicPath = opts.publicPath ?? "/assets/";
  const includeTest = opts.includeTest ?? envFlag("TP_TEST_ISLANDS");
  const islands = await findIslands(root, includeTest);

  const entriesDir = join(outDir, ".entries");
  const bundleDir = join(outDir, ".bundle");
  await Deno.remove(entriesDir, { recursive: true }).catch(() => {});
  await Deno.remove(bundleDir, { recursive: true }).catch(() => {});
  await Deno.mkdir(entriesDir, { recursive: true });

  // Flat, index-named entries so output names never depend on island folder layout.
  const entryFiles: string[] = [];
  const entryName = new Map<string, string>(); // output base name -> asset base name
  const bootEntry = join(entriesDir, "boot.ts");
  await Deno.writeTextFile(
    bootEntry,
    `import { boot } from ${JSON.stringify(importPath(entriesDir, CLIENT_MODULE))};\nboot();\n`,
  );
  entryFiles.push(bootEntry);
  entryName.set("boot", "boot");
  for (const [i, island] of islands.entries()) {
    const file = join(entriesDir, `island_${i}.ts`);
    await Deno.writeTextFile(
      file,
      `export { default } from ${JSON.stringify(importPath(entriesDir, island.file))};\n`,
    );
    entryFiles.push(file);
    entryName.set(`island_${i}`, island.name.replaceAll("/", "_"));
  }

  await runBundle(root, bundleDir, entryFiles, opts.dev ?? false);

  // Entries get content-hashed names; esbuild's chunk-HASH.js names are kept. No output
  // imports an entry (shared code always moves into chunks), so renaming breaks nothing.
  const assetsDir = join(outDir, "assets");
  const staging = join(outDir, ".assets-new");
  await Deno.remove(staging, { recursive: true }).catch(() => {});
  await Deno.mkdir(staging, { recursive: true });
  const urlOf = new Map<string, string>(); // bundle file name -> public URL
  const imports = new Map<string, string[]>();
  const outputs = [...Deno.readDirSync(bundleDir)].filter((e) => e.isFile).sort((a, b) =>
    a.name < b.name ? -1 : 1
  );
  for (const entry of outputs) {
    if (!entry.name.endsWith(".js")) continue;
    const bytes = await Deno.readFile(join(bundleDir, entry.name));
    const code = new TextDecoder().decode(bytes);
    const stem = basename(entry.name, ".js");
    const assetBase = entryName.get(stem);
    const target = assetBase
      ? `${assetBase}-${(await sha256Hex(bytes)).slice(0, 8)}.js`
      : entry.name;
    if (!assetBase && !entry.name.startsWith("chunk-")) {
      throw new Error(`unexpected bundle output ${entry.name}`);
    }
    for (const dep of staticImports(code)) {
      if (entryName.has(basename(dep, ".js"))) {
        throw new Error(`${entry.name} imports entry ${dep}; entry renaming would break it`);
      }
    }
    await Deno.writeFile(join(staging, target), bytes);
    urlOf.set(entry.name, publicPath + target);
    imports.set(entry.name, staticImports(code));
  }

  const manifest: IslandManifest = { islands: {}, boot: "", preload: {} };
  manifest.boot = urlOf.get("boot.js") ?? "";
  for (const [i, island] of islands.entries()) {
    const url = urlOf.get(`island_${i}.js`);
    if (!url) throw new Error(`bundle produced no output for island ${island.name}`);
    manifest.islands[island.name] = url;
  }
  for (const [file, url] of urlOf) {
    const stem = basename(file, ".js");
    // Transitive static chunk imports, so the page can preload them all up front.
    const deps = new Set<string>();
    const queue = [...(imports.get(file) ?? [])];
    while (queue.length) {
      const dep = queue.shift()!;
      if (deps.has(dep)) continue;
      deps.add(dep);
      queue.push(...(imports.get(dep) ?? []));
    }
    if (deps.size && !stem.startsWith("chunk-")) {
      manifest.preload![url] = [...deps].sort().map((d) => urlOf.get(d) ?? publicPath + d);
    }
  }
  if (!manifest.boot) throw new Error("bundle produced no boot script");

  await Deno.remove(assetsDir, { recursive: true }).catch(() => {});
  await Deno.rename(staging, assetsDir);
  await Deno.writeTextFile(join(outDir, "manifest.json"), JSON.stringify(manifest, null, 2) + "\n");
  await Deno.remove(bundleDir, { recursive: true }).catch(() => {});
  return manifest;
}

if (import.meta.main) {
  const root = dirname(dirname(fileURLToPath(import.meta.url)));
  const started = performance.now();
  const manifest = await buildIslands({
    root,
    outDir: join(root, "build"),
    dev: Deno.args.includes("--dev"),
  });
  const count = Object.keys(manifest.islands).length;
  console.log(
    `built ${count} island(s) into build/ in ${Math.round(performance.now() - started)} ms`,
  );
}
