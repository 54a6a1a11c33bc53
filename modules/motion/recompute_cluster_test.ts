/**
 * Cluster mode (issue 23): marked recomputes run where the device is analysed. A rules change
 * made through one instance rebuilds a device on the instance holding it (the rules reach it
 * over tp.sync, and with them the look at the marks); late points into a past day are
 * recomputed once, by the holder; a device no live instance holds is adopted by the leader,
 * rebuilt there and checkpointed, so the next holder starts from the rebuilt analysis; the rules
 * API's progress is read from the marks left in the store, right on any instance.
 *
 * Real parts: engines on one PostgreSQL or KV store, real NATS links, real SessionRegistry
 * instances (./test_cluster.ts).
 */
import assert from "node:assert/strict";
import type { Session } from "../../lib/http/env.ts";
import type { StoredPosition } from "../devices/model.ts";
import {
  cluster,
  connect,
  disconnect,
  HOUR,
  moveMidway,
  near,
  send,
  tripsIn,
  waitFor,
} from "./test_cluster.ts";
import { Track } from "./test_tracks.ts";
import { MotionStore } from "./store.ts";
import { addDays, dayOf, dayStart } from "./days.ts";

/** The account owner, changing its own rules. */
const ownerSession = (userId: string): Session => ({
  accountId: userId,
  cAccountId: userId,
  isVirtual: false,
  jti: "recompute-cluster-test",
  via: "bearer",
});

/**
 * Park 5 min, drive 20 min at 60 km/h, stop 10 min, drive 10 min (then `after` seconds
 * parked). With the default stop time (3 min) two trips of 20 and 10 km; with 15 min one of 30.
 */
function driveStopDrive(start: number, after = 0): StoredPosition[] {
  return new Track(start, 22.5, 114).here().stay(300).drive(1200, 60).stay(600).drive(600, 60)
    .stay(after).points;
}

async function marksIn(store: MotionStore): Promise<string[]> {
  const out: string[] = [];
  for await (const { imei } of store.marks()) out.push(imei);
  return out;
}

Deno.test("motion recompute in cluster mode: a rules change made on B rebuilds the device A holds, on A", async () => {
  const imei = "359710049300071";
  const names = [{ name: "a" }, { name: "b", leading: true }];
  await cluster(imei, names, async (s, userId, [a, b]) => {
    const store = new MotionStore(s.kv);
    // The drive starts on B (which keeps a stale memory of it) and continues on A, which holds
    // the device: its last fix 2 minutes ago, the second drive under way.
    const start = Math.floor(Date.now() / 1000) * 1000 - 47 * 60_000;
    const points = driveStopDrive(start);
    await moveMidway(s, { imei, userId }, points, start + 10 * 60_000, b, a);
    const [openBefore] = a.engine.openSegments(imei, "trip", Date.now());
    near(openBefore.distance, 10, 0.5, "A's second trip under the default rules");
    assert.equal((await tripsIn(s, imei, start)).length, 1, "the first trip stored");
    const staleOnB = b.engine.has(imei)!.analyzer;

    // The owner changes the stop time through B: the device's mark is left for A.
    const session = ownerSession(userId);
    const set = await b.rules.set(session, userId, { stopSeconds: 900 });
    assert.deepEqual(set.recomputing, { done: 0, total: 1 }, "progress on B at once");
    await waitFor("A rebuilding the device", () => a.recompute.stats.rebuilds === 1);
    await a.recompute.idle();
    await b.recompute.idle();
    await a.engine.flush();

    // A's live analysis follows the new rule: one trip under way since the first drive.
    const open = a.engine.openSegments(imei, "trip", Date.now());
    assert.equal(open.length, 1);
    near(open[0].start, start + 300_000, 60_000, "the trip starts with the first drive");
    near(open[0].distance, 30, 1, "both drives, one trip");
    assert.deepEqual(await tripsIn(s, imei, start), [], "the 20 km trip is no longer closed");
    const changedAt = Date.parse(set.changedAt!);
    assert.equal(a.engine.has(imei)!.rulesAt, changedAt);
    assert.equal((await store.checkpoint(imei))!.rulesAt, changedAt, "checkpointed rebuilt");
    // B did no rebuild: its stale memory is neither rebuilt nor read.
    assert.equal(b.recompute.stats.rebuilds, 0);
    assert.ok(b.recompute.stats.left >= 1, "B left the mark for A");
    assert.equal(b.engine.has(imei)!.analyzer, staleOnB);
    const onB = await b.reads.segments("trip", imei, start, Date.now());
    assert.equal(onB.length, 1);
    near(onB[0].distance, 30, 1, "a report on B reads A's rebuilt trip");

    // Done: nothing marked, and the rules API on B says so.
    assert.deepEqual(await marksIn(store), []);
    assert.equal((await b.rules.get(session, userId)).recomputing, null, "B: finished");
    assert.equal((await a.rules.get(session, userId)).recomputing, null, "A: finished");
  });
});

