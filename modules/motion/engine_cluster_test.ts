/**
 * Cluster mode (issue 23): motion engines on one store as two or three instances run them, each
 * with its own real NATS link (a throwaway nats-server) and its own SessionRegistry (heartbeats
 * and device sessions in the shared store). Exactly one instance analyses each device: only
 * held or adopted devices are ticked, the leader adopts devices no live instance holds, and a
 * report read anywhere sees the analysis where it runs (or the device's checkpoint).
 *
 * Time: the analysis closes a trip for the gap (1 h) by the wall clock. An instance whose clock
 * is moved 2 h ahead (`engine.clock`, the adoption pass's `now`) stands for "two hours later".
 */
import assert from "node:assert/strict";
import type { Services } from "../../app/compose.ts";
import type { StoredPosition } from "../devices/model.ts";
import {
  cluster,
  connect,
  disconnect,
  HOUR,
  type Instance,
  killInstance,
  moveMidway,
  near,
  parkThenDrive,
  send,
  tripsIn,
  waitFor,
} from "./test_cluster.ts";
import { MotionStore } from "./store.ts";
import { dayOf } from "./days.ts";

/**
 * The device's trip started on B (10 minutes of it), then the device reconnected to A, which
 * holds it now with the trip under way (its last fix a minute ago). B's memory of it is stale:
 * the trip open, its last point 1 h 50 min old (past the gap).
 */
async function tripMovedToA(
  s: Services,
  imei: string,
  userId: string,
  a: Instance,
  b: Instance,
): Promise<{ start: number; points: StoredPosition[] }> {
  const start = Math.floor(Date.now() / 1000) * 1000 - 2 * HOUR;
  const points = parkThenDrive(start, (2 * HOUR - 360_000) / 1000);
  await moveMidway(s, { imei, userId }, points, start + 900_000, b, a);
  return { start, points };
}

Deno.test("motion in cluster mode: a non-holder's flush does not close the holder's trip early", async () => {
  const imei = "359710049300021";
  await cluster(imei, [{ name: "a" }, { name: "b", leading: true }], async (s, userId, [a, b]) => {
    const { start } = await tripMovedToA(s, imei, userId, a, b);
    const stale = b.engine.has(imei)!;
    assert.ok(Date.now() - stale.lastTime > HOUR, "B's memory of the device is past the gap");
    assert.ok(stale.analyzer.waitingForGap);

    // B flushes (it would have closed the trip for the gap from its stale state).
    const segmentsBefore = b.engine.stats.segments;
    await b.engine.flush(true);
    assert.equal(b.engine.stats.segments, segmentsBefore, "B closed nothing");
    assert.ok(b.engine.has(imei)!.analyzer.waitingForGap, "B's stale analysis was not ticked");
    // The leader's pass: the device's last fix is a minute old, nothing to adopt.
    assert.deepEqual(await b.adoption.pass(), []);

    assert.deepEqual(await tripsIn(s, imei, start), [], "no trip written from a stale state");
    const stored = await new MotionStore(s.kv).months(imei, [dayOf(start).slice(0, 7)]);
    assert.deepEqual(stored.filter((d) => d.date >= dayOf(start)), [], "no day summary either");
    // A's trip is under way: 5 min parked, then all of the drive.
    const [trip] = a.engine.openSegments(imei, "trip", Date.now());
    near(trip.start, start + 300_000, 60_000, "A's trip start");
    near(trip.distance, 114, 1, "A's trip km (both instances' parts)");
  });
});

