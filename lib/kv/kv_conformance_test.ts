/**
 * The same operations on Deno KV (:memory:) and on PgKv (a real PostgreSQL), results compared:
 * PgKv must be a drop-in Deno.Kv for the stores (issue 23).
 */
import assert from "node:assert/strict";
import { testPostgres } from "../../tests/helpers/postgres.ts";
import { openPostgresStore, type PostgresStore } from "./pg/store.ts";

const server = await testPostgres();
const opts = { sanitizeResources: false, sanitizeOps: false };

/** Runs `scenario` on both stores and asserts the two results are equal. */
async function conform<T>(name: string, scenario: (kv: Deno.Kv) => Promise<T>): Promise<void> {
  const denoKv = await Deno.openKv(":memory:");
  let store: PostgresStore | undefined;
  try {
    store = await openPostgresStore(await server.createDatabase("conf"));
    const expected = await scenario(denoKv);
    const actual = await scenario(store.kv);
    assert.deepEqual(actual, expected, `${name}: PgKv differs from Deno KV`);
  } finally {
    denoKv.close();
    await store?.close();
  }
}

const MIXED: Deno.KvKeyPart[] = [
  true,
  "b",
  new Uint8Array([1, 0, 2]),
  -1n,
  2n ** 70n,
  1.5,
  "",
  -(2n ** 70n),
  0n,
  255n,
  256n,
  -256n,
  -Infinity,
  Infinity,
  -2.25,
  0,
  1e300,
  false,
  new Uint8Array([]),
  new Uint8Array([1]),
  "a\u0000b",
  "a",
  "ä",
  Number.MIN_VALUE,
  -1,
];

async function keysOf(iter: Deno.KvListIterator<unknown>): Promise<Deno.KvKey[]> {
  const keys: Deno.KvKey[] = [];
  for await (const e of iter) keys.push(e.key);
  return keys;
}

async function seedMixed(kv: Deno.Kv): Promise<void> {
  for (const [i, part] of MIXED.entries()) await kv.set(["devices", part], i);
  await kv.set(["devices", "a", "child"], "nested");
  await kv.set(["devices"], "the prefix itself is not listed");
  await kv.set(["fleet", "other"], "another module");
}

Deno.test({
  name: "conformance: mixed key types list in Deno KV's order, forward and reverse",
  ...opts,
  fn: () =>
    conform("order", async (kv) => {
      await seedMixed(kv);
      return {
        forward: await keysOf(kv.list({ prefix: ["devices"] })),
        reverse: await keysOf(kv.list({ prefix: ["devices"] }, { reverse: true })),
        values: (await Array.fromAsync(kv.list({ prefix: ["devices"] }))).map((e) => e.value),
      };
    }),
});

Deno.test({
  name: "conformance: list ranges (start/end, prefix+start, prefix+end), limit, batchSize",
  ...opts,
  fn: () =>
    conform("ranges", async (kv) => {
      await seedMixed(kv);
      return {
        startEnd: await keysOf(kv.list({ start: ["devices", "a"], end: ["devices", 0n] })),
        prefixStart: await keysOf(kv.list({ prefix: ["devices"], start: ["devices", 1.5] })),
        prefixEnd: await keysOf(kv.list({ prefix: ["devices"], end: ["devices", "b"] })),
        limited: await keysOf(kv.list({ prefix: ["devices"] }, { limit: 3 })),
        limitedReverse: await keysOf(kv.list({ prefix: ["devices"] }, { limit: 4, reverse: true })),
        smallBatches: await keysOf(kv.list({ prefix: ["devices"] }, { batchSize: 2 })),
        nested: await keysOf(kv.list({ prefix: ["devices", "a"] })),
        wholeStore: await keysOf(kv.list({ prefix: [] })),
        acrossModules: await keysOf(kv.list({ start: ["devices", "b"], end: ["fleet", "z"] })),
        empty: await keysOf(kv.list({ prefix: ["devices", "zzz"] })),
      };
    }),
});

Deno.test({
  name: "conformance: a cursor resumes a limited listing where it stopped (both directions)",
  ...opts,
  fn: () =>
    conform("cursor", async (kv) => {
      await seedMixed(kv);
      const pages = async (reverse: boolean) => {
        const out: (Deno.KvKey[] | string)[] = [];
        let cursor: string | undefined;
        for (let i = 0; i < 20; i++) {
          const iter = kv.list({ prefix: ["devices"] }, { limit: 7, cursor, reverse });
          const page = await keysOf(iter);
          if (!page.length) break;
          cursor = iter.cursor;
          out.push(page, cursor); // the cursor strings themselves are Deno KV's
        }
        return out;
      };
      return { forward: await pages(false), reverse: await pages(true) };
    }),
});

