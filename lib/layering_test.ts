import assert from "node:assert/strict";

/**
 * lib/ holds framework pieces (HTTP conventions, islands, i18n, net, config, KV, events) and
 * knows no module: the composition root (app/) is where modules meet. This walks every
 * lib/ source, tests included, and fails on an import (static or dynamic, value or type)
 * that reaches into modules/ or app/.
 */
Deno.test("lib/ imports nothing from modules/ or app/", async () => {
  const root = new URL("./", import.meta.url);
  const offenders: string[] = [];
  for await (const path of sources(root)) {
    const text = await Deno.readTextFile(new URL(path, root));
    const lines = text.split("\n");
    lines.forEach((line, i) => {
      if (/(from\s+|import\s*\(\s*|import\s+)["'](\.\.\/)+(modules|app)\//.test(line)) {
        offenders.push(`lib/${path}:${i + 1}: ${line.trim()}`);
      }
    });
  }
  assert.deepEqual(offenders, [], `lib/ must not import modules:\n${offenders.join("\n")}`);
});

async function* sources(root: URL, dir = ""): AsyncGenerator<string> {
  for await (const e of Deno.readDir(new URL(dir || ".", root))) {
    const path = dir + e.name;
    if (e.isDirectory) yield* sources(root, `${path}/`);
    else if (/\.(ts|tsx)$/.test(e.name)) yield path;
  }
}