Deno.test("motion in cluster mode: a report on B reads A's open trip for a device A holds, and the checkpoint for an unheld one", async () => {
  const imei = "359710049300039";
  await cluster(imei, [{ name: "a" }, { name: "b" }], async (s, userId, [a, b]) => {
    const { start } = await tripMovedToA(s, imei, userId, a, b);
    const now = Date.now();
    const onA = a.engine.openSegments(imei, "trip", now);
    const staleOnB = b.engine.openSegments(imei, "trip", now);
    assert.equal(onA.length, 1);
    assert.ok(staleOnB[0].distance < 20, "B's own memory has only its 10 minutes");

    // Read on B: asked of A, the holder.
    const read = await b.reads.segments("trip", imei, start, now);
    assert.equal(read.length, 1);
    assert.equal("open" in read[0] && read[0].open, true);
    assert.equal(read[0].start, onA[0].start);
    assert.equal(read[0].end, onA[0].end);
    near(read[0].distance, onA[0].distance, 1e-9, "the trip as A sees it");
    const days = await b.reads.days(imei, start, now);
    const kmOnA = a.engine.runningDays(imei).reduce((km, d) => km + d.distance, 0);
    near(days.reduce((km, d) => km + d.distance, 0), kmOnA, 1e-9, "the running days of A");
    assert.equal(b.relay.stats.asked, 2);
    assert.equal(b.relay.stats.fromCheckpoint, 0);

    // The device's connection closes on A (its checkpoint written there): nobody holds it.
    await disconnect(a, imei, userId);
    const later = Date.now();
    const unheld = await b.reads.segments("trip", imei, start, later);
    assert.equal(b.relay.stats.fromCheckpoint, 1, "computed from the checkpoint");
    assert.equal(unheld.length, 1);
    assert.equal(
      "open" in unheld[0] && unheld[0].open,
      true,
      "still under way (silent for less than the gap)",
    );
    assert.equal(unheld[0].start, onA[0].start);
    assert.equal(unheld[0].end, onA[0].end);
    near(unheld[0].distance, onA[0].distance, 1e-9, "the checkpoint's trip");
    // B's stale memory is unchanged and unused.
    assert.ok(b.engine.openSegments(imei, "trip", later)[0].distance < 20);
  });
});

Deno.test("motion in cluster mode: the holder is killed with a trip open; the leader closes it at the last stored fix", async () => {
  const imei = "359710049300047";
  const names = [{ name: "a" }, { name: "b", leading: true }, { name: "c" }];
  await cluster(imei, names, async (s, userId, [a, b, c]) => {
    // 5 min parked, 30 min driving (30 km), the last fix 5 minutes ago. The trip starts on C
    // (whose memory of it stays there), continues on A, which checkpoints in the middle of it
    // and is killed with the rest in memory only.
    const start = Math.floor(Date.now() / 1000) * 1000 - 40 * 60_000;
    const points = parkThenDrive(start, 1800);
    const lastFix = points[points.length - 1].time;
    const onC = points.findIndex((p) => p.time >= start + 15 * 60_000);
    const split = points.findIndex((p) => p.time >= start + 25 * 60_000);
    await connect(c, imei, userId);
    await send(s, c, imei, userId, points.slice(0, onC));
    await disconnect(c, imei, userId);
    await connect(a, imei, userId);
    await send(s, a, imei, userId, points.slice(onC, split));
    await a.engine.flush(true);
    await send(s, a, imei, userId, points.slice(split));
    await killInstance(a);
    await waitFor("A counted gone", () => !b.sessions.instanceLive(a.id));
    await waitFor("A counted gone on C", () => !c.sessions.instanceLive(a.id));

    // Read on C meanwhile: from A's checkpoint and the positions stored after it.
    const read = await c.reads.segments("trip", imei, start, Date.now());
    assert.equal(c.relay.stats.fromCheckpoint, 1);
    assert.equal(read.length, 1);
    assert.equal(read[0].end, lastFix, "the open trip reaches the last stored fix");
    near(read[0].distance, 30, 0.5, "the whole trip's km");

    // Two hours later: the leader adopts the device and closes its trip for the gap.
    const later = () => Date.now() + 2 * HOUR;
    b.engine.clock = later;
    c.engine.clock = later;
    await c.engine.flush(true);
    assert.deepEqual(await c.adoption.pass(later()), [], "not the leader");
    assert.deepEqual(await b.adoption.pass(later()), [imei]);
    await b.engine.flush(true);
    const trips = await tripsIn(s, imei, start);
    assert.equal(trips.length, 1, JSON.stringify(trips));
    near(trips[0].start, start + 300_000, 60_000, "trip start");
    near(trips[0].end, lastFix, 30_000, "trip end at the last stored fix");
    near(trips[0].distance, 30, 0.5, "the whole trip's km");

    // Settled: let go by the next pass, and not looked up again after that.
    await b.adoption.pass(later());
    assert.deepEqual(b.engine.adoptedDevices(), []);
    const lookedUp = b.adoption.stats.lookedUp;
    assert.deepEqual(await b.adoption.pass(later()), []);
    assert.equal(b.adoption.stats.lookedUp, lookedUp, "a settled device costs no look-up");
    // C's stale memory of it was never ticked (it would have ended the trip 20 minutes early).
    assert.ok(c.engine.has(imei)!.analyzer.waitingForGap);
  });
});

