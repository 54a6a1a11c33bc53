import assert from "node:assert/strict";

/**
 * Layers (docs/architecture.md): KV is touched only in store files — `modules/<m>/store.ts`,
 * a file named `*store*.ts`, a module's `store/` folder — in `lib/kv/`, and in the
 * composition root (`main.ts` opens it, `app/compose.ts` hands it to the stores). No module
 * imports another module's store: it uses that module's service, or a port declared in its
 * model/types. This walks every non-test source and fails on either.
 */
const ROOTS = ["modules", "app", "lib", "routes", "islands", "components", "scripts"];
const ROOT_FILES = ["main.ts", "dev.ts"];
const REPO = new URL("../", import.meta.url);

/** `kv.`, `.atomic(`, opening a KV, or the KV type used as a value (not in a type position). */
const KV_USE = [
  { name: "kv.", re: /\bkv\??\./ },
  { name: ".atomic(", re: /\.atomic\(/ },
  { name: "Deno.openKv", re: /\bDeno\.openKv\b/ },
  { name: "Deno.Kv", re: /\bDeno\.Kv\b(?!Key|Entry|U64|ListIterator|ListSelector)/ },
];

/** Where KV may be touched: stores, lib/kv/ and the composition root. */
export function kvAllowed(path: string): boolean {
  return isStore(path) || path.startsWith("lib/kv/") || path === "main.ts" ||
    path === "app/compose.ts";
}

/** A store file: modules/<m>/…/store.ts, *store*.ts, or inside a store/ folder. */
export function isStore(path: string): boolean {
  const name = path.split("/").at(-1)!;
  return /store/.test(name) || path.split("/").slice(0, -1).includes("store");
}

/** The module a path belongs to (modules/<m>/…), or null. */
function moduleOf(path: string): string | null {
  const m = /^modules\/([^/]+)\//.exec(path);
  return m ? m[1] : null;
}

/** Every import specifier of a source (static, dynamic, re-exports, type-only). */
function imports(text: string): string[] {
  const out: string[] = [];
  const re = /(?:from\s+|import\s*\(\s*|import\s+)["']([^"']+)["']/g;
  for (let m; (m = re.exec(text));) out.push(m[1]);
  return out;
}

/** Resolves a relative specifier against the importing file's path (repo-relative). */
function resolve(from: string, spec: string): string | null {
  if (!spec.startsWith(".")) return null;
  const parts = from.split("/").slice(0, -1);
  for (const p of spec.split("/")) {
    if (p === "..") parts.pop();
    else if (p !== ".") parts.push(p);
  }
  return parts.join("/");
}

/** Strips comments, so prose mentioning `kv.` or a store does not count. */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, " "))
    .replace(/(^|[^:"'`])\/\/.*$/gm, "$1");
}

async function* sources(dir: string): AsyncGenerator<string> {
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(new URL(dir, REPO))];
  } catch {
    return; // a root that does not exist (yet)
  }
  for (const e of entries) {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory) yield* sources(path);
    else if (/\.tsx?$/.test(e.name) && !/_test\.tsx?$/.test(e.name) && !isTestSupport(path)) {
      yield path;
    }
  }
}

/** Test helpers live beside the code (test_support.ts, test_device.ts): not sources. */
function isTestSupport(path: string): boolean {
  return /(^|\/)test_[a-z_]+\.ts$/.test(path) || path.includes("/_test/");
}

async function allSources(): Promise<string[]> {
  const out = [...ROOT_FILES];
  for (const root of ROOTS) for await (const p of sources(root)) out.push(p);
  return out;
}

export function kvOffences(path: string, text: string): string[] {
  if (kvAllowed(path)) return [];
  const out: string[] = [];
  code(text).split("\n").forEach((line, i) => {
    for (const { name, re } of KV_USE) {
      if (re.test(line)) out.push(`${path}:${i + 1}: ${name} — ${line.trim()}`);
    }
  });
  return out;
}

export function storeImportOffences(path: string, text: string): string[] {
  const mine = moduleOf(path);
  if (!mine) return [];
  const out: string[] = [];
  for (const spec of imports(code(text))) {
    const target = resolve(path, spec);
    if (!target || !isStore(target)) continue;
    const theirs = moduleOf(target);
    if (theirs && theirs !== mine) out.push(`${path}: imports ${target}`);
  }
  return out;
}

