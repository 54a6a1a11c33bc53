/**
 * One suite, two stores: the files store on a temporary DATA_DIR and the PostgreSQL store on a
 * real server (tests/helpers/postgres.ts), each case on a fresh store.
 */
import assert from "node:assert/strict";
import { testPostgres } from "../../tests/helpers/postgres.ts";
import { FsBlobStore } from "./fs.ts";
import { CHUNK_BYTES, PgBlobStore } from "./pg.ts";
import type { BlobStore } from "./types.ts";

const server = await testPostgres();

interface Subject {
  name: string;
  open(): Promise<{ store: BlobStore; done(): Promise<void> }>;
}

const SUBJECTS: Subject[] = [
  {
    name: "files",
    async open() {
      const dir = await Deno.makeTempDir({ prefix: "tp-blobs-" });
      return {
        store: new FsBlobStore(dir),
        done: () => Deno.remove(dir, { recursive: true }),
      };
    },
  },
  {
    name: "postgres",
    async open() {
      const store = new PgBlobStore(await server.createDatabase("blobs"));
      return { store, done: () => store.close() };
    },
  },
];

function pattern(size: number, seed = 7): Uint8Array {
  const out = new Uint8Array(size);
  for (let i = 0; i < size; i++) out[i] = (i * 31 + seed) & 0xff;
  return out;
}

/** A stream of `size` bytes in odd-sized pieces, made as read (never whole in memory). */
function generated(size: number, piece = 65_537, seed = 7): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(c) {
      if (at >= size) return c.close();
      const n = Math.min(piece, size - at);
      const out = new Uint8Array(n);
      for (let i = 0; i < n; i++) out[i] = ((at + i) * 31 + seed) & 0xff;
      at += n;
      c.enqueue(out);
    },
  });
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