Deno.test("motion in cluster mode: after a clean close on A the gap is closed once, by the leader", async () => {
  const imei = "359710049300054";
  const names = [{ name: "a" }, { name: "b", leading: true }, { name: "c" }];
  await cluster(imei, names, async (s, userId, [a, b, c]) => {
    // The trip starts on C, continues on A; A's connection closes cleanly with the trip open.
    const start = Math.floor(Date.now() / 1000) * 1000 - 40 * 60_000;
    const points = parkThenDrive(start, 1800);
    const lastFix = points[points.length - 1].time;
    const split = points.findIndex((p) => p.time >= start + 20 * 60_000);
    await connect(c, imei, userId);
    await send(s, c, imei, userId, points.slice(0, split));
    await disconnect(c, imei, userId);
    await connect(a, imei, userId);
    await send(s, a, imei, userId, points.slice(split));
    await disconnect(a, imei, userId);

    // Two hours later, on every instance.
    const later = () => Date.now() + 2 * HOUR;
    const all = [a, b, c];
    for (const inst of all) inst.engine.clock = later;
    const closedBefore = all.map((inst) => inst.engine.stats.segments);
    for (const inst of [a, c]) {
      await inst.engine.flush(true);
      assert.deepEqual(await inst.adoption.pass(later()), [], "not the leader");
    }
    assert.deepEqual(await tripsIn(s, imei, start), [], "A and C closed nothing");
    assert.deepEqual(await b.adoption.pass(later()), [imei]);
    await b.engine.flush(true);
    for (const inst of all) await inst.engine.flush(true);
    assert.deepEqual(await b.adoption.pass(later()), [], "adopted once");

    const trips = await tripsIn(s, imei, start);
    assert.equal(trips.length, 1, JSON.stringify(trips));
    near(trips[0].end, lastFix, 30_000, "trip end at A's last fix");
    near(trips[0].distance, 30, 0.5, "both instances' parts");
    assert.equal(a.engine.stats.segments, closedBefore[0], "A closed nothing");
    assert.equal(c.engine.stats.segments, closedBefore[2], "C closed nothing");
    assert.ok(b.engine.stats.segments > closedBefore[1], "the leader closed the trip");
    assert.ok(a.engine.has(imei)!.analyzer.waitingForGap, "A never ticked it");
    assert.ok(c.engine.has(imei)!.analyzer.waitingForGap, "C never ticked it");
  });
});

Deno.test("motion in cluster mode: the leader's offline status of a device reaches its holder; with none the leader adopts it", async () => {
  const imei = "359710049300062";
  await cluster(imei, [{ name: "a" }, { name: "b", leading: true }], async (s, userId, [a, b]) => {
    await tripMovedToA(s, imei, userId, a, b);
    const staleConn = structuredClone(b.engine.has(imei)!.conn);
    assert.equal(a.engine.has(imei)!.conn?.online, true);

    // The leader's status sweep announces the device offline on the leader's bus.
    const offline = {
      type: "status",
      imei,
      userId,
      status: "offline",
      previous: "moving",
    } as const;
    b.engine.onStatus(offline);
    await waitFor(
      "A applying the offline status",
      () => a.engine.has(imei)!.conn?.online === false,
    );
    assert.deepEqual(b.engine.has(imei)!.conn, staleConn, "B's stale memory untouched");
    assert.deepEqual(b.engine.adoptedDevices(), []);

    // Its connection closes on A; it comes back online there and is swept offline again: no
    // live holder, so the leader adopts it (its checkpoint and stored points) and applies it.
    a.engine.onStatus({ ...offline, status: "moving", previous: "offline" });
    await disconnect(a, imei, userId);
    b.engine.onStatus(offline);
    await waitFor("B adopting the device", () => b.engine.adoptedDevices().includes(imei));
    await b.engine.settled();
    await waitFor("B applying the status", () => b.engine.has(imei)!.conn?.online === false);
    assert.equal(b.engine.has(imei)!.lastTime, a.engine.has(imei)!.lastTime, "reloaded");
  });
});
