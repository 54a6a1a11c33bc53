/**
 * Several instances journaling into one store (cluster mode, issue 23): an acknowledged fix is
 * stored exactly once (identity: device, fix time, latitude, longitude), whichever instance
 * took it; two different fixes in one second are both kept.
 */
import assert from "node:assert/strict";
import type { StoredPosition } from "../devices/model.ts";
import { PositionStore } from "./store.ts";
import { openTestKv } from "../../tests/helpers/test_kv.ts";
import { storedFix } from "../../tests/helpers/stored_fix.ts";

const IMEI = "359710049095095";
const T0 = Date.UTC(2026, 10, 1, 8);

function fix(time: number, lat: number, lng: number): StoredPosition {
  return storedFix({ time, lat, lng, speed: 30, mileage: 100, battery: 80, signal: 4 });
}

/** Journals points through one instance's store; returns the seq it used. */
async function journal(
  s: PositionStore,
  kv: Deno.Kv,
  points: StoredPosition[],
): Promise<number> {
  const op = kv.atomic();
  const w = s.addJournal(op, [{ imei: IMEI, points }], Date.now());
  assert.ok((await op.commit()).ok);
  s.journaled(w);
  return w.seqs[0];
}

const keyOf = (p: StoredPosition) => `${p.time}/${p.lat}/${p.lng}`;

Deno.test("positions: two instances journaling in the same millisecond keep both chunks", async () => {
  const kv = await openTestKv();
  try {
    // Instances' seqs come from their clocks (at least one past the last seq they saw): seed a
    // chunk an hour ahead so both instances' next seq is the same one, whatever the timing.
    const seedFix = fix(T0, 22.4, 114.0);
    const seed = new PositionStore(kv, "inst-seed");
    const op = kv.atomic();
    const w = seed.addJournal(op, [{ imei: IMEI, points: [seedFix] }], Date.now());
    const ahead = (Date.now() + 3_600_000) * 1000;
    assert.ok((await kv.atomic().set(["pos", "jnl", ahead, "inst-seed"], w.chunks[0]).commit()).ok);
    const a = new PositionStore(kv, "inst-a"), b = new PositionStore(kv, "inst-b");
    await a.loadJournal();
    await b.loadJournal();
    const pa = fix(T0 + 2000, 22.5, 114.0), pb = fix(T0 + 3000, 22.6, 114.0);
    const [sa, sb] = [await journal(a, kv, [pa]), await journal(b, kv, [pb])];
    assert.equal(sa, sb, "two instances wrote chunks under the same seq");
    const sent = [seedFix, pa, pb];
    const reader = new PositionStore(kv, "inst-c");
    await reader.loadJournal();
    const read = await reader.range(IMEI, T0, T0 + 200_000);
    assert.deepEqual(read.map(keyOf).sort(), sent.map(keyOf).sort(), "no chunk overwritten");
    assert.equal(await reader.compactAll(Date.now() + 7_200_000), sent.length);
    const packed = await reader.range(IMEI, T0, T0 + 200_000);
    assert.deepEqual(packed.map(keyOf).sort(), sent.map(keyOf).sort());
  } finally {
    kv.close();
  }
});

Deno.test("positions: a fix re-sent through another instance is stored once; same-second fixes both", async () => {
  const kv = await openTestKv();
  try {
    const a = new PositionStore(kv, "inst-a"), b = new PositionStore(kv, "inst-b");
    const first = fix(T0, 22.5, 114.05);
    const sameSecond = fix(T0, 22.5001, 114.0502); // another real fix in the same second
    const later = fix(T0 + 5000, 22.501, 114.051);
    await journal(a, kv, [first, sameSecond]);
    // The device did not get A's acknowledgement (A died) and sends both again through B.
    await journal(b, kv, [first, sameSecond, later]);

    // Read merging the journal, on an instance that knows both chunks.
    const reader = new PositionStore(kv, "inst-c");
    await reader.loadJournal();
    const expected = [first, sameSecond, later].map(keyOf);
    assert.deepEqual((await reader.range(IMEI, T0 - 1, T0 + 10_000)).map(keyOf), expected);
    assert.deepEqual(
      [...await reader.fixTimes(IMEI, T0 - 1, T0 + 10_000)],
      [T0, T0, T0 + 5000],
    );
    assert.equal((await reader.validFixes(IMEI, T0 - 1, T0 + 10_000)).length, 3);

    // Packed into blocks (by the leader): each fix once.
    await reader.compactAll(Date.now() + 1000);
    assert.deepEqual((await reader.range(IMEI, T0 - 1, T0 + 10_000)).map(keyOf), expected);

    // Re-sent again after compaction (the late copy merges into the block): still once.
    await journal(a, kv, [first]);
    const fresh = new PositionStore(kv, "inst-d");
    await fresh.loadJournal();
    assert.deepEqual((await fresh.range(IMEI, T0 - 1, T0 + 10_000)).map(keyOf), expected);
    await fresh.compactAll(Date.now() + 1000);
    assert.deepEqual((await fresh.range(IMEI, T0 - 1, T0 + 10_000)).map(keyOf), expected);
    const json = JSON.parse(`[${await fresh.rangeJson(IMEI, T0 - 1, T0 + 10_000)}]`);
    assert.equal(json.length, 3, "the playback JSON lists each fix once");
  } finally {
    kv.close();
  }
});

Deno.test("positions: single mode keeps today's journal keys", async () => {
  const kv = await openTestKv();
  try {
    const s = new PositionStore(kv);
    await journal(s, kv, [fix(T0, 22.5, 114.05)]);
    const keys: Deno.KvKey[] = [];
    for await (const e of kv.list({ prefix: ["pos", "jnl"] })) keys.push(e.key);
    assert.equal(keys.length, 1);
    assert.equal(keys[0].length, 3, "[pos, jnl, seq]");
  } finally {
    kv.close();
  }
});
