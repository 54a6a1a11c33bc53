import assert from "node:assert/strict";
import { WalletStore } from "./store.ts";
import type { LedgerEntry } from "./model.ts";
import { openTestKv } from "../../tests/helpers/test_kv.ts";

const entry = (accountId: string, coinCents: number): LedgerEntry => ({
  id: crypto.randomUUID(),
  accountId,
  time: new Date().toISOString(),
  kind: "renew",
  coinCents,
  cards: {},
  operatorId: accountId,
});

Deno.test("wallet store: concurrent debits never overdraw, refusals write nothing", async () => {
  const dir = await Deno.makeTempDir();
  const kv = await openTestKv(`${dir}/w.kv`);
  try {
    const store = new WalletStore(kv);
    assert.ok(
      (await store.apply([{ accountId: "7", coinCents: 1000, cards: { "1y": 2 } }], [
        entry("7", 1000),
      ])).ok,
    );
    // Twenty debits of 1 coin race for 10 coins: exactly ten pass.
    const runs = await Promise.all(
      Array.from(
        { length: 20 },
        () => store.apply([{ accountId: "7", coinCents: -100 }], [entry("7", -100)]),
      ),
    );
    assert.equal(runs.filter((r) => r.ok).length, 10);
    const b = await store.balance("7");
    assert.equal(b.coinCents, 0);
    assert.equal(b.cards["1y"], 2);
    assert.equal(await store.ledgerCount("7"), 11);
    assert.equal((await store.apply([{ accountId: "7", cards: { "1y": -3 } }], [])).ok, false);
    assert.equal((await store.balance("7")).cards["1y"], 2);
    // The issuing account (unlimited) may go below zero; its balance is not stored.
    assert.ok(
      (await store.apply([{ accountId: "1", coinCents: -500 }], [], (id) => id === "1")).ok,
    );
    assert.equal((await store.balance("1")).coinCents, 0);
    const page = await store.ledger("7", 0, 3);
    assert.equal(page.length, 3);
    assert.equal(page[0].coinCents, -100);
  } finally {
    kv.close();
    await Deno.remove(dir, { recursive: true });
  }
});