Deno.test("motion recompute in cluster mode: late points into a past day are recomputed once, by the holder", async () => {
  const imei = "359710049300089";
  const names = [{ name: "a" }, { name: "b", leading: true }];
  await cluster(imei, names, async (s, userId, [a, b]) => {
    const store = new MotionStore(s.kv);
    const start = Math.floor(Date.now() / 1000) * 1000 - 47 * 60_000;
    await connect(a, imei, userId);
    await send(s, a, imei, userId, driveStopDrive(start));
    await a.engine.flush();

    // A buffer from two days ago (a 10 km drive) reaches A. A's own look at the marks is held
    // back until B (the leader) has looked: B must leave the mark for A.
    const day = addDays(dayOf(Date.now()), -2);
    const late = new Track(dayStart(day) + 10 * HOUR, 22.0, 114).here().stay(300)
      .drive(600, 60).stay(600).points;
    a.engine.onLate = () => {};
    await send(s, a, imei, userId, late);
    await a.engine.flush();
    assert.deepEqual(await marksIn(store), [imei]);
    b.recompute.kick();
    await b.recompute.idle();
    assert.equal(b.recompute.stats.days, 0, "the leader did not recompute A's device");
    assert.equal(b.recompute.stats.adopted, 0);
    assert.deepEqual(await marksIn(store), [imei], "the mark left for A");

    a.engine.onLate = a.recompute.kick;
    a.recompute.kick();
    await a.recompute.idle();
    assert.equal(a.recompute.stats.days, 1, "A recomputed the day");
    assert.equal(a.recompute.stats.rebuilds, 0, "a past day alone");
    assert.deepEqual(await marksIn(store), []);
    const trips = await store.segments(imei, "trip", day, day);
    assert.equal(trips.length, 1);
    near(trips[0].distance, 10, 0.5, "the late drive");

    // Looked at again anywhere: nothing more to do.
    for (const inst of [a, b]) {
      inst.recompute.kick();
      await inst.recompute.idle();
    }
    assert.equal(a.recompute.stats.days + b.recompute.stats.days, 1, "recomputed once");
  });
});

Deno.test("motion recompute in cluster mode: the leader adopts an unheld device for its marks and checkpoints the rebuild; the next holder starts from it", async () => {
  const imei = "359710049300097";
  const names = [{ name: "a" }, { name: "b", leading: true }];
  await cluster(imei, names, async (s, userId, [a, b]) => {
    const store = new MotionStore(s.kv);
    // The device drove while connected to A, parked, and closed its connection (A wrote its
    // checkpoint): no live instance holds it. Its last fix 5 minutes ago.
    const start = Math.floor(Date.now() / 1000) * 1000 - 60 * 60_000;
    const points = driveStopDrive(start, 600);
    const lastFix = points[points.length - 1].time;
    await connect(a, imei, userId);
    await send(s, a, imei, userId, points);
    await disconnect(a, imei, userId);
    const before = await tripsIn(s, imei, start);
    assert.deepEqual(before.map((t) => Math.round(t.distance)), [20, 10]);
    // Two hours later on the leader: the device is silent past its gap.
    const later = () => Date.now() + 2 * HOUR;
    b.engine.clock = later;

    // The change is made through A, which does not analyse the device (nor lead).
    const session = ownerSession(userId);
    const set = await a.rules.set(session, userId, { stopSeconds: 900 });
    const changedAt = Date.parse(set.changedAt!);
    await waitFor("the leader rebuilding the device", () => b.recompute.stats.rebuilds === 1);
    await b.recompute.idle();
    await a.recompute.idle();
    assert.equal(a.recompute.stats.rebuilds, 0);
    assert.ok(a.recompute.stats.left >= 1, "A left the mark");
    assert.equal(b.recompute.stats.adopted, 1);
    assert.deepEqual(b.engine.adoptedDevices(), [imei]);

    // One trip of both drives (the gap closed at the last fix by the leader's clock).
    const trips = await tripsIn(s, imei, start);
    assert.equal(trips.length, 1, JSON.stringify(trips));
    near(trips[0].start, start + 300_000, 60_000, "from the first drive");
    near(trips[0].distance, 30, 1, "both drives");
    const checkpoint = (await store.checkpoint(imei))!;
    assert.equal(checkpoint.rulesAt, changedAt, "the checkpoint is the rebuilt analysis");
    assert.equal(checkpoint.lastTime, lastFix);
    assert.deepEqual(await marksIn(store), []);
    assert.equal((await a.rules.get(session, userId)).recomputing, null, "A: finished");

    // The device connects to A again: A's memory (old rules) gives way to the checkpoint.
    assert.notEqual(a.engine.has(imei)!.rulesAt, changedAt);
    await connect(a, imei, userId);
    const onA = a.engine.has(imei)!;
    assert.equal(onA.rulesAt, changedAt, "A continues from the rebuilt checkpoint");
    assert.equal(onA.analyzer.waitingForGap, false, "with the gap closed");
    await b.adoption.pass(later());
    assert.deepEqual(b.engine.adoptedDevices(), [], "the leader lets it go to A");
  });
});
