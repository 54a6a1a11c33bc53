import assert from "node:assert/strict";
import { BizError } from "../../lib/errors.ts";
import { TaskService } from "./service.ts";
import { CHUNK_BYTES, TaskStore } from "./store.ts";
import { contentDisposition } from "./routes.ts";
import { openTestKv } from "../../tests/helpers/test_kv.ts";

/** A real KV file in a temp folder; reopened to act as a restarted process. */
async function kvFile() {
  const dir = await Deno.makeTempDir({ prefix: "tp-tasks-" });
  const path = `${dir}/tracking.kv`;
  return {
    path,
    open: () => openTestKv(path),
    remove: () => Deno.remove(dir, { recursive: true }).catch(() => {}),
  };
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { open, opened };
}

const meta = { name: "Trips", type: "report", fileName: "trips.xlsx" };

Deno.test("a task reports progress, then its file streams back whole from KV chunks", async () => {
  const f = await kvFile();
  const kv = await f.open();
  try {
    const tasks = new TaskService(new TaskStore(kv));
    const bytes = crypto.getRandomValues(new Uint8Array(65_536)); // random: one chunk each
    const file = new Uint8Array(3 * CHUNK_BYTES + 1234);
    for (let i = 0; i < file.length; i += bytes.length) {
      file.set(bytes.subarray(0, file.length - i), i);
    }
    const halfway = gate(), release = gate();
    const id = await tasks.start("u1", meta, async (progress) => {
      progress(42.7);
      halfway.open();
      await release.opened;
      return { fileName: "行程_1.xlsx", contentType: "application/x-test", bytes: file };
    });
    await halfway.opened;
    await new Promise((r) => setTimeout(r, 20));
    const running = await tasks.list("u1", { pageNum: 1, pageSize: 10 });
    assert.equal(running.total, 1);
    assert.deepEqual(
      { ...running.list[0], createdAt: undefined },
      {
        id,
        name: "Trips",
        type: "report",
        status: "running",
        progress: 42,
        fileName: null,
        createdAt: undefined,
      },
    );
    await assert.rejects(
      tasks.file("u1", id),
      (e) => e instanceof BizError && e.key === "taskNotReady",
    );
    assert.deepEqual([tasks.runningOf("u1"), tasks.runningOf("u2")], [1, 0]);
    release.open();
    await tasks.idle();
    assert.equal(tasks.runningOf("u1"), 0);
    const [done] = (await tasks.list("u1", { pageNum: 1, pageSize: 10 })).list;
    assert.equal(done.status, "done");
    assert.equal(done.progress, 100);
    assert.equal(done.fileName, "行程_1.xlsx");
    const got = await tasks.file("u1", id);
    assert.equal(got.bytes, file.length);
    assert.equal(got.contentType, "application/x-test");
    assert.deepEqual(await readAll(got.body), file);
    // Stored as ≤ 60 KiB values: 4 chunks for 3 × 60 KiB + 1234 bytes.
    let chunks = 0;
    for await (const e of kv.list<Uint8Array>({ prefix: ["tasks", "chunk", id] })) {
      assert.ok(e.value.length <= CHUNK_BYTES);
      chunks++;
    }
    assert.equal(chunks, 4);
  } finally {
    kv.close();
    await f.remove();
  }
});

Deno.test("a user lists and downloads only their own tasks; another's id is unknown to them", async () => {
  const f = await kvFile();
  const kv = await f.open();
  try {
    const tasks = new TaskService(new TaskStore(kv));
    const file = (name: string) => () =>
      Promise.resolve({
        fileName: name,
        contentType: "text/csv",
        bytes: new TextEncoder().encode(name),
      });
    const a1 = await tasks.start("alice", meta, file("a1.csv"));
    const a2 = await tasks.start("alice", { ...meta, type: "other" }, file("a2.csv"));
    const b1 = await tasks.start("bob", meta, file("b1.csv"));
    await tasks.idle();
    const alice = await tasks.list("alice", { pageNum: 1, pageSize: 10 });
    assert.deepEqual(alice.list.map((t) => t.id), [a2, a1]); // newest first
    const bob = await tasks.list("bob", { pageNum: 1, pageSize: 10 });
    assert.deepEqual(bob.list.map((t) => t.id), [b1]);
    // Type filter and paging.
    const reports = await tasks.list("alice", { type: "report", pageNum: 1, pageSize: 10 });
    assert.deepEqual(reports.list.map((t) => t.id), [a1]);
    const page2 = await tasks.list("alice", { pageNum: 2, pageSize: 1 });
    assert.deepEqual({ total: page2.total, ids: page2.list.map((t) => t.id) }, {
      total: 2,
      ids: [a1],
    });
    // Bob asking for Alice's task gets what an id that never existed gets.
    const refusal = async (owner: string, id: string) => {
      try {
        await tasks.file(owner, id);
        return "served";
      } catch (e) {
        return e instanceof BizError ? e.key : String(e);
      }
    };
    assert.equal(await refusal("bob", a1), "dataNotExists");
    assert.equal(
      await refusal("bob", b1.slice(0, -1) + (b1.endsWith("0") ? "1" : "0")),
      "dataNotExists",
    );
    assert.equal(await refusal("bob", "../../etc"), "dataNotExists");
    assert.equal(
      new TextDecoder().decode(await readAll((await tasks.file("alice", a1)).body)),
      "a1.csv",
    );
  } finally {
    kv.close();
    await f.remove();
  }
});

