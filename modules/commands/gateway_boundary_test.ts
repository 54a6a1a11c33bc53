import assert from "node:assert/strict";
import { dirname, join, relative } from "node:path";
import { fileURLToPath as fromFileUrl } from "node:url";

/**
 * The commands module and the gateway meet only through contract files: commands may import
 * the gateway's `types.ts` / `model.ts` files (the protocol contract with its typed commands,
 * LiveConnection, CommandDesk), the gateway imports nothing of the commands module (it sees
 * CommandService as the CommandDesk it declares); app/compose.ts hands the real objects over.
 * Before the protocols owned their commands, gateway/outgoing.ts imported the commands'
 * Encoding and commands/service.ts imported the gateway's outgoing.ts and connections.ts: a
 * cycle. Tests and test support (`*_test.ts`, `test_*.ts`) may use both sides.
 */
const ROOT = fromFileUrl(new URL("../../", import.meta.url));
const CONTRACT = /(^|\/)(types|model)\.ts$/;

Deno.test("commands ↔ gateway: no import cycle, only contract files cross", async () => {
  const offenders = [
    ...(await crossings("modules/commands", "modules/gateway"))
      .filter((c) => !CONTRACT.test(c.target)),
    ...await crossings("modules/gateway", "modules/commands"),
  ].map((c) => `${c.from} imports ${c.target}`);
  assert.deepEqual(offenders, [], offenders.join("\n"));
});

Deno.test("commands ↔ gateway boundary check sees real imports", async () => {
  // Guards the scan itself: the known contract import is found, resolved to its path.
  const found = await crossings("modules/commands", "modules/gateway");
  assert.ok(
    found.some((c) =>
      c.from === "modules/commands/service.ts" && c.target === "modules/gateway/types.ts"
    ),
    JSON.stringify(found),
  );
});

interface Crossing {
  from: string;
  target: string;
}

/** Imports (static, re-export, dynamic; value or type) from product files of `from` into `into`. */
async function crossings(from: string, into: string): Promise<Crossing[]> {
  const out: Crossing[] = [];
  for await (const file of sources(join(ROOT, from))) {
    const rel = relative(ROOT, file);
    if (/(_test\.tsx?$)|(\/test_[^/]*$)/.test(rel)) continue;
    const text = await Deno.readTextFile(file);
    for (const [, spec] of text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)["']([^"']+)["']/g)) {
      if (!spec.startsWith(".")) continue;
      const target = relative(ROOT, join(dirname(file), spec));
      if (target.startsWith(`${into}/`)) out.push({ from: rel, target });
    }
  }
  return out;
}

async function* sources(dir: string): AsyncGenerator<string> {
  for await (const e of Deno.readDir(dir)) {
    const path = join(dir, e.name);
    if (e.isDirectory) yield* sources(path);
    else if (/\.tsx?$/.test(e.name)) yield path;
  }
}
