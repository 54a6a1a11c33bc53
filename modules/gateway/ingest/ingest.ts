import type { AlertRecord, AlertRecordWriter } from "../../alerts/types.ts";
import type { DeviceDirectory } from "../../devices/directory.ts";
import {
  deriveStatus,
  type Device,
  type DeviceState,
  MOVING_SPEED_KMH,
  type StoredPosition,
} from "../../devices/model.ts";
import type { DevicePoints, JournalChunk, Readings } from "../../positions/journal.ts";
import { summarizeJournal } from "../../positions/journal.ts";
import type { PositionJournal } from "../../positions/types.ts";
import type { Publisher } from "../../../lib/events/bus.ts";
import type { DriverIdentity, DriverIdentityJournal, GatewayEvent } from "../events.ts";
import { driverIdentityOf } from "./driver_identity.ts";
import { hasLocation, toStored } from "./convert.ts";
import { hasKeys, statusReported } from "./status_report.ts";
import { advanceToFix, applyReadings, emptyState, heard } from "./device_state.ts";
import type { AlarmType, DeviceMessage, Position } from "../protocols/types.ts";
import { type IngestMetrics, ingestMetrics } from "../metrics.ts";
import { log } from "../../../lib/log.ts";

const ingestLog = log.area("ingest");

/**
 * Fixes dated before this are a device clock that was never set (1970 epochs, GPS week
 * rollover, all-zero BCD dates read as 1999-11-30), not history: they stay out of tracks.
 */
export const EARLIEST_FIX_TIME = Date.UTC(2000, 0, 1);

export function plausibleFixTime(time: number): boolean {
  return Number.isFinite(time) && time >= EARLIEST_FIX_TIME;
}

/** Alert mutations one commit may hold besides its journal chunks; KV allows 1000 in all. */
const MAX_MUTATIONS = 800;
/** Devices one commit may hold (their readings go into the journal chunks). */
const MAX_DEVICES = 4000;
/** Positions one commit may hold (a few journal chunks; KV allows 800 KiB per commit). */
const MAX_POSITIONS = 3000;
/** Commits handed to KV at once (with disjoint devices). */
const MAX_IN_FLIGHT = 2;
/**
 * Changed device states are written this long after the change, all together (and before
 * every compaction and at exit): the journal holds what they were derived from and start-up
 * replays it, so nothing acknowledged is lost. Only start-up reads states from KV.
 */
const STATE_FLUSH_MS = 15_000;
/**
 * States per flush commit. Small commits interleave with the position commits in SQLite's
 * single writer instead of holding them up: 500 states (~350 KB) per commit put ~10 ms
 * commits in front of the acknowledgements of the whole fleet.
 */
const STATE_FLUSH_BATCH = 100;

interface Pending {
  device: Device;
  messages: DeviceMessage[];
  receivedAt: number;
  resolve: () => void;
  reject: (e: unknown) => void;
}

/**
 * Stores what devices send, in group commits: every message waiting while one commit runs
 * goes into the next one, so throughput grows with load while each device's message is
 * acknowledged (its promise resolves) only after the commit that holds it succeeded.
 */
