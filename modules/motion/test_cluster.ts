/**
 * Cluster mode test parts (issue 23): motion instances on one store as two or three processes
 * run them, each with its own memory (loaded at start), real NATS link (a throwaway
 * nats-server), SessionRegistry (heartbeats and device sessions in the shared store), relay,
 * adoption, background recompute and rules service, the rules kept in step over tp.sync as
 * app/compose.ts does. Used by engine_cluster_test.ts and recompute_cluster_test.ts.
 */
import { directoryDevices } from "./directory_devices.ts";
import assert from "node:assert/strict";
import { testApp } from "../../tests/helpers/harness.ts";
import { accountWithDevices } from "../../tests/helpers/alerting.ts";
import { testNats } from "../../tests/helpers/nats.ts";
import type { Services } from "../../app/compose.ts";
import type { Leadership } from "../../lib/cluster/types.ts";
import { NatsLink } from "../../lib/cluster/nats_link.ts";
import { CacheSync, syncCache } from "../../lib/cluster/cache_sync.ts";
import { SessionRegistry, type SessionTimes } from "../gateway/link/sessions.ts";
import { SessionStore } from "../gateway/link/store_sessions.ts";
import type { StoredPosition } from "../devices/model.ts";
import { feed, Track } from "./test_tracks.ts";
import { type MotionDevices, MotionEngine } from "./engine.ts";
import { MotionStore } from "./store.ts";
import { MotionRulesService, RulesBook } from "./rules.ts";
import { MotionRelay } from "./relay.ts";
import { Adoption } from "./adoption.ts";
import { MotionReads } from "./reader.ts";
import { Recomputer } from "./recompute.ts";
import { dayOf } from "./days.ts";

export const HOUR = 3600_000;
/** Fast heartbeats: an instance silent for 600 ms is gone. */
export const TIMES: SessionTimes = {
  heartbeatMs: 100,
  staleMs: 600,
  flushMs: 10,
  closeRequestMs: 500,
};

/** What compose() gives the engine, from the app's directory (synced fix times). */
export const devicesOf = (s: Services): MotionDevices => directoryDevices(s.directory);

/** The leadership an instance is given (the advisory lock decides it in production). */
export function leadership(leading: boolean): Leadership {
  return { isLeader: () => leading, onChange: () => () => {}, close: () => Promise.resolve() };
}

export interface Instance {
  id: string;
  engine: MotionEngine;
  link: NatsLink;
  sessions: SessionRegistry;
  relay: MotionRelay;
  adoption: Adoption;
  reads: MotionReads;
  book: RulesBook;
  rules: MotionRulesService;
  recompute: Recomputer;
  /** Stops the rules sync (tp.sync.motionRules). */
  unsync: () => void;
  /** Stopped (cleanly or killed). */
  down: boolean;
}

/**
 * An instance in cluster mode: its own memory (loaded at start), link, sessions, relay,
 * recompute and rules, wired as modules/motion/service.ts createMotion does.
 */
export async function startInstance(
  s: Services,
  name: string,
  natsUrl: string,
  leading = false,
): Promise<Instance> {
  const id = `${name}-${crypto.randomUUID().slice(0, 8)}`;
  const store = new MotionStore(s.kv);
  const book = new RulesBook();
  await book.load(store);
  const known = devicesOf(s);
  const engine = new MotionEngine(store, book, known, s.positions, true);
  await engine.load();
  const link = await NatsLink.connect(natsUrl);
  const sessions = new SessionRegistry(new SessionStore(s.kv), { instanceId: id, link }, TIMES);
  sessions.start(() => ({ closed: true }));
  const leader = leadership(leading);
  const relay = new MotionRelay(engine, link, sessions, leader);
  relay.start();
  const adoption = new Adoption(engine, known, sessions, leader);
  const reads = new MotionReads(store, engine, relay);
  let kick = () => {};
  const rules = new MotionRulesService({
    store,
    book,
    // The caller's access is app/compose.ts's (tested with the rules API): the account named.
    account: (session, userId) => Promise.resolve(userId ?? session.cAccountId),
    imeisOf: known.imeisOf,
    kick: () => kick(),
    marksLeft: (userId) => store.rulesMarksLeft(userId),
  });
  const recompute = new Recomputer({
    store,
    engine,
    book,
    rules,
    known,
    points: s.positions,
    cluster: { holders: sessions, leader },
  });
  kick = recompute.kick;
  engine.onLate = recompute.kick;
  book.onReloaded = recompute.kick;
  const unsync = syncCache(
    new CacheSync({ mode: "cluster", instanceId: id, link }),
    "motionRules",
    book,
  );
  await recompute.start();
  const inst = { id, engine, link, sessions, relay, adoption, reads, book, rules, recompute };
  return { ...inst, unsync, down: false };
}

