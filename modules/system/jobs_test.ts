import assert from "node:assert/strict";
import { openTestKv } from "../../tests/helpers/test_kv.ts";
import { ALWAYS_LEADER } from "../../lib/cluster/local.ts";
import type { Leadership } from "../../lib/cluster/types.ts";
import { dropExpiredBlocks, runJob, slotMinute } from "./jobs.ts";
import { testApp } from "../../tests/helpers/harness.ts";
import type { StoredPosition } from "../devices/model.ts";
import { accountWithDevices } from "../../tests/helpers/alerting.ts";
import { JobSlotStore } from "./store_job_slots.ts";
import { storedFix } from "../../tests/helpers/stored_fix.ts";

const follower: Leadership = {
  isLeader: () => false,
  onChange: () => () => {},
  close: () => Promise.resolve(),
};

/** One scheduler of an instance sharing `kv` with others. */
function scheduler(kv: Deno.Kv, instanceId: string, leader: Leadership = ALWAYS_LEADER) {
  const runs: string[] = [];
  return {
    runs,
    deps: {
      cluster: { mode: "cluster" as const, instanceId, leader },
      jobSlots: new JobSlotStore(kv),
    },
    job: (name: string) => () => void runs.push(name),
  };
}

Deno.test("jobs: a slot due on two schedulers sharing the store runs once", async () => {
  const kv = await openTestKv();
  try {
    const a = scheduler(kv, "a"), b = scheduler(kv, "b");
    const minute = slotMinute();
    const [ranA, ranB] = await Promise.all([
      runJob(a.deps, "daily check", "once", a.job("daily check"), minute),
      runJob(b.deps, "daily check", "once", b.job("daily check"), minute),
    ]);
    assert.equal(Number(ranA) + Number(ranB), 1, "exactly one scheduler ran the slot");
    assert.equal(a.runs.length + b.runs.length, 1);
    const holder = await new JobSlotStore(kv).holder("daily check", minute);
    assert.equal(holder?.instanceId, ranA ? "a" : "b");
    // A repeated run of the same slot (a restart within the minute) does nothing.
    assert.equal(await runJob(a.deps, "daily check", "once", a.job("daily check"), minute), false);
    // The next slot, and another job in the same slot, run again.
    assert.equal(
      await runJob(b.deps, "daily check", "once", b.job("daily check"), minute + 1),
      true,
    );
    assert.equal(await runJob(a.deps, "other job", "once", a.job("other job"), minute), true);
    assert.equal(a.runs.length + b.runs.length, 3);
  } finally {
    kv.close();
  }
});

Deno.test("jobs: many schedulers racing for one slot: one run", async () => {
  const kv = await openTestKv();
  try {
    const all = Array.from({ length: 8 }, (_, i) => scheduler(kv, `i${i}`));
    const ran = await Promise.all(
      all.map((s) => runJob(s.deps, "sweep", "once", s.job("sweep"), 1_000)),
    );
    assert.equal(ran.filter(Boolean).length, 1);
    assert.equal(all.reduce((n, s) => n + s.runs.length, 0), 1);
  } finally {
    kv.close();
  }
});

Deno.test("jobs: leader-scoped jobs run on the leader only; instance jobs everywhere", async () => {
  const kv = await openTestKv();
  try {
    const lead = scheduler(kv, "lead"), other = scheduler(kv, "other", follower);
    for (const s of [lead, other]) {
      await runJob(s.deps, "compaction", "leader", s.job("compaction"), 5);
      await runJob(s.deps, "flush", "instance", s.job("flush"), 5);
    }
    assert.deepEqual(lead.runs, ["compaction", "flush"]);
    assert.deepEqual(other.runs, ["flush"]);
  } finally {
    kv.close();
  }
});

Deno.test("jobs: a failing job is counted failed and its slot stays taken", async () => {
  const kv = await openTestKv();
  try {
    const s = scheduler(kv, "a");
    const counted: [string, boolean][] = [];
    const deps = {
      ...s.deps,
      metrics: { jobs: { run: (j: string, ok: boolean) => counted.push([j, ok]) } },
    };
    const ran = await runJob(deps, "broken", "once", () => Promise.reject(new Error("boom")), 7);
    assert.equal(ran, true);
    assert.deepEqual(counted, [["broken", false]]);
    assert.equal(await runJob(deps, "broken", "once", s.job("broken"), 7), false);
  } finally {
    kv.close();
  }
});

Deno.test({
  name: "jobs: two Deno.cron schedules of one job on one store run it once at the minute",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const kv = await openTestKv();
    const stop = new AbortController();
    try {
      const a = scheduler(kv, "a"), b = scheduler(kv, "b");
      const fired: number[] = [];
      const done = Promise.withResolvers<void>();
      // Two instances' schedulers (Deno.cron names are unique per process, the job's is shared).
      for (const [cronName, s] of [["cron of a", a], ["cron of b", b]] as const) {
        Deno.cron(cronName, "* * * * *", { signal: stop.signal }, async () => {
          const minute = slotMinute();
          await runJob(s.deps, "every minute", "once", s.job("every minute"), minute);
          fired.push(minute);
          if (fired.length === 2) done.resolve();
        });
      }
      const timeout = setTimeout(() => done.reject(new Error("cron did not fire")), 75_000);
      await done.promise;
      clearTimeout(timeout);
      assert.equal(fired[0], fired[1], "both schedules fired for the same minute");
      assert.equal(a.runs.length + b.runs.length, 1, "the job ran once");
    } finally {
      stop.abort();
      kv.close();
    }
  },
});

Deno.test("jobs: POSITION_RETENTION_DAYS on the KV store removes blocks older than the kept days", async () => {
  const app = await testApp();
  const IMEI = "359710049400001";
  try {
    await accountWithDevices(app, "retention_a", [IMEI]);
    const DAY = 86_400_000;
    const now = Date.UTC(2026, 10, 27, 12);
    const point = (time: number): StoredPosition =>
      storedFix({
        time,
        lat: 22.5,
        lng: 114 + (time % 1000) * 1e-6,
        course: 0,
        altitude: 0,
        acc: null,
      });
    const positions = app.services.positions;
    // 40, 31 and 29 days ago, a block from the cutoff's eve into the first kept day, today.
    const cutoff = Math.floor(now / DAY - 30) * DAY;
    for (const t of [now - 40 * DAY, now - 31 * DAY, now - 29 * DAY, now]) {
      await positions.importHistory(IMEI, [point(t), point(t + 60_000)]);
    }
    await positions.importHistory(IMEI, [point(cutoff - 60_000), point(cutoff + 60_000)]);
    const before = await positions.range(IMEI, 0, now + DAY);
    assert.equal(before.length, 10);

    assert.equal(await dropExpiredBlocks(app.services, 30, now), 2);
    const after = await positions.range(IMEI, 0, now + DAY);
    assert.deepEqual(
      after.map((p) => p.time),
      before.map((p) => p.time).filter((t) => t >= cutoff - 60_000),
      "whole blocks older than the cutoff went; one reaching past it stays",
    );
    assert.equal(await dropExpiredBlocks(app.services, 30, now), 0);
  } finally {
    await app.close();
  }
});
