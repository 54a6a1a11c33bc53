import assert from "node:assert/strict";
import { type KeyRecord, OpenKeyStore } from "./store_keys.ts";
import { openTestKv } from "../../tests/helpers/test_kv.ts";

const record = (accountId: string, i: number): KeyRecord => ({
  appKey: `KEY${accountId}${String(i).padStart(4, "0")}`,
  accountId,
  name: `key ${i}`,
  scope: ["read"],
  sealed: { iv: "", data: "" },
  secretTail: "abcd",
  createdAt: Date.now(),
  expiresAt: null,
  revokedAt: null,
  lastUsedAt: null,
});

Deno.test("key limit: keys created at once never pass the account's limit together", async () => {
  const kv = await openTestKv();
  try {
    const store = new OpenKeyStore(kv);
    const made = await Promise.all(
      Array.from({ length: 30 }, (_, i) => store.insert(record("7", i), 20)),
    );
    assert.equal(made.filter(Boolean).length, 20);
    assert.equal((await store.listAppKeys("7")).length, 20);
    // Another account has its own limit.
    assert.equal(await store.insert(record("8", 0), 20), true);
  } finally {
    kv.close();
  }
});