/** A clean stop: what is pending written, heartbeat deleted. */
export async function stopInstance(inst: Instance): Promise<void> {
  if (inst.down) return;
  inst.down = true;
  inst.unsync();
  inst.relay.stop();
  await inst.recompute.stop();
  await inst.engine.close();
  await inst.sessions.stop();
  await inst.link.close();
}

/** SIGKILL: memory lost, heartbeat and link gone without a word. */
export async function killInstance(inst: Instance): Promise<void> {
  inst.down = true;
  inst.unsync();
  await inst.recompute.stop();
  inst.engine.abandon();
  inst.relay.stop();
  await inst.sessions.stop(false);
  await inst.link.close();
}

export async function waitFor(what: string, fn: () => boolean | Promise<boolean>, ms = 5000) {
  const end = Date.now() + ms;
  while (!(await fn())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** All instances see each other's heartbeats. */
export async function allLive(list: Instance[]): Promise<void> {
  await waitFor(
    "the instances' heartbeats",
    () => list.every((a) => list.every((b) => a.sessions.instanceLive(b.id))),
  );
}

/** The device connects to an instance (its session recorded) and sends points there. */
export async function connect(inst: Instance, imei: string, userId: string): Promise<void> {
  inst.engine.onConnection({ type: "connection", imei, userId, connected: true });
  inst.sessions.claimed(imei);
  await inst.sessions.flush();
  await inst.engine.settled();
}

export async function send(
  s: Services,
  inst: Instance,
  imei: string,
  userId: string,
  points: StoredPosition[],
): Promise<void> {
  await feed(s, imei, points);
  inst.engine.onCommitted({ type: "positionsCommitted", imei, userId, points });
  await inst.engine.settled();
}

/** Its connection closes there (the instance writes its checkpoint at release). */
export async function disconnect(inst: Instance, imei: string, userId: string): Promise<void> {
  inst.engine.onConnection({ type: "connection", imei, userId, connected: false });
  inst.sessions.released(imei);
  await inst.sessions.flush();
  await inst.engine.flush();
}

/**
 * The track's points before `splitAt` go to `first` (connected there, then closed), the rest to
 * `then`, which holds the device afterwards and has flushed: a drive that moved instances.
 */
export async function moveMidway(
  s: Services,
  device: { imei: string; userId: string },
  points: StoredPosition[],
  splitAt: number,
  first: Instance,
  then: Instance,
): Promise<void> {
  const { imei, userId } = device;
  const split = points.findIndex((p) => p.time >= splitAt);
  await connect(first, imei, userId);
  await send(s, first, imei, userId, points.slice(0, split));
  await disconnect(first, imei, userId);
  await connect(then, imei, userId);
  await send(s, then, imei, userId, points.slice(split));
  await then.engine.flush();
}

export const near = (a: number, b: number, tol: number, what: string) =>
  assert.ok(Math.abs(a - b) <= tol, `${what}: ${a} not within ${tol} of ${b}`);

/** One app (its store and directory) shared by the instances, one nats-server, one device. */
export async function cluster(
  imei: string,
  names: { name: string; leading?: boolean }[],
  body: (s: Services, userId: string, instances: Instance[]) => Promise<void>,
): Promise<void> {
  const app = await testApp({ MOTION_ANALYSIS: "off" });
  const nats = await testNats();
  const instances: Instance[] = [];
  try {
    await accountWithDevices(app, `motion_cl_${imei.slice(-3)}`, [imei]);
    const s = app.services;
    const userId = s.directory.get(imei)!.userId;
    // Every instance started (and loaded its checkpoints) before the device moved.
    for (const n of names) {
      instances.push(await startInstance(s, n.name, nats.url, n.leading ?? false));
    }
    await allLive(instances);
    await body(s, userId, instances);
  } finally {
    for (const inst of instances) await stopInstance(inst);
    await nats.stop();
    await app.close();
  }
}

/** A drive from `start` (a point every 30 s at 60 km/h) after a 5-minute park. */
export function parkThenDrive(start: number, driveSeconds: number): StoredPosition[] {
  return new Track(start, 22.5, 114).here().stay(300).drive(driveSeconds, 60).points;
}

export const tripsIn = (s: Services, imei: string, from: number) =>
  new MotionStore(s.kv).segments(imei, "trip", dayOf(from), dayOf(Date.now() + 3 * HOUR));
