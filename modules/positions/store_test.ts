import assert from "node:assert/strict";
import type { StoredPosition } from "../devices/model.ts";
import { PositionStore } from "./store.ts";
import {
  FIXED_BYTES_PER_POINT,
  MAX_BLOCK_BYTES,
  packBlock,
  splitIntoBlocks,
  unpackPoint,
} from "./codec.ts";
import { pointsJson } from "./json.ts";
import { packJournal, summarizeJournal, unpackJournal } from "./journal.ts";
import { openTestKv } from "../../tests/helpers/test_kv.ts";

const IMEI = "359710049095095";
const T0 = Date.UTC(2026, 10, 1);

function point(i: number, extra: Partial<StoredPosition> = {}): StoredPosition {
  return {
    time: T0 + i * 10_000,
    lat: 22.5 + i * 1e-5,
    lng: 114.05 + i * 1e-5,
    speed: 40 + (i % 20),
    course: (i * 7) % 360,
    altitude: 12.5,
    satellites: 9,
    posType: 1,
    valid: true,
    acc: i % 2 === 0,
    mileage: 1000 + i / 10,
    battery: 80,
    signal: 4,
    attributes: i % 5 === 0 ? { fuel: 31.5 } : {},
    ...extra,
  };
}

async function withStore(fn: (s: PositionStore, kv: Deno.Kv) => Promise<void>) {
  const dir = await Deno.makeTempDir();
  const kv = await openTestKv(`${dir}/t.kv`);
  try {
    await fn(new PositionStore(kv), kv);
  } finally {
    kv.close();
    await Deno.remove(dir, { recursive: true });
  }
}

async function write(s: PositionStore, kv: Deno.Kv, points: StoredPosition[], imei = IMEI) {
  const op = kv.atomic();
  const w = s.addJournal(op, [{ imei, points }], Date.now());
  assert.ok((await op.commit()).ok);
  s.journaled(w);
}

async function countKeys(kv: Deno.Kv, prefix: Deno.KvKey): Promise<number> {
  let n = 0;
  for await (const _ of kv.list({ prefix })) n++;
  return n;
}

Deno.test("codec: a block round-trips every field, unknowns included", () => {
  const pts = [
    point(0),
    point(1, { acc: null, mileage: null, battery: null, signal: null, valid: false }),
  ];
  const b = packBlock(pts);
  assert.deepEqual(unpackPoint(b, 0), pts[0]);
  assert.deepEqual(unpackPoint(b, 1), pts[1]);
});

Deno.test("codec: blocks stay under the KV value limit", () => {
  const pts = Array.from({ length: 5000 }, (_, i) => point(i));
  const blocks = splitIntoBlocks(pts);
  assert.ok(blocks.length > 1);
  assert.equal(blocks.flat().length, 5000);
  for (const b of blocks) assert.ok(b.length * FIXED_BYTES_PER_POINT < MAX_BLOCK_BYTES);
});

Deno.test("out-of-order points come back in time order; exact duplicates once", () =>
  withStore(async (s, kv) => {
    await write(s, kv, [point(3), point(1), point(2)]);
    await write(s, kv, [point(2), point(0)]); // a re-upload and a late point
    const got = await s.range(IMEI, T0, T0 + 60_000);
    assert.deepEqual(got.map((p) => p.time), [0, 1, 2, 3].map((i) => T0 + i * 10_000));
  }));

Deno.test("two fixes in one second at different places are both kept, before and after compaction", () =>
  withStore(async (s, kv) => {
    const first = point(1);
    const second = point(1, { lat: first.lat + 1e-4, speed: 12 });
    await write(s, kv, [point(0), first]);
    await write(s, kv, [second, point(2)]);
    const expected = [point(0), first, second, point(2)];
    assert.deepEqual(await s.range(IMEI, T0, T0 + 60_000), expected);
    assert.deepEqual(
      JSON.parse(`[${await s.rangeJson(IMEI, T0, T0 + 60_000)}]`).length,
      4,
      "playback JSON",
    );
    await s.compactAll(Number.MAX_SAFE_INTEGER);
    assert.deepEqual(await s.range(IMEI, T0, T0 + 60_000), expected, "from blocks");
    // A late second fix of a second already packed goes through the merging path.
    const third = point(1, { lng: first.lng + 1e-4 });
    await write(s, kv, [third]);
    await s.compactAll(Number.MAX_SAFE_INTEGER);
    const got = await s.range(IMEI, T0, T0 + 60_000);
    assert.equal(got.length, 5);
    assert.deepEqual(got.slice(1, 4), [first, second, third]);
  }));

