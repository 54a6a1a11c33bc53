/**
 * The reports' reads of tracks (TrackReader): fixTimes and validFixes answer exactly what
 * `range` holds — blocks, journal, a late point between them, each fix once — as columns.
 */
import assert from "node:assert/strict";
import type { StoredPosition } from "../devices/model.ts";
import { PositionStore } from "./store.ts";
import { openTestKv } from "../../tests/helpers/test_kv.ts";

const IMEI = "359710049095111";
const T0 = Date.UTC(2026, 10, 1);

function point(i: number, extra: Partial<StoredPosition> = {}): StoredPosition {
  return {
    time: T0 + i * 10_000,
    lat: 22.5 + i * 1e-5,
    lng: 114.05,
    speed: i % 90,
    course: 0,
    altitude: 0,
    satellites: 9,
    posType: i % 7 === 0 ? 2 : 1,
    valid: i % 11 !== 0,
    acc: true,
    mileage: null,
    battery: null,
    signal: null,
    attributes: {},
    ...extra,
  };
}

Deno.test("TrackReader: fixTimes and validFixes agree with range over blocks and journal", async () => {
  const dir = await Deno.makeTempDir();
  const kv = await openTestKv(`${dir}/t.kv`);
  try {
    const s = new PositionStore(kv);
    // A month-long history in blocks, then recent points in the journal: one late point
    // (between block points), and one fix sent twice (in a block and again in the journal).
    await s.importHistory(IMEI, Array.from({ length: 5000 }, (_, i) => point(i)));
    const late = point(2500.5),
      again = point(4999),
      recent = [5000, 5001, 5002].map((i) => point(i));
    const op = kv.atomic();
    const w = s.addJournal(op, [{ imei: IMEI, points: [late, again, ...recent] }], Date.now());
    assert.ok((await op.commit()).ok);
    s.journaled(w);

    const from = T0 + 1000 * 10_000, to = T0 + 5001 * 10_000;
    const all = await s.range(IMEI, from, to);
    assert.deepEqual([...await s.fixTimes(IMEI, from, to)], all.map((p) => p.time));
    const lbs = all.filter((p) => p.posType === 2).map((p) => p.time);
    assert.deepEqual([...await s.fixTimes(IMEI, from, to, (t) => t === 2)], lbs);

    const valid = all.filter((p) => p.valid);
    const cols = await s.validFixes(IMEI, from, to);
    assert.equal(cols.length, valid.length);
    assert.deepEqual([...cols.time], valid.map((p) => p.time));
    assert.deepEqual([...cols.speed], valid.map((p) => p.speed));
    assert.deepEqual([...cols.lat], valid.map((p) => p.lat));
    assert.deepEqual([...cols.lng], valid.map((p) => p.lng));
    assert.ok(cols.time.includes(late.time), "the late point is in its place");
  } finally {
    kv.close();
    await Deno.remove(dir, { recursive: true });
  }
});
