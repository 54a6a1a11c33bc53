import assert from "node:assert/strict";
import { denoChildArgs } from "../deno_child.ts";
import {
  defaultDeviceConnections,
  descriptorReserve,
  readDescriptorLimits,
  UNKNOWN_LIMIT_CONNECTIONS,
} from "./fd_limits.ts";

Deno.test("descriptor reserve: 10 % and at least 256, never more than half the limit", () => {
  assert.equal(descriptorReserve(20_000), 2_000);
  assert.equal(descriptorReserve(1_048_576), 104_858);
  assert.equal(descriptorReserve(1_024), 256);
  assert.equal(descriptorReserve(300), 150);
  assert.equal(defaultDeviceConnections({ soft: 20_000, hard: 20_000 }), 18_000);
  assert.equal(defaultDeviceConnections({ soft: 1_024, hard: 4_096 }), 768);
  assert.equal(defaultDeviceConnections(null), UNKNOWN_LIMIT_CONNECTIONS);
});

Deno.test({
  name: "descriptor limits: getrlimit agrees with /proc/self/limits",
  ignore: Deno.build.os !== "linux",
  fn: () => {
    const limits = readDescriptorLimits();
    assert.ok(limits);
    const m = /^Max open files\s+(\d+)\s+(\d+)/m.exec(Deno.readTextFileSync("/proc/self/limits"));
    assert.ok(m);
    assert.deepEqual(limits, { soft: Number(m[1]), hard: Number(m[2]) });
  },
});

Deno.test({
  name: "descriptor limits: a soft limit below the hard one is raised to it",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    // In a child process: lower its own soft limit with setrlimit, then raise it back.
    const code = `
      import { Libc, RLIMIT_NOFILE } from "./lib/net/libc.ts";
      import { raiseDescriptorLimit } from "./lib/net/fd_limits.ts";
      const libc = new Libc();
      const cur = new BigUint64Array(2);
      libc.fn.getrlimit(RLIMIT_NOFILE, cur);
      libc.fn.setrlimit(RLIMIT_NOFILE, new BigUint64Array([512n, cur[1]]));
      console.log(JSON.stringify({ hard: Number(cur[1]), raised: raiseDescriptorLimit() }));
    `;
    const out = await new Deno.Command(Deno.execPath(), {
      args: denoChildArgs("eval", "--unstable-ffi", code),
      cwd: new URL("../../", import.meta.url).pathname,
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.ok(out.success, new TextDecoder().decode(out.stderr));
    const { hard, raised } = JSON.parse(new TextDecoder().decode(out.stdout));
    assert.deepEqual(raised, { soft: hard, hard, raisedFrom: 512 });
  },
});
