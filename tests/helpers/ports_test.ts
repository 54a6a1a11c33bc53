import assert from "node:assert/strict";
import { ephemeralStart, freePort, LOWEST, portBlock } from "./ports.ts";

Deno.test("test ports: blocks split the range below the ephemeral ports, none overlap", () => {
  assert.deepEqual(portBlock(undefined, 32_768), [10_000, 32_768]);
  const blocks = [0, 1, 2].map((i) => portBlock(`${i}/3`, 32_768));
  assert.deepEqual(blocks[0], [10_000, 17_589]);
  for (let i = 1; i < 3; i++) assert.equal(blocks[i][0], blocks[i - 1][1]);
  assert.ok(blocks[2][1] <= 32_768);
  for (const bad of ["3/3", "1", "a/b", "0/0"]) assert.throws(() => portBlock(bad), /i\/n/);
});

Deno.test("test ports: never an ephemeral one, never one handed out before, never a taken one", () => {
  const ephemeral = ephemeralStart();
  const seen = new Set<number>();
  const held: Deno.Listener[] = [];
  try {
    for (let i = 0; i < 200; i++) {
      const port = freePort();
      assert.ok(port >= LOWEST && port < ephemeral, `${port}`);
      assert.ok(!seen.has(port), `${port} twice`);
      seen.add(port);
      // Every other port is taken right after: the next ones must still be free to bind.
      if (i % 2 === 0) held.push(Deno.listen({ hostname: "127.0.0.1", port }));
    }
  } finally {
    for (const l of held) l.close();
  }
});