/**
 * Imports of another module's store that are still to be replaced by a service or a port
 * (the account store above all). The list may only shrink: a new entry fails the test, and
 * so does an entry that no longer happens.
 */
const KNOWN_STORE_IMPORTS: string[] = [];

Deno.test("KV is touched only in stores, lib/kv/ and the composition root", async () => {
  const offences: string[] = [];
  for (const path of await allSources()) {
    offences.push(...kvOffences(path, await Deno.readTextFile(new URL(path, REPO))));
  }
  assert.deepEqual(offences, [], `KV outside the stores:\n${offences.join("\n")}`);
});

Deno.test("no module imports another module's store", async () => {
  const offences: string[] = [];
  for (const path of await allSources()) {
    offences.push(...storeImportOffences(path, await Deno.readTextFile(new URL(path, REPO))));
  }
  assert.deepEqual(
    offences.filter((o) => !KNOWN_STORE_IMPORTS.includes(o)),
    [],
    `modules importing another module's store:\n${offences.join("\n")}`,
  );
  const gone = KNOWN_STORE_IMPORTS.filter((o) => !offences.includes(o));
  assert.deepEqual(gone, [], "fixed: remove these from KNOWN_STORE_IMPORTS");
});

/**
 * Routes parse, call a service and shape the answer: a `modules/<m>/routes.ts` imports no
 * store file at all, not even its own module's (rules and records are the services').
 */
export function routeStoreImports(path: string, text: string): string[] {
  if (!/^modules\/[^/]+\/routes\.ts$/.test(path)) return [];
  return imports(code(text)).map((spec) => resolve(path, spec))
    .filter((target): target is string => !!target && isStore(target))
    .map((target) => `${path}: imports ${target}`);
}

Deno.test("routes import no store", async () => {
  const offences: string[] = [];
  for (const path of await allSources()) {
    offences.push(...routeStoreImports(path, await Deno.readTextFile(new URL(path, REPO))));
  }
  assert.deepEqual(offences, [], `routes importing a store:\n${offences.join("\n")}`);
  // Would fail before the layers change: the working-mode routes called both stores.
  assert.deepEqual(
    routeStoreImports(
      "modules/workmodes/routes.ts",
      'import type { WorkModeStore } from "./store.ts";\nimport { x } from "./service.ts";',
    ),
    ["modules/workmodes/routes.ts: imports modules/workmodes/store.ts"],
  );
  assert.deepEqual(
    routeStoreImports("modules/devices/service.ts", 'import { S } from "./store.ts";'),
    [],
  );
});

Deno.test("the boundary checks catch what they are for", () => {
  // Would fail before the layers change: the ingest wrote device states itself.
  assert.equal(
    kvOffences("modules/gateway/ingest/ingest.ts", "const op = this.kv.atomic();")
      .length,
    2,
  );
  assert.equal(kvOffences("app/app.ts", 'await s.kv.get(["health"]);').length, 1);
  assert.equal(kvOffences("modules/x/service.ts", "constructor(kv: Deno.Kv) {}").length, 1);
  // Stores, lib/kv/ and the composition root may; comments and key types do not count.
  assert.deepEqual(kvOffences("modules/x/store.ts", "this.kv.atomic()"), []);
  assert.deepEqual(kvOffences("modules/x/code_store.ts", "this.kv.get(k)"), []);
  assert.deepEqual(kvOffences("lib/kv/open.ts", "Deno.openKv(p)"), []);
  assert.deepEqual(
    kvOffences("modules/x/a.ts", "// the kv.get above\nconst k: Deno.KvKey = [];"),
    [],
  );
  assert.deepEqual(
    storeImportOffences(
      "modules/workmodes/routes.ts",
      'import type { S } from "../commands/store.ts";',
    ),
    ["modules/workmodes/routes.ts: imports modules/commands/store.ts"],
  );
  assert.deepEqual(
    storeImportOffences(
      "modules/gateway/ingest/ingest.ts",
      'import { S } from "../link/store.ts";',
    ),
    [],
  );
});
