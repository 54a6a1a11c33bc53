import assert from "node:assert/strict";
import { SessionStore } from "./store_sessions.ts";
import { openTestKv } from "../../../tests/helpers/test_kv.ts";

Deno.test("session store: the newest claim wins; an instance deletes only the sessions it holds", async () => {
  const kv = await openTestKv();
  try {
    const store = new SessionStore(kv);
    const imeis = Array.from({ length: 25 }, (_, i) => String(359710049240000 + i));
    await store.claim(imeis.map((imei) => [imei, 1000] as const), "a");
    // b takes over every third device (its devices logged in there later).
    const moved = imeis.filter((_, i) => i % 3 === 0);
    await store.claim(moved.map((imei) => [imei, 2000] as const), "b");
    await store.release(imeis, "a");
    const after = await store.sessions(imeis);
    assert.deepEqual(
      after,
      imeis.map((imei) => moved.includes(imei) ? { instanceId: "b", since: 2000 } : null),
    );
    assert.deepEqual(await store.session(moved[0]), { instanceId: "b", since: 2000 });
  } finally {
    kv.close();
  }
});

Deno.test("session store: heartbeats are listed per instance and a clean stop forgets its own", async () => {
  const kv = await openTestKv();
  try {
    const store = new SessionStore(kv);
    await store.beat("a", 1000, 30_000);
    await store.beat("b", 2000, 30_000);
    await store.beat("a", 3000, 30_000);
    assert.deepEqual([...await store.heartbeats()].sort(), [["a", 3000], ["b", 2000]]);
    await store.forget("a");
    assert.deepEqual([...await store.heartbeats()], [["b", 2000]]);
  } finally {
    kv.close();
  }
});