Deno.test("a failing task is marked failed with its catalogue error", async () => {
  const f = await kvFile();
  const kv = await f.open();
  try {
    const tasks = new TaskService(new TaskStore(kv));
    const id = await tasks.start("u1", meta, () => {
      throw new BizError("pdfFontMissing");
    });
    await tasks.idle();
    const [t] = (await tasks.list("u1", { pageNum: 1, pageSize: 10 })).list;
    assert.equal(t.id, id);
    assert.equal(t.status, "failed");
    const rec = (await kv.get<{ error: string }>(["tasks", "record", id])).value;
    assert.equal(rec?.error, "pdfFontMissing");
  } finally {
    kv.close();
    await f.remove();
  }
});

Deno.test("retention: tasks older than 7 days are removed with their files, newer ones kept", async () => {
  const f = await kvFile();
  const kv = await f.open();
  try {
    let now = Date.parse("2026-11-01T00:00:00Z");
    const tasks = new TaskService(new TaskStore(kv), { now: () => now });
    const big = new Uint8Array(2 * CHUNK_BYTES).fill(7);
    const work = () =>
      Promise.resolve({ fileName: "x.xlsx", contentType: "application/x", bytes: big });
    const old = await tasks.start("u1", meta, work);
    await tasks.idle();
    now += 2 * 86_400_000;
    const recent = await tasks.start("u1", meta, work);
    await tasks.idle();
    now += 5 * 86_400_000 + 60_000; // the first is now 7 days and a minute old
    assert.equal(await tasks.prune(), 1);
    const left = await tasks.list("u1", { pageNum: 1, pageSize: 10 });
    assert.deepEqual(left.list.map((t) => t.id), [recent]);
    assert.equal((await kv.get(["tasks", "record", old])).value, null);
    let oldChunks = 0;
    for await (const _ of kv.list({ prefix: ["tasks", "chunk", old] })) oldChunks++;
    assert.equal(oldChunks, 0);
    await assert.rejects(
      tasks.file("u1", old),
      (e) => e instanceof BizError && e.key === "dataNotExists",
    );
    assert.equal((await readAll((await tasks.file("u1", recent)).body)).length, big.length);
  } finally {
    kv.close();
    await f.remove();
  }
});

Deno.test("a task interrupted by a restart is marked failed when the next process starts", async () => {
  const f = await kvFile();
  let kv = await f.open();
  try {
    const first = new TaskService(new TaskStore(kv));
    const started = gate();
    const id = await first.start("u1", meta, async (progress) => {
      progress(30);
      started.open();
      return await new Promise<never>(() => {}); // the process "dies" before it ends
    });
    await started.opened;
    await new Promise((r) => setTimeout(r, 20));
    kv.close();
    kv = await f.open();
    const next = new TaskService(new TaskStore(kv));
    assert.equal(await next.recover(), 1);
    const [t] = (await next.list("u1", { pageNum: 1, pageSize: 10 })).list;
    assert.deepEqual([t.id, t.status, t.progress], [id, "failed", 30]);
    assert.equal(await next.recover(), 0);
  } finally {
    kv.close();
    await f.remove();
  }
});

Deno.test("content-disposition carries an ASCII name and the UTF-8 name (RFC 5987)", () => {
  assert.equal(
    contentDisposition("行程_20261126.xlsx"),
    `attachment; filename="___20261126.xlsx"; filename*=UTF-8''%E8%A1%8C%E7%A8%8B_20261126.xlsx`,
  );
  assert.equal(
    contentDisposition(`Trips "a" (1).csv`),
    `attachment; filename="Trips _a_ (1).csv"; filename*=UTF-8''Trips%20%22a%22%20%281%29.csv`,
  );
});
