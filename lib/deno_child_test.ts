import assert from "node:assert/strict";
import { denoChildArgs } from "./deno_child.ts";

const ROOT = new URL("../", import.meta.url).pathname;

/** The copy of the linked `react` package inside node_modules (deno.json "links"). */
function linkedReactCopy(): string {
  for (const entry of Deno.readDirSync(`${ROOT}node_modules/.deno`)) {
    if (entry.name.startsWith("react@")) {
      return `${ROOT}node_modules/.deno/${entry.name}/node_modules/react`;
    }
  }
  throw new Error("no react@ in node_modules/.deno (the parent process sets node_modules up)");
}

Deno.test("a deno child process loads npm packages through the linked react without copying it again", async () => {
  const copy = linkedReactCopy();
  const before = Deno.statSync(copy).mtime?.getTime();
  const out = await new Deno.Command(Deno.execPath(), {
    args: denoChildArgs(
      "eval",
      'import { List } from "react-window"; import { h } from "preact"; console.log(typeof List, typeof h);',
    ),
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  assert.equal(new TextDecoder().decode(out.stdout).trim(), "function function");
  // A child in "auto" mode would have removed and copied the package again (a new mtime): the
  // moment in which another process's `require("react")` fails.
  assert.equal(Deno.statSync(copy).mtime?.getTime(), before);
});
