/** openBackend on both modes: the KV file (no DATABASE_URL) and a real PostgreSQL. */
import assert from "node:assert/strict";
import { testPostgres } from "../../tests/helpers/postgres.ts";
import { freePort } from "../../tests/helpers/server.ts";
import { UnreachableError } from "../net/unreachable.ts";
import { openBackend } from "./open.ts";

Deno.test("openBackend: no DATABASE_URL opens the KV file under DATA_DIR, always healthy", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tp-backend-" });
  const backend = await openBackend({ DATA_DIR: dir });
  try {
    assert.equal(backend.kind, "kv");
    await backend.kv.set(["probe"], 1);
    assert.equal((await backend.kv.get(["probe"])).value, 1);
    assert.equal(await backend.health(), "up");
    assert.ok((await Deno.stat(`${dir}/tracking.kv`)).isFile);
  } finally {
    await backend.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("openBackend: DATABASE_URL opens the PostgreSQL store, healthy", async () => {
  const server = await testPostgres();
  const backend = await openBackend({
    DATA_DIR: "unused",
    DATABASE_URL: await server.createDatabase("backend"),
  });
  try {
    assert.equal(backend.kind, "postgres");
    await backend.kv.set(["devices", "probe"], { id: "probe" });
    assert.deepEqual((await backend.kv.get(["devices", "probe"])).value, { id: "probe" });
    assert.equal(await backend.health(), "up");
  } finally {
    await backend.close();
    await server.stop();
  }
});

Deno.test("openBackend: PostgreSQL out of reach is an UnreachableError without the password", async () => {
  const port = freePort();
  await assert.rejects(
    openBackend({ DATA_DIR: "unused", DATABASE_URL: `postgres://tp:secret@127.0.0.1:${port}/tp` }),
    (e) =>
      e instanceof UnreachableError && e.message.includes(`127.0.0.1:${port}`) &&
      !e.message.includes("secret"),
  );
});
