import assert from "node:assert/strict";

/**
 * Islands and components are written against the React API (`react`, mapped to preact/compat in
 * deno.json), so a React developer reads familiar imports and React libraries drop in. This
 * walks islands/ and components/ and fails on an import of `preact/hooks` (or `preact/compat`
 * spelled directly). Shared state keeps using `@preact/signals`.
 */

// Files allowed to import preact/hooks: none (the page-sized islands and the account tables
// converted when they were split). Never add one.
const NOT_YET_CONVERTED = new Set<string>([]);

const ROOT = new URL("../../", import.meta.url);
const PREACT_HOOKS = /(?:from\s+|import\s*\(\s*|import\s+)["'](preact\/hooks|preact\/compat)["']/;

async function* sources(dir: string): AsyncGenerator<string> {
  for await (const e of Deno.readDir(new URL(dir, ROOT))) {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory) yield* sources(path);
    else if (/\.(ts|tsx)$/.test(e.name)) yield path;
  }
}

async function offenders(): Promise<string[]> {
  const found: string[] = [];
  for (const dir of ["islands", "components"]) {
    for await (const path of sources(dir)) {
      const lines = (await Deno.readTextFile(new URL(path, ROOT))).split("\n");
      lines.forEach((line, i) => {
        const m = PREACT_HOOKS.exec(line);
        if (m && !NOT_YET_CONVERTED.has(path)) found.push(`${path}:${i + 1}: ${m[1]}`);
      });
    }
  }
  return found;
}

Deno.test("islands/ and components/ import hooks from react, not preact/hooks", async () => {
  const found = await offenders();
  assert.deepEqual(
    found,
    [],
    `import hooks from "react" (preact/compat), not preact:\n${found.join("\n")}`,
  );
});

Deno.test("the check sees a preact/hooks import", () => {
  assert.ok(PREACT_HOOKS.test('import { useState } from "preact/hooks";'));
  assert.ok(PREACT_HOOKS.test("const m = await import('preact/hooks');"));
  assert.ok(!PREACT_HOOKS.test('import { useState } from "react";'));
  assert.ok(!PREACT_HOOKS.test('import { signal } from "@preact/signals";'));
});
