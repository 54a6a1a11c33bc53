import assert from "node:assert/strict";
import {
  browserSplit,
  KV_ONLY,
  parseBackend,
  postgresPassArgs,
  postgresPassFiles,
  typeCheckTargets,
} from "./test_passes.ts";

Deno.test("test passes: --backend picks the passes, the other arguments go to deno test", () => {
  assert.deepEqual(parseBackend(["a_test.ts", "--filter", "x"]), {
    backend: "both",
    rest: ["a_test.ts", "--filter", "x"],
  });
  assert.deepEqual(parseBackend(["--backend=kv", "a_test.ts"]).backend, "kv");
  assert.deepEqual(parseBackend(["--backend=postgres"]).backend, "postgres");
  assert.throws(() => parseBackend(["--backend=mysql"]), /kv, postgres or both/);
});

Deno.test("test passes: pass 2 takes the store tests and the server tests, not e2e or KV-only ones", async () => {
  const files = await postgresPassFiles();
  assert.ok(files.includes("modules/wallet/store_test.ts"), "a store test (openTestKv)");
  assert.ok(files.includes("tests/integration/gateway_test.ts"), "an integration test");
  assert.ok(files.includes("modules/simulator/simulator_test.ts"), "a module test with a server");
  assert.ok(!files.some((f) => f.startsWith("tests/e2e/") || f.startsWith("tests/cluster/")));
  assert.ok(!files.some((f) => f in KV_ONLY));
  assert.ok(!files.includes("modules/accounts/isolation_test.ts"), "in-process API tests stay");
});

Deno.test("test passes: given paths narrow pass 2 to its own files, unless it is asked for", async () => {
  const files = await postgresPassFiles();
  assert.deepEqual(postgresPassArgs(["--filter", "x"], "both", files), ["--filter", "x", ...files]);
  assert.deepEqual(
    postgresPassArgs(["modules/wallet/", "--filter", "x"], "both", files),
    ["--filter", "x", "modules/wallet/store_test.ts"],
  );
  assert.equal(postgresPassArgs(["tests/e2e/wallet_e2e_test.ts"], "both", files), null);
  assert.deepEqual(
    postgresPassArgs(["tests/e2e/wallet_e2e_test.ts"], "postgres", files),
    ["tests/e2e/wallet_e2e_test.ts"],
  );
});

Deno.test("test passes: with no paths the browser tests are pass 3; with paths, pass 1 runs them", () => {
  assert.deepEqual(browserSplit(["--filter", "x"]), {
    pass1: ["--filter", "x", "--ignore=tests/e2e/"],
    pass3: ["--filter", "x", "tests/e2e/"],
  });
  assert.deepEqual(browserSplit(["tests/e2e/wallet_e2e_test.ts"]), {
    pass1: ["tests/e2e/wallet_e2e_test.ts"],
    pass3: null,
  });
});

Deno.test("test passes: the type check takes the given paths, or every test file (browser tests too)", async () => {
  assert.deepEqual(await typeCheckTargets(["modules/wallet/", "--filter", "x"]), [
    "modules/wallet/",
  ]);
  const all = await typeCheckTargets(["--filter", "x"]);
  assert.ok(all.includes("tests/e2e/wallet_e2e_test.ts"));
  assert.ok(all.includes("modules/wallet/store_test.ts"));
  assert.ok(all.includes("components/monitor/virtual_list_test.tsx"));
  assert.ok(!all.some((f) => f.startsWith("node_modules/") || f.startsWith("build/")));
});
