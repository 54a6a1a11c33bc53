/**
 * Position retention on a real PostgreSQL: blocks written through the store for old and recent
 * days; only the leader drops, and only the days past the retention.
 */
import assert from "node:assert/strict";
import { testPostgres } from "../../tests/helpers/postgres.ts";
import { PgLeadership } from "../cluster/pg_leader.ts";
import { partitionDays } from "./pg/partitions.ts";
import { openPostgresStore } from "./pg/store.ts";
import { startPositionRetention } from "./retention.ts";

const DAY = 86_400_000;

Deno.test({
  name: "position retention: the leader drops the days past POSITION_RETENTION_DAYS, others none",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const server = await testPostgres();
    const url = await server.createDatabase("retention");
    const store = await openPostgresStore(url);
    const leader = await PgLeadership.start(url);
    const follower = await PgLeadership.start(url);
    // The real clock: the leader's first pass (at start) uses it too.
    const now = Date.now();
    const day = (daysAgo: number) => new Date(now - daysAgo * DAY).toISOString().slice(0, 10);
    try {
      for (const daysAgo of [40, 31, 30, 1, 0]) {
        await store.kv.set(["pos", "blk", "dev1", now - daysAgo * DAY], new Uint8Array([daysAgo]));
      }
      const before = await partitionDays(store.pool);
      assert.equal(before.length, 5);
      const onFollower = startPositionRetention(store.pool, follower, 30, 60_000);
      assert.deepEqual(await onFollower.runOnce(now), [], "a follower drops nothing");
      onFollower.stop();
      const onLeader = startPositionRetention(store.pool, leader, 30, 60_000);
      const dropped = await onLeader.runOnce(now);
      onLeader.stop();
      assert.deepEqual(dropped, [day(40), day(31)]);
      assert.deepEqual(await partitionDays(store.pool), [day(30), day(1), day(0)]);
      const left = [];
      for await (const e of store.kv.list<Uint8Array>({ prefix: ["pos", "blk", "dev1"] })) {
        left.push(e.value[0]);
      }
      assert.deepEqual(left, [30, 1, 0]);
    } finally {
      await follower.close();
      await leader.close();
      await store.close();
      await server.stop();
    }
  },
});
