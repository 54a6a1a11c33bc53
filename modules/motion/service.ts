/**
 * Builds the motion area from what it uses (app/compose.ts buildMotion): the store, the rules,
 * the live engine (left out with MOTION_ANALYSIS=off), the background recompute and the
 * MotionReader the reports read. Start-up continues from the checkpoints before the pipeline
 * delivers anything.
 */
import type { Session } from "../../lib/http/env.ts";
import type { ClusterLink, Leadership } from "../../lib/cluster/types.ts";
import { Adoption } from "./adoption.ts";
import { type MotionHolders, MotionRelay } from "./relay.ts";
import { type MotionDevices, MotionEngine, type PointReader } from "./engine.ts";
import { MotionReads } from "./reader.ts";
import { Recomputer } from "./recompute.ts";
import { MotionRulesService, RulesBook } from "./rules.ts";
import type { MotionStore } from "./store.ts";
import type { MotionReader } from "./types.ts";

/** The motion area's handle (Services.motion). */
export interface MotionServices {
  /** What the reports read: segments and day summaries, the open ones from memory. */
  reader: MotionReader;
  /** Per-account rules and the progress of their recompute (the rules API). */
  rules: MotionRulesService;
  /** The rules in force by account (cluster mode keeps it in step across instances). */
  book: RulesBook;
  /** The live analysis (the pipeline's "motion analysis" stage); null when off. */
  engine: MotionEngine | null;
  recompute: Recomputer | null;
  /**
   * Cluster mode's counters since start (GET /metrics): reports asked of the holder or computed
   * from a checkpoint, devices adopted by the leader, marks left to their analysing instance.
   * Empty in single mode.
   */
  clusterStats(): Record<string, number>;
  /** Writes what is pending and waits for the recompute (tests; process exit). */
  idle(): Promise<void>;
  close(): Promise<void>;
}

export interface MotionDeps {
  store: MotionStore;
  enabled: boolean;
  devices: MotionDevices;
  points: PointReader;
  /** Cluster mode: devices taken over from another instance are read again (MotionEngine). */
  takeOver?: boolean;
  /**
   * Cluster mode: reports of devices analysed elsewhere are read there (./relay.ts), and the
   * leader adopts devices no live instance holds (./adoption.ts). Absent in single mode.
   */
  cluster?: MotionCluster;
  /** The account a rules request names (null: the caller's own), refused outside its tree. */
  account(session: Session, userId: string | null): Promise<string>;
}

export interface MotionCluster {
  link: ClusterLink;
  leader: Leadership;
  holders: MotionHolders;
}

export async function createMotion(d: MotionDeps): Promise<MotionServices> {
  const store = d.store;
  const book = new RulesBook();
  await book.load(store);
  let kick = () => {};
  const rules = new MotionRulesService({
    store,
    book,
    account: d.account,
    imeisOf: (userId) => d.devices.imeisOf(userId),
    kick: () => kick(),
    // Cluster mode: other instances work off the marks of the devices they analyse.
    marksLeft: d.cluster ? (userId) => store.rulesMarksLeft(userId) : undefined,
  });
  if (!d.enabled) {
    return {
      reader: new MotionReads(store, null),
      rules,
      book,
      engine: null,
      recompute: null,
      clusterStats: () => ({}),
      idle: () => Promise.resolve(),
      close: () => Promise.resolve(),
    };
  }
  const engine = new MotionEngine(store, book, d.devices, d.points, d.takeOver);
  const c = d.cluster;
  const recompute = new Recomputer({
    store,
    engine,
    book,
    rules,
    known: d.devices,
    points: d.points,
    cluster: c ? { holders: c.holders, leader: c.leader } : undefined,
  });
  kick = recompute.kick;
  engine.onLate = recompute.kick;
  // Cluster mode: a rules change made elsewhere left marks for the devices analysed here.
  if (c) book.onReloaded = recompute.kick;
  await engine.load();
  await recompute.start();
  const relay = c ? new MotionRelay(engine, c.link, c.holders, c.leader) : null;
  const adoption = c ? new Adoption(engine, d.devices, c.holders, c.leader) : null;
  relay?.start();
  adoption?.start();
  return {
    reader: new MotionReads(store, engine, relay),
    rules,
    book,
    engine,
    recompute,
    clusterStats: (): Record<string, number> =>
      relay && adoption
        ? {
          reportsAskedOfHolder: relay.stats.asked,
          reportsFromCheckpoint: relay.stats.fromCheckpoint,
          adoptionLookUps: adoption.stats.lookedUp,
          adopted: adoption.stats.adopted,
          marksLeftToHolder: recompute.stats.left,
          adoptedForMarks: recompute.stats.adopted,
        }
        : {},
    async idle() {
      await engine.flush();
      await recompute.idle();
      await engine.flush();
    },
    async close() {
      await adoption?.stop();
      relay?.stop();
      await recompute.stop();
      await engine.close();
    },
  };
}
