/**
 * Every key prefix the store sources write or read has a module schema in the PostgreSQL
 * store (a new prefix without one would fail at run time in cluster mode).
 */
import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { MODULE_PREFIXES, moduleOf } from "./schemas.ts";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const KV_CALL = /\bkv\s*\.\s*(get|getMany|set|delete|list|atomic)\s*[<(]/;
/** A key literal: an array whose first element is a string, e.g. ["devices", imei]. */
const KEY_LITERAL = /\[\s*"([A-Za-z_][A-Za-z0-9_]*)"\s*,/g;

async function* storeSources(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) yield* storeSources(path);
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith("_test.ts")) yield path;
  }
}

Deno.test("schemas: every key prefix in the sources that use the store maps to a module schema", async () => {
  const unmapped: string[] = [];
  let prefixes = 0;
  for (const top of ["modules", "app", "lib"]) {
    for await (const path of storeSources(join(ROOT, top))) {
      const text = await Deno.readTextFile(path);
      if (!KV_CALL.test(text)) continue;
      for (const [, prefix] of text.matchAll(KEY_LITERAL)) {
        prefixes++;
        try {
          moduleOf(prefix);
        } catch {
          unmapped.push(`${relative(ROOT, path)}: "${prefix}"`);
        }
      }
    }
  }
  assert.ok(prefixes > 50, "the walk found the stores' key literals");
  assert.deepEqual([...new Set(unmapped)], [], "add these prefixes to MODULE_PREFIXES");
});

Deno.test("schemas: a prefix belongs to one module only", () => {
  const all = Object.values(MODULE_PREFIXES).flat();
  assert.equal(new Set(all).size, all.length);
  assert.throws(() => moduleOf("notAModule"), /"notAModule".*MODULE_PREFIXES/);
});
