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
  private flushing = false;
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
      if (!this.flushing) this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    try {
      while (this.queue.length) {
        const batch = this.takeBatch();
        await this.commit(batch);
      }
    } finally {
      this.flushing = false;
    }
  }

  /** Takes queued submissions until the commit would exceed its mutation budget. */
  private takeBatch(): Pending[] {
    let mutations = 0;
    let n = 0;
    const devices = new Set<string>();
    for (; n < this.queue.length; n++) {
      const p = this.queue[n];
      const cost = p.messages.reduce((s, m) => s + messageCost(m), 0) +
        (devices.has(p.device.imei) ? 0 : 3);
      if (n > 0 && mutations + cost > MAX_MUTATIONS) break;
      mutations += cost;
      devices.add(p.device.imei);
    }
    return this.queue.splice(0, Math.max(1, n));
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
      const entry = states.get(p.device.imei) ?? {
        before: this.directory.state(p.device.imei),
        after: structuredClone(this.directory.state(p.device.imei) ?? emptyState(p.device.imei)),
        device: p.device,
      };
      states.set(p.device.imei, entry);
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

function messageCost(m: DeviceMessage): number {
  if (m.type === "position") return 3;
  if (m.type === "positions") return m.positions.length + 2;
  return 2;
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