export class Ingestor {
  private queue: Pending[] = [];
  private inflight = 0;
  /** Devices with messages in a commit that has not finished yet. */
  private committing = new Set<string>();
  /** Devices whose state changed since it was last written. */
  private unsavedStates = new Set<string>();
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  private flushing: Promise<void> = Promise.resolve();
  /** implausibleTimes: fixes dated before EARLIEST_FIX_TIME, acknowledged but not stored. */
  readonly stats = { commits: 0, positions: 0, alerts: 0, implausibleTimes: 0 };
  /** Devices whose first implausible fix time was logged. */
  private flaggedDevices = new Set<string>();
  constructor(
    private readonly directory: DeviceDirectory,
    private readonly positions: PositionJournal,
    private readonly alerts: Pick<AlertRecordWriter, "addTo">,
    /** Where what was stored goes next: the position pipeline (app/position_pipeline.ts). */
    private readonly bus: Publisher<GatewayEvent>,
    private readonly offlineMs: number,
    /** The alert address of a point for a device's owner (the geocoder's, synchronous). */
    private readonly addressOf: AddressOf,
    /** Commits, their size and time, acknowledgement latency, the queue (app/compose.ts). */
    private readonly metrics: IngestMetrics = ingestMetrics(),
    /** Driver identity reports (RFID swipes) kept in the same commit (the fleet's store). */
    private readonly identities: DriverIdentityJournal | null = null,
  ) {
    metrics.pendingSubmissions.sampler = () => this.queue.length;
    metrics.pendingPositions.sampler = () => {
      let n = 0;
      for (const p of this.queue) for (const m of p.messages) n += positionCount(m);
      return n;
    };
  }

