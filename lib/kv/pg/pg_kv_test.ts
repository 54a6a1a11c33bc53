import assert from "node:assert/strict";
import { testPostgres } from "../../../tests/helpers/postgres.ts";
import { openPostgresStore } from "./store.ts";

const server = await testPostgres();

Deno.test({
  name: "PgKv: set/get/list/atomic round trip on a fresh database",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const store = await openPostgresStore(await server.createDatabase("pgkv"));
    const kv = store.kv;
    try {
      assert.equal(await store.health(), "up");
      const r = await kv.set(["devices", "a"], { n: 1 });
      assert.equal(r.ok, true);
      assert.match(r.versionstamp, /^[0-9a-f]{20}$/);
      const got = await kv.get<{ n: number }>(["devices", "a"]);
      assert.deepEqual(got.value, { n: 1 });
      assert.equal(got.versionstamp, r.versionstamp);
      await kv.set(["devices", "b"], 2);
      const listed = [];
      for await (const e of kv.list({ prefix: ["devices"] })) listed.push([e.key, e.value]);
      assert.deepEqual(listed, [[["devices", "a"], { n: 1 }], [["devices", "b"], 2]]);
      const stale = await kv.atomic().check({ key: ["devices", "a"], versionstamp: null })
        .set(["devices", "a"], 3).commit();
      assert.equal(stale.ok, false);
      const fresh = await kv.atomic().check(got).set(["devices", "a"], 3).delete(["devices", "b"])
        .commit();
      assert.equal(fresh.ok, true);
      assert.deepEqual(
        (await kv.getMany([["devices", "a"], ["devices", "b"]])).map((e) => e.value),
        [
          3,
          null,
        ],
      );
      await kv.set(["pos", "blk", "123", Date.UTC(2026, 0, 2, 5)], new Uint8Array([1, 2, 3]));
      const blocks = [];
      for await (const e of kv.list({ prefix: ["pos", "blk", "123"] })) blocks.push(e.value);
      assert.deepEqual(blocks, [new Uint8Array([1, 2, 3])]);
    } finally {
      await store.close();
    }
  },
});

Deno.test({
  name: "PgKv: a key prefix with no module schema is refused, naming the prefix",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const store = await openPostgresStore(await server.createDatabase("pgkv"));
    try {
      await assert.rejects(() => store.kv.set(["noSuchModule", 1], 1), /"noSuchModule"/);
      assert.throws(() => store.kv.list({ prefix: ["noSuchModule"] }), /"noSuchModule"/);
    } finally {
      await store.close();
    }
  },
});

Deno.test("PgKv: (stops this file's PostgreSQL)", async () => {
  await server.stop();
});
