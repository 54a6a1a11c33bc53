/** PgKv's atomic commits under concurrency: two pools (as two instances) on one database. */
import assert from "node:assert/strict";
import { testPostgres } from "../../../tests/helpers/postgres.ts";
import { openPostgresStore } from "./store.ts";

const server = await testPostgres();
const opts = { sanitizeResources: false, sanitizeOps: false };

/** Increments a counter by check-and-set until its commit wins; returns the attempts. */
async function increment(kv: Deno.Kv, key: Deno.KvKey): Promise<number> {
  for (let attempt = 1;; attempt++) {
    const cur = await kv.get<number>(key);
    const res = await kv.atomic().check(cur).set(key, (cur.value ?? 0) + 1).commit();
    if (res.ok) return attempt;
  }
}

Deno.test({
  name: "PgKv atomic: concurrent check-and-set increments from two pools lose no update",
  ...opts,
  async fn() {
    const url = await server.createDatabase("atomic");
    const [a, b] = await Promise.all([openPostgresStore(url), openPostgresStore(url)]);
    try {
      const key = ["credits", "counter"];
      const worker = async (kv: Deno.Kv) => {
        let retries = 0;
        for (let i = 0; i < 25; i++) retries += (await increment(kv, key)) - 1;
        return retries;
      };
      const retries = await Promise.all([a.kv, a.kv, a.kv, b.kv, b.kv, b.kv].map(worker));
      assert.equal((await b.kv.get(key)).value, 150);
      // The workers really raced (some checks failed and were retried).
      assert.ok(retries.reduce((x, y) => x + y) > 0, "no contention happened");
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  },
});

Deno.test({
  name: "PgKv atomic: of many concurrent creates (check versionstamp null) exactly one wins",
  ...opts,
  async fn() {
    const url = await server.createDatabase("atomic");
    const [a, b] = await Promise.all([openPostgresStore(url), openPostgresStore(url)]);
    try {
      for (let round = 0; round < 10; round++) {
        const key = ["wallet", "code", round];
        const results = await Promise.all(
          Array.from(
            { length: 8 },
            (_, i) =>
              (i % 2 ? a : b).kv.atomic().check({ key, versionstamp: null }).set(key, i).commit(),
          ),
        );
        const winners = results.filter((r) => r.ok);
        assert.equal(winners.length, 1, `round ${round}`);
        const stored = await a.kv.get(key);
        assert.equal(stored.versionstamp, winners[0].ok && winners[0].versionstamp);
      }
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  },
});

Deno.test({
  name: "PgKv atomic: a plain set between a read and a check-and-set makes the check fail",
  ...opts,
  async fn() {
    const url = await server.createDatabase("atomic");
    const [a, b] = await Promise.all([openPostgresStore(url), openPostgresStore(url)]);
    try {
      const key = ["motion", "mark", "1"];
      await a.kv.set(key, 1);
      const read = await a.kv.get(key);
      await b.kv.set(key, 2);
      assert.equal((await a.kv.atomic().check(read).set(key, 3).commit()).ok, false);
      assert.equal((await a.kv.get(key)).value, 2);
      // Versionstamps come from one sequence: increasing across pools.
      const s1 = await a.kv.set(["motion", "x"], 1);
      const s2 = await b.kv.set(["motion", "x"], 2);
      assert.ok(s2.versionstamp > s1.versionstamp);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  },
});

Deno.test({
  name: "PgKv atomic: commits touching the same keys in opposite orders do not deadlock",
  ...opts,
  async fn() {
    const url = await server.createDatabase("atomic");
    const [a, b] = await Promise.all([openPostgresStore(url), openPostgresStore(url)]);
    try {
      const x = ["fleet", "x"], y = ["fleet", "y"];
      await Promise.all(
        Array.from(
          { length: 40 },
          (_, i) =>
            i % 2
              ? a.kv.atomic().sum(x, 1n).sum(y, 1n).commit()
              : b.kv.atomic().sum(y, 1n).sum(x, 1n).commit(),
        ),
      );
      const [vx, vy] = await a.kv.getMany<[Deno.KvU64, Deno.KvU64]>([x, y]);
      assert.equal(vx.value?.value, 40n);
      assert.equal(vy.value?.value, 40n);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  },
});

Deno.test("PgKv atomic: (stops this file's PostgreSQL)", async () => {
  await server.stop();
});
