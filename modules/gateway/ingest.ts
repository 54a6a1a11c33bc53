import type { AlertRecord, AlertStore } from "../alerts/store.ts";
import type { DeviceDirectory } from "../devices/directory.ts";
import {
  deriveStatus,
  type Device,
  type DeviceState,
  MOVING_SPEED_KMH,
  type StoredPosition,
} from "../devices/model.ts";
import type { PositionStore } from "../positions/store.ts";
import type { EventBus } from "./bus.ts";
import { hasLocation, toStored } from "./convert.ts";
import type { AlarmType, DeviceMessage } from "./protocols/types.ts";

/** Mutations one commit may hold; KV allows 1000 per atomic operation. */
const MAX_MUTATIONS = 900;
/** Commits handed to KV at once (with disjoint devices). */
const MAX_IN_FLIGHT = 2;

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
  readonly stats = { commits: 0, positions: 0, alerts: 0 };

  constructor(
    private readonly kv: Deno.Kv,
    private readonly directory: DeviceDirectory,
    private readonly positions: PositionStore,
    private readonly alerts: AlertStore,
    private readonly bus: EventBus,
    private readonly offlineMs: number,
  ) {}

  /** Resolves once the messages are durably stored. */
  submit(device: Device, messages: DeviceMessage[]): Promise<void> {
    if (!messages.some((m) => m.type !== "identify" && m.type !== "commandReply")) {
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
    let mutations = 0;
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
      let cost = devices.has(p.device.imei) ? 0 : 2;
      for (const m of p.messages) cost += messageCost(m);
      if (taken.length > 0 && mutations + cost > MAX_MUTATIONS) break;
      mutations += cost;
      devices.add(p.device.imei);
      taken.push(p);
    }
    if (kept.length === 0) this.queue.splice(0, i);
    else this.queue = kept.concat(this.queue.slice(i));
    return taken;
  }

  private async commit(batch: Pending[]): Promise<void> {
    const op = this.kv.atomic();
    const states = new Map<
      string,
      { before: DeviceState | undefined; after: DeviceState; device: Device }
    >();
    const events: (() => void)[] = [];
    let positions = 0, alerts = 0;
    for (const p of batch) {
      let entry = states.get(p.device.imei);
      if (!entry) {
        const before = this.directory.state(p.device.imei);
        // A shallow copy is enough: apply() only replaces top-level fields (the position
        // object is swapped, never mutated), and structuredClone was a hot spot per commit.
        entry = { before, after: { ...(before ?? emptyState(p.device.imei)) }, device: p.device };
        states.set(p.device.imei, entry);
      }
      for (const m of p.messages) {
        const result = this.apply(op, entry.after, p.device, m, p.receivedAt);
        positions += result.positions;
        alerts += result.alerts.length;
        for (const pos of result.published) {
          events.push(() =>
            this.bus.publish({
              type: "position",
              imei: p.device.imei,
              userId: p.device.userId,
              position: pos,
            })
          );
        }
        for (const a of result.alerts) {
          events.push(() =>
            this.bus.publish({
              type: "alert",
              imei: p.device.imei,
              userId: p.device.userId,
              alert: a,
            })
          );
        }
      }
    }
    for (const [imei, { after }] of states) {
      op.set(this.directory.store.stateKey(imei), after);
      if (positions) this.positions.markDirty(op, imei);
    }
    try {
      const res = await op.commit();
      if (!res.ok) throw new Error("position commit failed");
    } catch (e) {
      for (const p of batch) p.reject(e);
      return;
    }
    this.stats.commits++;
    this.stats.positions += positions;
    this.stats.alerts += alerts;
    const now = Date.now();
    const activations: Promise<void>[] = [];
    for (const [imei, { before, after, device }] of states) {
      this.directory.rememberState(after);
      const was = deriveStatus(before ?? null, now, this.offlineMs);
      const is = deriveStatus(after, now, this.offlineMs);
      if (was !== is) {
        events.push(() =>
          this.bus.publish({
            type: "status",
            imei,
            userId: device.userId,
            status: is,
            previous: was,
          })
        );
      }
      // The connection's Device object is never refreshed: ask the directory, or every commit
      // would activate the device again (one KV write each, and a moving activation time).
      const current = this.directory.get(imei) ?? device;
      if (!current.activationTime) activations.push(this.activate(current));
    }
    await Promise.all(activations);
    for (const p of batch) p.resolve();
    for (const e of events) e();
  }

  /** First data from an imported device activates it. */
  private async activate(device: Device): Promise<void> {
    // Spec §4: a device imported "awaiting permission" stays inactive until allow-activation.
    if (device.activationMode === "permission" && !device.activationAllowed) return;
    const updated = { ...device, activationTime: new Date().toISOString() };
    await this.directory.store.update(updated);
    this.directory.remember(updated);
  }

  /** Applies one message to the device state and the commit; returns what to publish. */
  private apply(
    op: Deno.AtomicOperation,
    state: DeviceState,
    device: Device,
    m: DeviceMessage,
    receivedAt: number,
  ) {
    const published: StoredPosition[] = [];
    const alerts: AlertRecord[] = [];
    let positions = 0;
    state.hbTime = Math.max(state.hbTime ?? 0, receivedAt);
    const addPosition = (raw: Parameters<typeof toStored>[0]) => {
      const p = toStored(raw);
      if (!hasLocation(p)) {
        // Cell-only fixes carry status but no plottable point.
        this.applyReadings(state, p.acc, p.battery, p.signal);
        if (raw.alarm) alerts.push(this.alert(op, device, raw.alarm, p.time, null));
        return;
      }
      this.positions.addTo(op, device.imei, p);
      positions++;
      if (state.gpsTime === null || p.time >= state.gpsTime) {
        // Only the newest fix moves the live state; re-uploads of the past do not.
        state.gpsTime = p.time;
        state.position = p;
        if (p.speed >= MOVING_SPEED_KMH) state.lastMovingAt = p.time;
        this.applyReadings(state, p.acc, p.battery, p.signal);
        state.sleeping = false;
        state.poweredOff = false;
        published.push(p);
      }
      if (raw.alarm) alerts.push(this.alert(op, device, raw.alarm, p.time, p));
    };
    switch (m.type) {
      case "position":
        addPosition(m.position);
        break;
      case "positions":
        for (const p of m.positions) addPosition(p);
        break;
      case "status":
        this.applyReadings(state, m.acc ?? null, m.battery ?? null, m.signal ?? null);
        if (m.attributes.sleeping === true) state.sleeping = true;
        if (m.attributes.poweredOff === true) state.poweredOff = true;
        if (m.alarm) alerts.push(this.alert(op, device, m.alarm, m.time.getTime(), state.position));
        break;
    }
    return { published, alerts, positions };
  }

  private applyReadings(
    state: DeviceState,
    acc: boolean | null,
    battery: number | null,
    signal: number | null,
  ) {
    if (acc !== null) state.acc = acc;
    if (battery !== null) state.battery = battery;
    if (signal !== null) state.signal = signal;
  }

  private alert(
    op: Deno.AtomicOperation,
    device: Device,
    type: AlarmType,
    time: number,
    at: StoredPosition | null,
  ): AlertRecord {
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
    this.alerts.addTo(op, record);
    return record;
  }
}

/**
 * Mutations one message adds to the commit: one hot key per position, two keys per alarm
 * (AlertStore.addTo). The two per device (state, compaction mark) are counted in takeBatch.
 */
function messageCost(m: DeviceMessage): number {
  if (m.type === "position") return 1 + (m.position.alarm ? 2 : 0);
  if (m.type === "positions") {
    let n = 0;
    for (const p of m.positions) n += 1 + (p.alarm ? 2 : 0);
    return n;
  }
  if (m.type === "status") return m.alarm ? 2 : 0;
  return 0;
}

export function emptyState(imei: string): DeviceState {
  return {
    imei,
    hbTime: null,
    gpsTime: null,
    position: null,
    acc: null,
    battery: null,
    signal: null,
    sleeping: false,
    poweredOff: false,
    lastMovingAt: null,
  };
}
