/**
 * `deno task bench:pg-store`: the PostgreSQL store (PgKv) under the positions store's two heavy
 * patterns, against a real PostgreSQL (TP_TEST_DATABASE_URL, or a throwaway server).
 *  1. batched writes: atomic commits of 500 keys (~300 B values, as a compaction round or a
 *     busy journal commit writes), sequential and from 4 concurrent writers;
 *  2. playback: one device's 31 days of blocks (3 × 48 KiB blocks a day among other devices'
 *     blocks) read with one list over its key range, as the track reader does.
 * Prints rows/s and read times; BENCH_COMMITS sets the commits per writer (default 40).
 */
import { testPostgres } from "../helpers/postgres.ts";
import { openPostgresStore } from "../../lib/kv/pg/store.ts";

const COMMITS = Number(Deno.env.get("BENCH_COMMITS") ?? 40);
const KEYS_PER_COMMIT = 500;
const DAY = 86_400_000;

const server = await testPostgres();
const store = await openPostgresStore(await server.createDatabase("bench"), { poolSize: 8 });
const kv = store.kv;

function payload(bytes: number, seed: number): Uint8Array {
  const out = new Uint8Array(bytes);
  for (let i = 0; i < bytes; i++) out[i] = (seed * 31 + i * 7) & 0xff;
  return out;
}

async function writer(id: number): Promise<void> {
  for (let c = 0; c < COMMITS; c++) {
    const op = kv.atomic();
    for (let k = 0; k < KEYS_PER_COMMIT; k++) {
      op.set(["pos", "jnl", id, c, k], payload(300, c + k));
    }
    const res = await op.commit();
    if (!res.ok) throw new Error("commit failed");
  }
}

async function timed(label: string, fn: () => Promise<number>): Promise<void> {
  const t0 = performance.now();
  const rows = await fn();
  const ms = performance.now() - t0;
  console.log(
    `${label}: ${rows} rows in ${ms.toFixed(0)} ms = ${(rows / ms * 1000).toFixed(0)} rows/s`,
  );
}

await timed(`writes, 1 writer × ${COMMITS} commits × ${KEYS_PER_COMMIT} keys`, async () => {
  await writer(0);
  return COMMITS * KEYS_PER_COMMIT;
});
await timed(`writes, 4 writers × ${COMMITS} commits × ${KEYS_PER_COMMIT} keys`, async () => {
  await Promise.all([1, 2, 3, 4].map(writer));
  return 4 * COMMITS * KEYS_PER_COMMIT;
});

// 31 days of blocks for the played device and 9 neighbours (interleaved keys, as in production).
const start = Date.UTC(2026, 9, 1);
const block = payload(48 * 1024, 7);
for (let day = 0; day < 31; day++) {
  const op = kv.atomic();
  for (let dev = 0; dev < 10; dev++) {
    for (let b = 0; b < 3; b++) {
      op.set(["pos", "blk", `86${dev}`, start + day * DAY + b * 8 * 3600_000], block);
    }
  }
  await op.commit();
}
for (let run = 0; run < 3; run++) {
  const t0 = performance.now();
  let blocks = 0, bytes = 0;
  for await (
    const e of kv.list<Uint8Array>({
      start: ["pos", "blk", "863", start],
      end: ["pos", "blk", "863", start + 31 * DAY],
    }, { batchSize: 500 })
  ) {
    blocks++;
    bytes += e.value.length;
  }
  console.log(
    `playback read, 31 days of one device: ${blocks} blocks, ${(bytes / 1048576).toFixed(1)} MiB ` +
      `in ${(performance.now() - t0).toFixed(0)} ms (run ${run + 1})`,
  );
}

await store.close();
await server.stop();
