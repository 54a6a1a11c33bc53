import assert from "node:assert/strict";
import { DAY_END_KEEP_DAYS, MotionStore } from "./store.ts";
import type { OverspeedSegment } from "./types.ts";
import { openTestKv } from "../../tests/helpers/test_kv.ts";

const IMEI = "359710049400001";
const DAY = "2026-10-05";
const T = Date.parse(`${DAY}T00:00:00Z`);

function streaks(n: number, from = T): OverspeedSegment[] {
  return Array.from({ length: n }, (_, i) => ({
    imei: IMEI,
    start: from + i * 30_000,
    end: from + i * 30_000 + 20_000,
    limit: 100,
    maxSpeed: 120.5,
    avgSpeed: 110.25,
    lat: 22.123456,
    lng: 114.654321,
  }));
}

Deno.test("motion store: a large device-day spills into more values, each under the KV limit; a smaller rewrite removes the extra ones", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tp-motion-store-" });
  const kv = await openTestKv(`${dir}/tracking.kv`);
  try {
    const store = new MotionStore(kv);
    // ~2,000 streaks (~250 KB as JSON) would not fit one 64 KiB value.
    const batch = store.newBatch();
    await store.writeSegments([
      { imei: IMEI, kind: "overspeed", day: DAY, segments: streaks(2000), replace: false },
    ], batch);
    await batch.commit();
    const parts = [];
    for await (const e of kv.list({ prefix: ["motion", "seg", IMEI, "overspeed", DAY] })) {
      parts.push(e);
    }
    assert.ok(parts.length >= 4, `${parts.length} parts`);
    const back = await store.segments(IMEI, "overspeed", DAY, DAY);
    assert.equal(back.length, 2000);
    assert.deepEqual(back[1999], streaks(2000)[1999]);

    // Merging by identity: the same starts again change nothing but their values.
    const again = store.newBatch();
    const changed = streaks(10).map((s) => ({ ...s, maxSpeed: 130 }));
    await store.writeSegments([
      { imei: IMEI, kind: "overspeed", day: DAY, segments: changed, replace: false },
    ], again);
    await again.commit();
    const merged = await store.segments(IMEI, "overspeed", DAY, DAY);
    assert.equal(merged.length, 2000);
    assert.equal(merged[0].maxSpeed, 130);

    // A recompute replacing the day with 5 streaks leaves one value.
    const replace = store.newBatch();
    await store.writeSegments([
      { imei: IMEI, kind: "overspeed", day: DAY, segments: streaks(5), replace: true },
    ], replace);
    await replace.commit();
    const left = [];
    for await (const e of kv.list({ prefix: ["motion", "seg", IMEI, "overspeed", DAY] })) {
      left.push(e);
    }
    assert.equal(left.length, 1);
    assert.equal((await store.segments(IMEI, "overspeed", DAY, DAY)).length, 5);
  } finally {
    kv.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("motion store: recent days kept in memory merge like stored ones and follow a replace", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tp-motion-store-" });
  const kv = await openTestKv(`${dir}/tracking.kv`);
  try {
    const store = new MotionStore(kv);
    store.keepRecent(DAY);
    const write = async (segments: OverspeedSegment[], replace = false) => {
      const b = store.newBatch();
      await store.writeSegments(
        [{ imei: IMEI, kind: "overspeed", day: DAY, segments, replace }],
        b,
      );
      await b.commit();
    };
    await write(streaks(3));
    await write(streaks(2, T + 3_600_000));
    await write(streaks(1).map((s) => ({ ...s, maxSpeed: 150 })));
    // A second store on the same file reads what the first wrote from its memory.
    const fresh = new MotionStore(kv);
    const back = await fresh.segments(IMEI, "overspeed", DAY, DAY);
    assert.equal(back.length, 5);
    assert.equal(back[0].maxSpeed, 150);
    await write(streaks(1), true);
    await write(streaks(1, T + 7_200_000));
    assert.deepEqual(
      (await fresh.segments(IMEI, "overspeed", DAY, DAY)).map((s) => s.start),
      [T, T + 7_200_000],
    );
  } finally {
    kv.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("day-end states are written to expire after DAY_END_KEEP_DAYS (KV expireIn)", async () => {
  const kv = await openTestKv();
  try {
    const store = new MotionStore(kv);
    const seen: { key: Deno.KvKey; expireIn?: number }[] = [];
    const atomic = kv.atomic.bind(kv);
    kv.atomic = () => {
      const op = atomic();
      const set = op.set.bind(op);
      op.set = (key, value, options) => {
        seen.push({ key, expireIn: options?.expireIn });
        return set(key, value, options);
      };
      return op;
    };
    const batch = store.newBatch();
    store.setDayEnd(batch, "1", "2026-11-25", { state: {} as never, lastTime: 1 });
    await batch.commit();
    assert.equal(seen.length, 1);
    assert.equal(seen[0].expireIn, DAY_END_KEEP_DAYS * 86_400_000);
    assert.ok(await store.dayEndBefore("1", "2026-11-26"));
  } finally {
    kv.close();
  }
});
