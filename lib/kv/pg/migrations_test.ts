/** Migrations: applied once at open, safe when several instances start at the same moment. */
import assert from "node:assert/strict";
import pg from "pg";
import { testPostgres } from "../../../tests/helpers/postgres.ts";
import { openPostgresStore } from "./store.ts";
import { MIGRATIONS } from "./migrations.ts";

const server = await testPostgres();
const opts = { sanitizeResources: false, sanitizeOps: false };

Deno.test({
  name: "migrations: three instances opening a fresh database at once apply each exactly once",
  ...opts,
  async fn() {
    const url = await server.createDatabase("mig");
    const applied: string[][] = [];
    const stores = await Promise.all(
      [0, 1, 2].map(() =>
        openPostgresStore(url, { onMigrated: (ids) => applied.push(ids), poolSize: 2 })
      ),
    );
    try {
      assert.deepEqual(applied.flat().sort(), MIGRATIONS.map((m) => m.id).sort());
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const { rows } = await client.query(
          "SELECT id, count(*)::int AS n FROM tp_meta.migrations GROUP BY id",
        );
        assert.equal(rows.length, MIGRATIONS.length);
        assert.ok(rows.every((r: { n: number }) => r.n === 1));
        const schemas = await client.query(
          "SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name = 'records'",
        );
        assert.ok(schemas.rows[0].n >= 30, "one records table per module schema");
      } finally {
        await client.end();
      }
      // Every instance works on the schema the others migrated.
      await stores[0].kv.set(["devices", "1"], "a");
      assert.equal((await stores[2].kv.get(["devices", "1"])).value, "a");
      // Opening again applies nothing.
      const again = await openPostgresStore(url, { onMigrated: (ids) => applied.push(ids) });
      await again.close();
      assert.deepEqual(applied.at(-1), []);
    } finally {
      await Promise.all(stores.map((s) => s.close()));
    }
  },
});

Deno.test({
  name: "openPostgresStore: health is up, down once closed; an unreachable server fails the open",
  ...opts,
  async fn() {
    const store = await openPostgresStore(await server.createDatabase("mig"));
    assert.equal(await store.health(), "up");
    await store.close();
    assert.equal(await store.health(), "down");
    const port = new URL(server.adminUrl).port;
    await assert.rejects(() =>
      openPostgresStore(`postgres://postgres@127.0.0.1:${Number(port) + 1}/nope`)
    );
  },
});

Deno.test("migrations: (stops this file's PostgreSQL)", async () => {
  await server.stop();
});
