/** Positions blocks in daily partitions; retention drops whole days. */
import assert from "node:assert/strict";
import { testPostgres } from "../../../tests/helpers/postgres.ts";
import { openPostgresStore } from "./store.ts";
import { dropExpiredPositionPartitions, partitionDays } from "./partitions.ts";

const server = await testPostgres();
const opts = { sanitizeResources: false, sanitizeOps: false };
const DAY = 86_400_000;

Deno.test({
  name: "positions blocks: one partition per day, listed in order across days, old days dropped",
  ...opts,
  async fn() {
    const url = await server.createDatabase("parts");
    const store = await openPostgresStore(url);
    const other = await openPostgresStore(url);
    try {
      const t0 = Date.UTC(2026, 10, 20, 23, 30);
      const times = [t0, t0 + DAY / 2, t0 + 2 * DAY, t0 + 5 * DAY];
      for (const t of times) await store.kv.set(["pos", "blk", "86", t], new Uint8Array([t % 251]));
      await store.kv.set(["pos", "blk", "99", t0], new Uint8Array([1]));
      await store.kv.set(["pos", "last", "86"], { t: times[3] }); // not a block: records table
      assert.deepEqual(await partitionDays(store.pool), [
        "2026-11-20",
        "2026-11-21",
        "2026-11-22",
        "2026-11-25",
      ]);
      const listed = await Array.fromAsync(store.kv.list({ prefix: ["pos", "blk", "86"] }));
      assert.deepEqual(listed.map((e) => e.key[3]), times);
      const range = await Array.fromAsync(store.kv.list({
        start: ["pos", "blk", "86", t0 + 1],
        end: ["pos", "blk", "86", t0 + 3 * DAY],
      }, { reverse: true }));
      assert.deepEqual(range.map((e) => e.key[3]), [t0 + 2 * DAY, t0 + DAY / 2]);
      // A listing over all of "pos" merges the blocks table with the records table in key order.
      const all = await Array.fromAsync(store.kv.list({ prefix: ["pos"] }));
      assert.deepEqual(all.map((e) => e.key.slice(0, 3)), [
        ...times.map(() => ["pos", "blk", "86"]),
        ["pos", "blk", "99"],
        ["pos", "last", "86"],
      ]);

      // Retention 3 days on 2026-11-25 12:00: days before 2026-11-22 go.
      const now = Date.UTC(2026, 10, 25, 12);
      assert.deepEqual(await dropExpiredPositionPartitions(store.pool, 3, now), [
        "2026-11-20",
        "2026-11-21",
      ]);
      assert.deepEqual(await dropExpiredPositionPartitions(store.pool, 0, now), []);
      const kept = await Array.fromAsync(store.kv.list({ prefix: ["pos", "blk"] }));
      assert.deepEqual(kept.map((e) => e.key[3]), [t0 + 2 * DAY, t0 + 5 * DAY]);
      assert.equal((await store.kv.get(["pos", "blk", "86", t0])).value, null);
      assert.deepEqual((await store.kv.get(["pos", "last", "86"])).value, { t: times[3] });

      // An instance that knew the dropped day's partition re-creates it on a late write.
      await other.kv.set(["pos", "blk", "86", t0 + 1000], new Uint8Array([7]));
      await store.kv.set(["pos", "blk", "86", t0 + 2000], new Uint8Array([8]));
      assert.deepEqual(
        (await Array.fromAsync(store.kv.list({ prefix: ["pos", "blk", "86"] }, { limit: 2 })))
          .map((e) => e.value),
        [new Uint8Array([7]), new Uint8Array([8])],
      );
    } finally {
      await Promise.all([store.close(), other.close()]);
    }
  },
});

Deno.test("partitions: (stops this file's PostgreSQL)", async () => {
  await server.stop();
});
