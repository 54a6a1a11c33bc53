/**
 * Repeated JSON reads of a track come from the remembered blocks and the JSON cache, and
 * still see every change: a late point merged into a block, a history import.
 */
import assert from "node:assert/strict";
import type { StoredPosition } from "../devices/model.ts";
import { PositionStore } from "./store.ts";
import { openTestKv } from "../../tests/helpers/test_kv.ts";
import { storedFix } from "../../tests/helpers/stored_fix.ts";

const IMEI = "359710049095222";
const T0 = Date.UTC(2026, 9, 1);

function point(i: number): StoredPosition {
  return storedFix({
    time: T0 + i * 10_000,
    lat: 22.5 + i * 1e-5,
    lng: 114.05,
    speed: 30,
    altitude: 0,
  });
}

const times = (json: string) => [...json.matchAll(/"gpsTime":"([^"]+)"/g)].map((m) => m[1]);

Deno.test("track JSON reads: remembered blocks, and every later block change seen", async () => {
  const dir = await Deno.makeTempDir();
  const kv = await openTestKv(`${dir}/t.kv`);
  try {
    const s = new PositionStore(kv);
    await s.importHistory(IMEI, Array.from({ length: 8000 }, (_, i) => point(i)));
    const from = T0 + 100 * 10_000, to = T0 + 7000 * 10_000;
    const first = await s.rangeJson(IMEI, from, to);
    assert.equal(times(first).length, 6901);
    // Again, and a sub-range: the same points as `range` gives.
    assert.equal(await s.rangeJson(IMEI, from, to), first);
    const sub = await s.rangeJson(IMEI, from + 50_000, to - 50_000);
    assert.equal(times(sub).length, 6891);
    assert.deepEqual(
      times(sub),
      (await s.range(IMEI, from + 50_000, to - 50_000)).map((p) => new Date(p.time).toISOString()),
    );

    // A late point between two stored ones, packed by compaction: the next read has it.
    const late = { ...point(3000), time: T0 + 3000 * 10_000 + 5_000 };
    const op = kv.atomic();
    const w = s.addJournal(op, [{ imei: IMEI, points: [late] }], Date.now());
    assert.ok((await op.commit()).ok);
    s.journaled(w);
    assert.equal(times(await s.rangeJson(IMEI, from, to)).length, 6902);
    await s.compactAll(Infinity);
    const afterCompaction = await s.rangeJson(IMEI, from, to);
    assert.equal(times(afterCompaction).length, 6902);
    assert.ok(times(afterCompaction).includes(new Date(late.time).toISOString()));
    assert.equal(await s.rangeJson(IMEI, from, to), afterCompaction);

    // History imported after the stored points (a later range read before it): seen too.
    const later = T0 + 9000 * 10_000;
    assert.equal(times(await s.rangeJson(IMEI, from, later)).length, 7901);
    await s.importHistory(IMEI, Array.from({ length: 1000 }, (_, i) => point(8000 + i)));
    assert.equal(times(await s.rangeJson(IMEI, from, later)).length, 8901);
  } finally {
    kv.close();
    await Deno.remove(dir, { recursive: true });
  }
});