  /** Resolves once the messages are durably stored. */
  submit(device: Device, messages: DeviceMessage[]): Promise<void> {
    if (
      !messages.some((m) =>
        m.type !== "identify" && m.type !== "commandReply" && m.type !== "video"
      )
    ) {
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ device, messages, receivedAt: Date.now(), resolve, reject });
      this.pump();
    });
  }

  /**
   * Starts commits while fewer than MAX_IN_FLIGHT run: the next batch is built and handed to
   * KV while the previous one is still being written, so the main thread does not sit idle
   * waiting for SQLite. Commits in flight never share a device (its state is derived from
   * the one the previous commit left), so each device's messages stay in order.
   */
  private pump(): void {
    while (this.inflight < MAX_IN_FLIGHT && this.queue.length) {
      const batch = this.takeBatch();
      if (!batch.length) return; // every queued device waits for a commit in flight
      this.inflight++;
      for (const p of batch) this.committing.add(p.device.imei);
      this.commit(batch).catch((e) => {
        for (const p of batch) p.reject(e);
      }).finally(() => {
        this.inflight--;
        for (const p of batch) this.committing.delete(p.device.imei);
        this.pump();
      });
    }
  }

  /**
   * Takes queued submissions, in order, until the commit would exceed its mutation budget;
   * submissions of devices in a commit still in flight stay queued (in their order).
   */
  private takeBatch(): Pending[] {
    let mutations = 0, positions = 0;
    const devices = new Set<string>();
    const taken: Pending[] = [];
    const kept: Pending[] = [];
    let i = 0;
    for (; i < this.queue.length; i++) {
      const p = this.queue[i];
      if (this.committing.has(p.device.imei)) {
        kept.push(p);
        continue;
      }
      if (!devices.has(p.device.imei) && devices.size >= MAX_DEVICES) break;
      let cost = 0, points = 0;
      for (const m of p.messages) {
        cost += alarmCost(m);
        points += positionCount(m);
      }
      if (
        taken.length > 0 && (mutations + cost > MAX_MUTATIONS || positions + points > MAX_POSITIONS)
      ) break;
      mutations += cost;
      positions += points;
      devices.add(p.device.imei);
      taken.push(p);
    }
    if (kept.length === 0) this.queue.splice(0, i);
    else this.queue = kept.concat(this.queue.slice(i));
    return taken;
  }

  private async commit(batch: Pending[]): Promise<void> {
    const op = this.positions.openCommit();
    const devices = new Map<string, CommitDevice>();
    // Published once the commit succeeded (plain events: no closure per position).
    const events: GatewayEvent[] = [];
    let alerts = 0;
    for (const p of batch) {
      let entry = devices.get(p.device.imei);
      if (!entry) {
        const before = this.directory.state(p.device.imei);
        // A shallow copy is enough: the state functions only replace top-level fields (the
        // position object is swapped, never mutated); structuredClone was a hot spot.
        const after = { ...(before ?? emptyState(p.device.imei)) };
        entry = { before, after, device: p.device, points: [], stateOnly: false };
        devices.set(p.device.imei, entry);
      }
      for (const m of p.messages) alerts += this.apply(op, entry, m, p.receivedAt, events);
    }
    const journal: DevicePoints[] = [];
    let positions = 0;
    for (const [imei, d] of devices) {
      // A state changed by more than fixes (a status, a heartbeat) journals its readings.
      const readings = d.stateOnly ? readingsOf(d.after) : undefined;
      if (d.points.length || readings) journal.push({ imei, points: d.points, readings });
      positions += d.points.length;
    }
    const written = journal.length ? this.positions.addJournal(op, journal, Date.now()) : null;
    const started = performance.now();
    try {
      const res = await op.commit();
      if (!res.ok) throw new Error("position commit failed");
    } catch (e) {
      this.metrics.failedCommits.inc();
      for (const p of batch) p.reject(e);
      return;
    }
    const m = this.metrics;
    m.commitSeconds.observe((performance.now() - started) / 1000);
    m.commits.inc();
    m.commitPositions.observe(positions);
    if (written) this.positions.journaled(written);
    this.stats.commits++;
    this.stats.positions += positions;
    this.stats.alerts += alerts;
    const now = Date.now();
    const activations: Promise<void>[] = [];
    for (const [imei, { before, after, device, points }] of devices) {
      // Every located fix of the commit, live or history (the motion analysis), no copy.
      if (points.length) {
        events.push({ type: "positionsCommitted", imei, userId: device.userId, points });
      }
      this.directory.rememberState(after);
      this.stateChanged(imei);
      const was = deriveStatus(before ?? null, now, this.offlineMs);
      const is = deriveStatus(after, now, this.offlineMs);
      if (was !== is) {
        events.push({ type: "status", imei, userId: device.userId, status: is, previous: was });
      }
      // The connection's Device object is never refreshed: ask the directory, or every commit
      // would activate the device again (one KV write each, and a moving activation time).
      const current = this.directory.get(imei) ?? device;
      if (!current.activationTime) activations.push(this.activate(current));
    }
    await Promise.all(activations);
    const acked = Date.now();
    for (const p of batch) {
      m.ackSeconds.observe((acked - p.receivedAt) / 1000);
      p.resolve();
    }
    for (const e of events) this.bus.publish(e);
  }

  /** Remembers a state to write with the next flush, and schedules one. */
  private stateChanged(imei: string): void {
    this.unsavedStates.add(imei);
    this.flushTimer ??= setTimeout(() => {
      this.flushTimer = undefined;
      this.flushStates().catch((e) => ingestLog.error("device state flush failed", e));
    }, STATE_FLUSH_MS);
  }

  /** Writes every state changed since the last flush (also before compaction and at exit). */
  flushStates(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      const imeis = [...this.unsavedStates];
      this.unsavedStates.clear();
      for (let i = 0; i < imeis.length; i += STATE_FLUSH_BATCH) {
        // One commit per STATE_FLUSH_BATCH states, written through the directory.
        if (!(await this.directory.saveStates(imeis.slice(i, i + STATE_FLUSH_BATCH)))) {
          for (const imei of imeis.slice(i)) this.unsavedStates.add(imei);
          throw new Error("state write failed");
        }
      }
    });
    return this.flushing;
  }

  /**
   * Start-up: rebuilds the position index from the journal and moves device states to the
   * newest journaled fix, which a crash may have left unwritten.
   */
  async recover(): Promise<number> {
    return await this.positions.loadJournal((chunk: JournalChunk) => {
      for (
        const { imei, newest, movingAt, readings } of summarizeJournal(chunk, MOVING_SPEED_KMH)
      ) {
        const state = { ...(this.directory.state(imei) ?? emptyState(imei)) };
        heard(state, chunk.at);
        // Replaying only the newest fix gives the same position and readings as replaying all
        // of them in time order; the moving time is taken from the whole chunk.
        if (newest && advanceToFix(state, newest) && movingAt !== null) {
          state.lastMovingAt = Math.max(state.lastMovingAt ?? movingAt, movingAt);
        }
        if (readings) applyJournaledReadings(state, readings);
        this.directory.rememberState(state);
        this.stateChanged(imei);
      }
    });
  }

  /** Stops the flush timer and writes what is unsaved (process exit, tests). */
  async close(): Promise<void> {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    await this.flushStates();
  }

  /** First data from an imported device activates it. */
  private async activate(device: Device): Promise<void> {
    // Spec §4: a device imported "awaiting permission" stays inactive until allow-activation.
    if (device.activationMode === "permission" && !device.activationAllowed) return;
    const updated = { ...device, activationTime: new Date().toISOString() };
    await this.directory.update(updated);
  }

  /**
   * Applies one message to the device's state and the commit, adding what to publish to
   * `events`; returns the number of alert records added.
   */
  private apply(
    op: Deno.AtomicOperation,
    d: CommitDevice,
    m: DeviceMessage,
    receivedAt: number,
    events: GatewayEvent[],
  ): number {
    const { after: state, device } = d;
    heard(state, receivedAt);
    switch (m.type) {
      case "position":
        return this.addPosition(op, d, m.position, receivedAt, events);
      case "positions": {
        let alerts = 0;
        for (const p of m.positions) alerts += this.addPosition(op, d, p, receivedAt, events);
        return alerts;
      }
      case "status":
        applyReadings(state, m.acc ?? null, m.battery ?? null, m.signal ?? null);
        if (m.attributes.sleeping === true) state.sleeping = true;
        if (m.attributes.poweredOff === true) state.poweredOff = true;
        d.stateOnly = true;
        this.identify(
          op,
          device,
          driverIdentityOf(device.imei, m.time.getTime(), m.attributes, state.position),
          events,
        );
        if (m.battery !== undefined || hasKeys(m.attributes)) {
          events.push(statusReported(device, m.time.getTime(), m, state.position));
        }
        if (!m.alarm) return 0;
        this.alert(op, device, m.alarm, m.time.getTime(), state.position, events);
        return 1;
      default:
        return 0;
    }
  }

  private addPosition(
    op: Deno.AtomicOperation,
    d: CommitDevice,
    raw: Position,
    receivedAt: number,
    events: GatewayEvent[],
  ): number {
    const { after: state, device } = d;
    const p = toStored(raw);
    if (!plausibleFixTime(p.time)) {
      // A clock that was never set (dates of 1970, GPS week rollover, BCD zeros): the fix is
      // acknowledged, so the device does not resend it forever, but kept out of tracks and of
      // the live state; its readings still count, and an alarm is dated when it arrived.
      this.flagImplausibleTime(device.imei, p.time);
      applyReadings(state, p.acc, p.battery, p.signal);
      d.stateOnly = true;
      if (!raw.alarm) return 0;
      this.alert(op, device, raw.alarm, receivedAt, null, events);
      return 1;
    }
    const located = hasLocation(p);
    if (raw.attributes.driverUniqueId !== undefined) {
      const at = located ? p : state.position;
      this.identify(op, device, driverIdentityOf(device.imei, p.time, raw.attributes, at), events);
    }
    if (!located) {
      // Cell-only fixes carry status but no plottable point.
      applyReadings(state, p.acc, p.battery, p.signal);
      d.stateOnly = true;
      if (p.battery !== null || hasKeys(raw.attributes)) {
        events.push(statusReported(device, p.time, p, state.position));
      }
    } else {
      d.points.push(p);
      if (advanceToFix(state, p)) {
        events.push({ type: "position", imei: device.imei, userId: device.userId, position: p });
      }
    }
    if (!raw.alarm) return 0;
    this.alert(op, device, raw.alarm, p.time, located ? p : null, events);
    return 1;
  }

  /** Keeps a driver identity in the commit and tells the fleet once it is stored. */
  private identify(
    op: Deno.AtomicOperation,
    device: Device,
    identity: DriverIdentity | null,
    events: GatewayEvent[],
  ): void {
    if (!identity || !this.identities) return;
    this.identities.addTo(op, device.userId, identity);
    events.push({ type: "driverIdentified", imei: device.imei, userId: device.userId, identity });
  }

  /** Counts a fix with an implausible time; logs the first one of each device. */
  private flagImplausibleTime(imei: string, time: number): void {
    this.stats.implausibleTimes++;
    if (this.flaggedDevices.has(imei)) return;
    this.flaggedDevices.add(imei);
    ingestLog.warn(
      `device ${imei} sent a fix dated ${
        Number.isFinite(time) ? new Date(time).toISOString() : "nowhere"
      } (before ${new Date(EARLIEST_FIX_TIME).toISOString()}); acknowledged, not stored ` +
        "(further ones of this device are only counted)",
    );
  }

  private alert(
    op: Deno.AtomicOperation,
    device: Device,
    type: AlarmType,
    time: number,
    at: StoredPosition | null,
    events: GatewayEvent[],
  ): void {
    const record: AlertRecord = {
      id: crypto.randomUUID(),
      imei: device.imei,
      userId: device.userId,
      type,
      time,
      lat: at?.lat ?? null,
      lng: at?.lng ?? null,
      speed: at?.speed ?? null,
      read: -1,
      processed: false,
      createdAt: Date.now(),
    };
    const address = at ? this.addressOf(at.lat, at.lng, device.userId) : undefined;
    if (address) record.address = address;
    // An active-safety alarm (T/JSATL12) names what the camera saw: "adas:1" (forward collision).
    const family = at?.attributes.safetyFamily;
    if (typeof family === "string") {
      record.detail = { safety: `${family}:${at!.attributes.safetyType ?? ""}` };
    }
    this.alerts.addTo(op, record);
    events.push({ type: "alert", imei: device.imei, userId: device.userId, alert: record });
  }
}