for (const subject of SUBJECTS) {
  const test = (name: string, fn: (store: BlobStore) => Promise<void>) =>
    Deno.test(`blobs (${subject.name}): ${name}`, async () => {
      const { store, done } = await subject.open();
      try {
        await fn(store);
      } finally {
        await done();
      }
    });

  test("put, get, bytes and delete round-trip; a missing key is null", async (store) => {
    const bytes = pattern(1234);
    assert.equal(await store.put("fleet/avatars/a.png", bytes, { type: "image/png" }), 1234);
    const blob = await store.get("fleet/avatars/a.png");
    assert.ok(blob);
    assert.equal(blob.size, 1234);
    assert.equal(blob.type, "image/png");
    assert.deepEqual(await readAll(blob.stream), bytes);
    assert.deepEqual(await store.bytes("fleet/avatars/a.png"), bytes);
    await store.delete("fleet/avatars/a.png");
    assert.equal(await store.get("fleet/avatars/a.png"), null);
    assert.equal(await store.bytes("fleet/avatars/a.png"), null);
    await store.delete("fleet/avatars/a.png"); // no error when missing
  });

  test("an empty blob is a blob", async (store) => {
    assert.equal(await store.put("x/empty.txt", new Uint8Array()), 0);
    const blob = await store.get("x/empty.txt");
    assert.equal(blob?.size, 0);
    assert.deepEqual(await readAll(blob!.stream), new Uint8Array());
  });

  test("a put replaces the bytes (shorter after longer)", async (store) => {
    await store.put("k/v.jpg", pattern(CHUNK_BYTES + 10, 1));
    await store.put("k/v.jpg", pattern(5, 2));
    assert.deepEqual(await store.bytes("k/v.jpg"), pattern(5, 2));
    assert.deepEqual((await store.list("k/")).map((b) => b.size), [5]);
  });

  test("a multi-chunk stream goes in and comes out whole, in order", async (store) => {
    const size = 2 * CHUNK_BYTES + 12_345;
    assert.equal(await store.put("video/downloads/d.mp4", generated(size)), size);
    const blob = await store.get("video/downloads/d.mp4");
    assert.equal(blob?.size, size);
    assert.equal(blob?.type, "video/mp4");
    assert.deepEqual(await readAll(blob!.stream), pattern(size));
  });

  test("putNew writes once: racing creators agree on one winner", async (store) => {
    const results = await Promise.all(
      [1, 2, 3, 4].map((seed) => store.putNew("openapi/secret.key", pattern(32, seed))),
    );
    assert.equal(results.filter(Boolean).length, 1);
    const winner = [1, 2, 3, 4][results.indexOf(true)];
    assert.deepEqual(await store.bytes("openapi/secret.key"), pattern(32, winner));
    assert.equal(await store.putNew("openapi/secret.key", pattern(32, 9)), false);
  });

  test("putFile moves a local file in", async (store) => {
    const dir = await Deno.makeTempDir({ prefix: "tp-blob-src-" });
    try {
      const path = `${dir}/rec.mp4`;
      await Deno.writeFile(path, pattern(CHUNK_BYTES + 1));
      assert.equal(await store.putFile("video/downloads/r.mp4", path), CHUNK_BYTES + 1);
      assert.deepEqual(await store.bytes("video/downloads/r.mp4"), pattern(CHUNK_BYTES + 1));
      await assert.rejects(Deno.stat(path), Deno.errors.NotFound);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });

  test("list by prefix: only that prefix, sorted, with sizes", async (store) => {
    await store.put("video/events/e1/b.jpg", pattern(3));
    await store.put("video/events/e1/a.mp4", pattern(4));
    await store.put("video/events/e2/c.jpg", pattern(5));
    await store.put("fleet/avatars/z.png", pattern(6));
    assert.deepEqual(await store.list("video/events/e1/"), [
      { key: "video/events/e1/a.mp4", size: 4 },
      { key: "video/events/e1/b.jpg", size: 3 },
    ]);
    assert.deepEqual((await store.list("video/")).map((b) => b.key), [
      "video/events/e1/a.mp4",
      "video/events/e1/b.jpg",
      "video/events/e2/c.jpg",
    ]);
    assert.deepEqual(await store.list("nothing/"), []);
  });

  test("keys that could leave the folder are refused", async (store) => {
    for (const bad of ["../x", "a/../../x", "/abs", "a//b", "a/./b", "", "a/b c"]) {
      await assert.rejects(store.put(bad, pattern(1)), /invalid blob key/, bad);
      await assert.rejects(store.get(bad), /invalid blob key/, bad);
    }
    // The names the modules use are fine.
    await store.put("devices/images/860000000000001/860000000000001(1).jpg", pattern(2));
    assert.equal((await store.list("devices/images/860000000000001/")).length, 1);
  });
}

Deno.test("blobs (postgres): two stores on one database see each other's blobs", async () => {
  const url = await server.createDatabase("blobs");
  const a = new PgBlobStore(url), b = new PgBlobStore(url);
  try {
    await Promise.all([a.put("x/1.png", pattern(10)), b.put("x/2.png", pattern(11))]);
    assert.deepEqual(await b.bytes("x/1.png"), pattern(10));
    assert.deepEqual(await a.bytes("x/2.png"), pattern(11));
    await a.delete("x/2.png");
    assert.equal(await b.get("x/2.png"), null);
  } finally {
    await a.close();
    await b.close();
  }
});

Deno.test("blobs (files): keys are today's DATA_DIR paths", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tp-blobs-" });
  try {
    await Deno.mkdir(`${dir}/fleet/avatars`, { recursive: true });
    await Deno.writeFile(`${dir}/fleet/avatars/old.jpg`, pattern(9));
    const store = new FsBlobStore(dir);
    assert.deepEqual(await store.bytes("fleet/avatars/old.jpg"), pattern(9));
    await store.put("domains/images/n.png", pattern(3));
    assert.deepEqual(await Deno.readFile(`${dir}/domains/images/n.png`), pattern(3));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("blobs: stop the test server", async () => {
  await server.stop();
});
