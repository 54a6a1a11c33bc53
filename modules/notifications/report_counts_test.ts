/**
 * The few-reports counts on a real store (Deno KV, or PostgreSQL in the test task's second pass):
 * two instances counting one device sum into the same day, a restart keeps the day, a stop longer
 * than the gap leaves it unjudged.
 */
import assert from "node:assert/strict";
import { openTestKv } from "../../tests/helpers/test_kv.ts";
import { ReportCounter } from "./report_counts.ts";
import { ReportCountStore } from "./store_report_counts.ts";

const DAY = 86_400_000, MIN = 60_000;
const DAY0 = Date.parse("2026-05-04T00:00:00Z");
const IMEI = "359710049870001", OTHER = "359710049870002";

/** Counts `n` positions of `imei`, one a minute from `from`, flushing every minute as the job does. */
async function countMinutes(c: ReportCounter, imei: string, from: number, n: number) {
  for (let i = 0; i < n; i++) {
    c.count(imei, from + i * MIN);
    await c.flush(from + i * MIN);
  }
}

Deno.test("report counts: two instances sum into the day the daily check reads", async () => {
  const kv = await openTestKv();
  try {
    const store = new ReportCountStore(kv);
    const a = new ReportCounter(store, DAY0 - 3 * MIN);
    // B joins while A runs (A keeps flushing every minute).
    const b = new ReportCounter(store, DAY0 + 20 * MIN);
    await countMinutes(a, IMEI, DAY0, 30); // on instance A until it moved
    await countMinutes(b, IMEI, DAY0 + 30 * MIN, 25); // then on B
    await countMinutes(b, OTHER, DAY0 + 60 * MIN, 70);
    await a.flush(DAY0 + DAY + MIN); // both keep flushing past midnight
    await b.flush(DAY0 + DAY + 2 * MIN);
    const last = await a.lastDay(DAY0 + DAY + 10 * 3_600_000);
    assert.deepEqual(last, {
      day: "2026-05-04",
      counts: new Map([[IMEI, 55], [OTHER, 70]]),
    });
    // Read by the other instance: the same sums.
    assert.deepEqual((await b.lastDay(DAY0 + DAY + 10 * 3_600_000))?.counts.get(IMEI), 55);
    // The next day's check deletes it.
    await b.flush(DAY0 + 2 * DAY);
    assert.equal(await a.lastDay(DAY0 + 2 * DAY + 10 * 3_600_000) !== null, true);
    assert.equal((await store.countsOf("2026-05-04")).size, 0, "older days deleted");
  } finally {
    kv.close();
  }
});

Deno.test("report counts: a quick restart keeps the day; a long stop leaves it unjudged", async () => {
  const kv = await openTestKv();
  try {
    const store = new ReportCountStore(kv);
    const first = new ReportCounter(store, DAY0 - MIN);
    await countMinutes(first, IMEI, DAY0, 10);
    // Restarted two minutes after its last flush: counting goes on.
    const second = new ReportCounter(store, DAY0 + 11 * MIN);
    await countMinutes(second, IMEI, DAY0 + 12 * MIN, 5);
    await second.flush(DAY0 + DAY + MIN);
    const kept = await second.lastDay(DAY0 + DAY + 10 * 3_600_000);
    assert.equal(kept?.counts.get(IMEI), 15);

    // Stopped for two hours after that check: the next day was not counted whole.
    const third = new ReportCounter(store, DAY0 + DAY + 12 * 3_600_000);
    await countMinutes(third, IMEI, DAY0 + DAY + 12 * 3_600_000, 5);
    await third.flush(DAY0 + 2 * DAY + MIN);
    assert.equal(await third.lastDay(DAY0 + 2 * DAY + 10 * 3_600_000), null);
    // The day after is whole again.
    await third.flush(DAY0 + 3 * DAY + MIN);
    assert.notEqual(await third.lastDay(DAY0 + 3 * DAY + 10 * 3_600_000), null);
  } finally {
    kv.close();
  }
});