Deno.test("compaction packs journal points into blocks without changing what a range returns", () =>
  withStore(async (s, kv) => {
    const pts = Array.from({ length: 3000 }, (_, i) => point(i));
    for (let i = 0; i < pts.length; i += 300) await write(s, kv, pts.slice(i, i + 300));
    const before = await s.range(IMEI, T0, T0 + 3000 * 10_000);
    const moved = await s.compactAll(Number.MAX_SAFE_INTEGER);
    assert.equal(moved, 3000);
    const after = await s.range(IMEI, T0, T0 + 3000 * 10_000);
    assert.deepEqual(after, before);
    assert.equal(await countKeys(kv, ["pos", "jnl"]), 0, "no journal chunks left");
    // A sub-range that starts inside a block.
    const mid = await s.range(IMEI, T0 + 1234 * 10_000, T0 + 1240 * 10_000);
    assert.deepEqual(
      mid.map((p) => p.time),
      Array.from({ length: 7 }, (_, i) => T0 + (1234 + i) * 10_000),
    );
  }));

Deno.test("a late point inside an already packed span is merged on the next compaction", () =>
  withStore(async (s, kv) => {
    await write(s, kv, [point(0), point(2), point(4)]);
    await s.compactAll(Number.MAX_SAFE_INTEGER);
    await write(s, kv, [point(3), point(2, { speed: 99 })]);
    await s.compactAll(Number.MAX_SAFE_INTEGER);
    const got = await s.range(IMEI, T0, T0 + 100_000);
    assert.deepEqual(got.map((p) => p.time), [0, 2, 3, 4].map((i) => T0 + i * 10_000));
    assert.equal(got[1].speed, 99, "the newer report of the same fix time wins");
  }));

Deno.test("compaction leaves chunks committed after the cutoff in the journal", () =>
  withStore(async (s, kv) => {
    await write(s, kv, [point(0), point(1)]);
    await new Promise((r) => setTimeout(r, 3));
    const cutoff = Date.now();
    await new Promise((r) => setTimeout(r, 3));
    await write(s, kv, [point(2)]);
    const moved = await s.compactAll(cutoff);
    assert.equal(moved, 2);
    assert.equal(await countKeys(kv, ["pos", "jnl"]), 1);
    const got = await s.range(IMEI, T0, T0 + 100_000);
    assert.equal(got.length, 3);
  }));

Deno.test("a device's last block is reopened by later rounds instead of one block per round", () =>
  withStore(async (s, kv) => {
    for (let round = 0; round < 10; round++) {
      await write(s, kv, Array.from({ length: 30 }, (_, i) => point(round * 30 + i)));
      await s.compactAll(Number.MAX_SAFE_INTEGER);
    }
    assert.equal(await countKeys(kv, ["pos", "blk", IMEI]), 1);
    const got = await s.range(IMEI, T0, T0 + 300 * 10_000);
    assert.deepEqual(
      got.map((p) => p.time),
      Array.from({ length: 300 }, (_, i) => T0 + i * 10_000),
    );
  }));

Deno.test("a restarted store finds journaled points again, for every device of a chunk", () =>
  withStore(async (s, kv) => {
    const other = "359710049095096";
    const op = kv.atomic();
    s.addJournal(op, [
      { imei: IMEI, points: [point(0), point(1)] },
      { imei: other, points: [point(5)] },
    ], Date.now());
    assert.ok((await op.commit()).ok);
    // No journaled() call: as if the process died right after the commit.
    const restarted = new PositionStore(kv);
    const seen: string[] = [];
    assert.equal(await restarted.loadJournal((c) => seen.push(...c.imeis)), 1);
    assert.deepEqual(seen, [IMEI, other]);
    assert.equal((await restarted.range(IMEI, T0, T0 + 100_000)).length, 2);
    assert.deepEqual((await restarted.range(other, T0, T0 + 100_000)).map((p) => p.time), [
      T0 + 50_000,
    ]);
  }));