Deno.test({
  name: "conformance: atomic checks (absent, matching, stale), deletes, getMany",
  ...opts,
  fn: () =>
    conform("atomic", async (kv) => {
      const a = ["accounts", "a"], b = ["accounts", "b"];
      const created = await kv.atomic().check({ key: a, versionstamp: null }).set(a, 1).commit();
      const again = await kv.atomic().check({ key: a, versionstamp: null }).set(a, 2).commit();
      const first = await kv.get(a);
      await kv.set(a, 3);
      const stale = await kv.atomic().check(first).set(b, "x").commit();
      const current = await kv.get(a);
      const ok = await kv.atomic().check(current, { key: b, versionstamp: null })
        .set(b, "y").delete(a).set(["accounts", "c"], { nested: [1, 2n, new Date(5)] })
        .commit();
      const many = await kv.getMany([a, b, ["accounts", "c"], ["accounts", "none"]]);
      const deletedCheck = await kv.atomic().check(current).set(a, 9).commit();
      return {
        created: created.ok,
        again: again.ok,
        stale: stale.ok,
        ok: ok.ok,
        stampsIncrease: created.ok && ok.ok && ok.versionstamp > created.versionstamp,
        many: many.map((e) => [e.key, e.value, e.versionstamp === null]),
        manyStampOfCommit: many[1].versionstamp === (ok.ok ? ok.versionstamp : ""),
        deletedCheck: deletedCheck.ok,
      };
    }),
});

Deno.test({
  name: "conformance: sum/min/max on KvU64, last mutation of a key wins within a commit",
  ...opts,
  fn: () =>
    conform("sum", async (kv) => {
      const n = ["credits", "n"];
      await kv.atomic().sum(n, 5n).commit();
      await kv.atomic().sum(n, 7n).sum(n, 1n).commit();
      const summed = (await kv.get<Deno.KvU64>(n)).value?.value;
      await kv.atomic().max(n, 100n).commit();
      const maxed = (await kv.get<Deno.KvU64>(n)).value?.value;
      await kv.atomic().min(n, 42n).commit();
      const mined = (await kv.get<Deno.KvU64>(n)).value?.value;
      await kv.atomic().sum(n, 0xffffffffffffffffn).commit(); // wraps around
      const wrapped = (await kv.get<Deno.KvU64>(n)).value?.value;
      await kv.atomic().set(["credits", "w"], 1).set(["credits", "w"], 2).delete(["credits", "d"])
        .commit();
      const notU64 = await kv.atomic().sum(["credits", "w"], 1n).commit().then(
        () => "ok",
        (e) => (e as Error).constructor.name,
      );
      return { summed, maxed, mined, wrapped, w: (await kv.get(["credits", "w"])).value, notU64 };
    }),
});

Deno.test({
  name: "conformance: values round-trip (structured clone types) and expireIn entries read back",
  ...opts,
  fn: () =>
    conform("values", async (kv) => {
      const value = {
        s: "x",
        n: 1.25,
        big: 12n,
        d: new Date(1_700_000_000_000),
        bytes: new Uint8Array([0, 255]),
        map: new Map([["k", 1]]),
        set: new Set([1]),
        nil: null,
        arr: [1, undefined, "z"],
      };
      await kv.set(["tasks", "v"], value);
      await kv.set(["tasks", "raw"], new Uint8Array([9, 8, 7]));
      await kv.set(["tasks", "exp"], "soon", { expireIn: 60_000 });
      return {
        value: (await kv.get(["tasks", "v"])).value,
        raw: (await kv.get(["tasks", "raw"])).value,
        exp: (await kv.get(["tasks", "exp"])).value,
      };
    }),
});

Deno.test({
  name: "PgKv: expireIn hides the entry after it expires; purgeExpired deletes it",
  ...opts,
  async fn() {
    const store = await openPostgresStore(await server.createDatabase("conf"));
    try {
      await store.kv.set(["auth", "t"], "token", { expireIn: 300 });
      await store.kv.atomic().set(["auth", "u"], "other", { expireIn: 300 }).commit();
      await store.kv.set(["auth", "keep"], "kept");
      assert.equal((await store.kv.get(["auth", "t"])).value, "token");
      await new Promise((r) => setTimeout(r, 500));
      assert.equal((await store.kv.get(["auth", "t"])).value, null);
      assert.deepEqual(
        (await Array.fromAsync(store.kv.list({ prefix: ["auth"] }))).map((e) => e.key),
        [["auth", "keep"]],
      );
      // An expired key counts as absent for a check.
      const res = await store.kv.atomic().check({ key: ["auth", "t"], versionstamp: null })
        .set(["auth", "t"], "again").commit();
      assert.equal(res.ok, true);
      assert.equal(await store.pgKv.purgeExpired(), 1);
    } finally {
      await store.close();
    }
  },
});

Deno.test({
  name: "PgKv: a 1 MB Uint8Array value round-trips (PostgreSQL has no 64 KiB value limit)",
  ...opts,
  async fn() {
    const store = await openPostgresStore(await server.createDatabase("conf"));
    try {
      const big = crypto.getRandomValues(new Uint8Array(65_536));
      const value = new Uint8Array(1 << 20);
      for (let i = 0; i < 16; i++) value.set(big, i * 65_536);
      await store.kv.set(["pos", "blk", "1", Date.UTC(2026, 5, 1)], value);
      const got = await store.kv.get<Uint8Array>(["pos", "blk", "1", Date.UTC(2026, 5, 1)]);
      assert.ok(got.value instanceof Uint8Array);
      assert.deepEqual(got.value, value);
    } finally {
      await store.close();
    }
  },
});

Deno.test("conformance: (stops this file's PostgreSQL)", async () => {
  await server.stop();
});