/** A synchronous address of a point in its owner's language; undefined when none is known yet. */
export type AddressOf = (lat: number, lng: number, userId: string) => string | undefined;

/** What one commit holds for one device. */
interface CommitDevice {
  before: DeviceState | undefined;
  after: DeviceState;
  device: Device;
  /** Located fixes, journaled by the commit. */
  points: StoredPosition[];
  /** The state changed by more than fixes: journal its readings. */
  stateOnly: boolean;
}

function readingsOf(s: DeviceState): Readings {
  return {
    hbTime: s.hbTime ?? 0,
    acc: s.acc,
    battery: s.battery,
    signal: s.signal,
    sleeping: s.sleeping,
    poweredOff: s.poweredOff,
  };
}

/** Replay: the readings were the state's at the end of their commit. */
function applyJournaledReadings(state: DeviceState, r: Readings): void {
  heard(state, r.hbTime);
  state.acc = r.acc;
  state.battery = r.battery;
  state.signal = r.signal;
  state.sleeping = r.sleeping;
  state.poweredOff = r.poweredOff;
}

/** Mutations an alarm adds to the commit (AlertStore.addTo writes two keys). */
function alarmCost(m: DeviceMessage): number {
  if (m.type === "position") return m.position.alarm ? 2 : 0;
  if (m.type === "positions") {
    let n = 0;
    for (const p of m.positions) n += p.alarm ? 2 : 0;
    return n;
  }
  // A driver identity report adds one key (the fleet's pending swipe).
  if (m.type === "status") return (m.alarm ? 2 : 0) + (m.attributes.cardStatus ? 1 : 0);
  return 0;
}

function positionCount(m: DeviceMessage): number {
  if (m.type === "position") return 1;
  if (m.type === "positions") return m.positions.length;
  return 0;
}