Deno.test("journal: a large commit is split into chunks under the value limit", () => {
  const entries = Array.from({ length: 400 }, (_, d) => ({
    imei: String(359710049000000 + d),
    points: Array.from({ length: 10 }, (_, i) => point(i, { attributes: { alarm: "sos" } })),
  }));
  const chunks = packJournal(entries, 1);
  assert.ok(chunks.length > 1);
  const back = chunks.flatMap(unpackJournal);
  assert.equal(back.reduce((n, e) => n + e.points.length, 0), 4000);
  for (const c of chunks) {
    const bytes = c.block.n * FIXED_BYTES_PER_POINT +
      c.block.attributes.reduce((n, a) => n + a.length, 0);
    assert.ok(bytes < MAX_BLOCK_BYTES, `${bytes}`);
  }
  assert.deepEqual(back[0].points[3], entries[0].points[3]);
});

Deno.test("rangeJson gives the same points as range, from blocks, the journal and partial blocks", () =>
  withStore(async (s, kv) => {
    const pts = Array.from({ length: 2500 }, (_, i) => point(i));
    await write(s, kv, pts.slice(0, 400));
    await s.compactAll(Number.MAX_SAFE_INTEGER);
    await write(s, kv, pts.slice(400, 700));
    for (
      const [from, to] of [[T0, T0 + 10_000_000], [T0 + 55_000, T0 + 5_000_000], [
        T0 + 4_100_000,
        T0 + 6_000_000,
      ]]
    ) {
      const viaJson = JSON.parse(`[${await s.rangeJson(IMEI, from, to)}]`);
      const viaObjects = JSON.parse(
        `[${new TextDecoder().decode(pointsJson(await s.range(IMEI, from, to)))}]`,
      );
      assert.deepEqual(viaJson, viaObjects);
      assert.ok(viaJson.length > 0);
    }
    // Twice: the second answer comes from the block cache.
    assert.equal(
      await s.rangeJson(IMEI, T0, T0 + 10_000_000),
      await s.rangeJson(IMEI, T0, T0 + 10_000_000),
    );
  }));

Deno.test("journal: readings travel with their device, also for devices without points", () => {
  const readings = {
    hbTime: T0 + 5,
    acc: null,
    battery: 77,
    signal: 3,
    sleeping: true,
    poweredOff: false,
  };
  const [chunk] = packJournal([
    { imei: "a", points: [point(0)] },
    { imei: "b", points: [], readings },
    { imei: "c", points: [point(1)], readings: { ...readings, acc: true, battery: null } },
  ], 1);
  const back = unpackJournal(chunk);
  assert.deepEqual(back.map((d) => [d.imei, d.points.length]), [["a", 1], ["b", 0], ["c", 1]]);
  assert.equal(back[0].readings, undefined);
  assert.deepEqual(back[1].readings, readings);
  assert.deepEqual(back[2].readings, { ...readings, acc: true, battery: null });
});

Deno.test("journal summary: each device's newest point, last moving time and readings", () => {
  const readings = {
    hbTime: T0,
    acc: true,
    battery: 50,
    signal: 2,
    sleeping: false,
    poweredOff: false,
  };
  const [chunk] = packJournal([
    {
      imei: "a",
      points: [point(5, { speed: 60 }), point(9, { speed: 0 }), point(2, { speed: 80 })],
    },
    { imei: "b", points: [], readings },
    { imei: "c", points: [point(1, { speed: 3 }), point(1, { speed: 4 })] },
  ], 1);
  const [a, b, c] = summarizeJournal(chunk, 10);
  assert.equal(a.newest?.time, T0 + 90_000);
  assert.equal(a.movingAt, T0 + 50_000);
  assert.equal(b.newest, null);
  assert.deepEqual(b.readings, readings);
  assert.equal(c.newest?.speed, 4, "on equal times the later point wins");
  assert.equal(c.movingAt, null);
});

Deno.test("compactions started together run one after the other and lose nothing", () =>
  withStore(async (s, kv) => {
    for (let round = 0; round < 6; round++) {
      await write(s, kv, Array.from({ length: 40 }, (_, i) => point(round * 40 + i)));
    }
    const moved = await Promise.all([
      s.compactAll(Number.MAX_SAFE_INTEGER),
      s.compactAll(Number.MAX_SAFE_INTEGER),
    ]);
    assert.equal(moved[0] + moved[1], 240);
    const got = await s.range(IMEI, T0, T0 + 240 * 10_000);
    assert.equal(got.length, 240);
  }));
