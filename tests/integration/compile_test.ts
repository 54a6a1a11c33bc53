/**
 * `deno task compile` — the task itself, as an operator runs it — makes one executable with
 * the assets and workers embedded; this starts it, logs in, and has a device answered (the
 * gateway's I/O worker and send thread run from the binary).
 *
 * `deno compile` needs Deno's `denort` runtime, which it downloads (or takes from
 * DENORT_BIN). When the task fails, an empty module is compiled the same way: if that fails
 * too, `deno compile` cannot work on this machine and the test is reported as ignored with
 * the reason; if it succeeds, the failure is the product's and the test fails with it.
 */
import assert from "node:assert/strict";
import { ApiClient } from "../helpers/api_client.ts";
import { gt06Login } from "../helpers/gt06_frames.ts";
import { RawDevice } from "../helpers/raw_device.ts";
import { startServer } from "../helpers/server.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const BINARY = `${ROOT}dist/tracking-platform`;

async function run(args: string[], cwd: string): Promise<{ ok: boolean; output: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args,
    cwd,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const output = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  return { ok: out.success, output };
}

/** Why `deno compile` cannot work here at all (null when it can). */
async function compilerUnavailable(): Promise<string | null> {
  const dir = await Deno.makeTempDir({ prefix: "tp-compile-probe-" });
  try {
    await Deno.writeTextFile(`${dir}/probe.ts`, "export {};\n");
    const probe = await run(["compile", "--output", `${dir}/probe`, "probe.ts"], dir);
    return probe.ok ? null : probe.output;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const task = await run(["task", "compile"], ROOT);
const unavailable = task.ok ? null : await compilerUnavailable();
if (unavailable) {
  console.warn(
    `compile test ignored: deno compile cannot produce any executable here:\n${
      unavailable.slice(-400)
    }`,
  );
}

Deno.test({
  name: "deno task compile: the binary serves the console, logs in and answers a device",
  ignore: unavailable !== null,
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    assert.ok(task.ok, `deno task compile failed:\n${task.output}`);
    const server = await startServer({
      ADMIN_PASSWORD: "Admin12345",
      // An I/O worker, with epoll's send thread where it runs: both are worker modules.
      GATEWAY_WORKERS: "1",
    }, { command: [BINARY], cwd: await Deno.makeTempDir() });
    try {
      const api = await ApiClient.login(server.url, "admin", "Admin12345");
      const page = await fetch(`${server.url}/login`).then((r) => r.text());
      const asset = /src="(\/assets\/[^"]+\.js)"/.exec(page)?.[1];
      assert.ok(asset, "login page references a hashed asset");
      const res = await fetch(`${server.url}${asset}`);
      await res.body?.cancel();
      assert.equal(res.status, 200, "embedded asset is served");

      const imei = "359710049000011";
      const me = await api.call("/v3/new/account/current");
      await api.call("/v3/new/newEquipment/importEquipment", {
        userId: me.userId,
        mcType: "GT06N",
        imeis: [imei],
      });
      const port = Number(/GT06 (\d+)/.exec(server.output())?.[1]);
      const device = await RawDevice.open(port);
      try {
        await device.send(gt06Login(imei, 1));
        assert.equal((await device.take(10)).length, 10, "the login is answered");
      } finally {
        await device.done();
      }
    } finally {
      await server.stop();
    }
  },
});
