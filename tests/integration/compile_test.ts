/**
 * `deno task compile` makes one executable with the assets embedded; this starts it and logs in.
 * `deno compile` needs Deno's `denort` runtime, which it downloads (or takes from DENORT_BIN);
 * where neither is possible the test is reported as ignored with the reason, never passed.
 */
import assert from "node:assert/strict";
import { startServer } from "../helpers/server.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const OUT = `${await Deno.makeTempDir({ prefix: "tp-bin-" })}/tracking-platform`;

async function compile(): Promise<{ ok: boolean; output: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "compile",
      "-A",
      "--include",
      "build",
      "--include",
      "static",
      "--output",
      OUT,
      "main.ts",
    ],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const output = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  return { ok: out.success, output };
}

const result = await compile();
const runtimeMissing = !result.ok &&
  /denort|download|dns error|failed to lookup|Import .* failed/i.test(result.output);
if (runtimeMissing) {
  console.warn(
    `compile test ignored: deno compile could not get its runtime here:\n${
      result.output.slice(-400)
    }`,
  );
}

Deno.test({
  name: "compiled binary serves the console and logs in",
  ignore: runtimeMissing,
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    assert.ok(result.ok, result.output);
    const server = await startServer({ ADMIN_PASSWORD: "Admin12345" }, {
      command: [OUT],
      cwd: await Deno.makeTempDir(),
    });
    try {
      const login = await fetch(`${server.url}/v3/new/account/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ account: "admin", password: "Admin12345" }),
      }).then((r) => r.json());
      assert.equal(login.code, 10000);
      const page = await fetch(`${server.url}/login`).then((r) => r.text());
      const asset = /src="(\/assets\/[^"]+\.js)"/.exec(page)?.[1];
      assert.ok(asset, "login page references a hashed asset");
      const res = await fetch(`${server.url}${asset}`);
      await res.body?.cancel();
      assert.equal(res.status, 200, "embedded asset is served");
    } finally {
      await server.stop();
    }
  },
});
