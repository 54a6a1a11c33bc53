import type { DeviceDirectory } from "../devices/directory.ts";
import type { StoredPosition } from "../devices/model.ts";
import type { Publisher } from "../../lib/events/bus.ts";
import type { GatewayEvent } from "../gateway/events.ts";
import type { AlertRaised, FenceCrossed } from "./events.ts";
import { bboxOverlapsSegment, contains, segmentTouches } from "../geofences/geometry.ts";
import type { Zone } from "../geofences/model.ts";
import type { GeofenceService } from "../geofences/service.ts";
import type { DeviceAlertSettings } from "./schemas.ts";
import type { AlertSettingsStore } from "./settings.ts";
import type { AlertRecord, AlertStore } from "./store.ts";
import type { EngineType, RouteWatch } from "./types.ts";
import { log } from "../../lib/log.ts";
import {
  type DeviceTrack,
  loadTrack,
  newTrack,
  type SavedTrack,
  saveTrack,
} from "./engine_state.ts";
import type { EngineStateStore } from "./store_engine_state.ts";

const engineLog = log.area("alerts");

const MOVING_KMH = 5;
/** ACC-on time is accumulated only between fixes closer than this (gaps are not driving). */
const MAX_ACC_GAP_MS = 10 * 60_000;
const DAY_MS = 86_400_000;
/** Cluster mode: device states changed without an alert are written this long after. */
const STATE_SAVE_MS = 5_000;
/** Alerts (two keys each) and their devices' states per commit: under 1000 mutations. */
const ALERTS_PER_COMMIT = 300;

export interface EngineDeps {
  /** Where raised alerts are announced once stored (delivery, live pages…), and fence crossings. */
  bus: Publisher<AlertRaised | FenceCrossed>;
  alerts: AlertStore;
  settings: AlertSettingsStore;
  geofences: GeofenceService;
  directory: DeviceDirectory;
  /** Fence alert with a command: the caller sends it (kept out of the engine's hot path). */
  onFenceCommand?: (imei: string, zone: Zone) => void;
  /** The alert address of a point for a device's owner (the geocoder's, synchronous). */
  addressOf?: (lat: number, lng: number, userId: string) => string | undefined;
  /** Planned routes bound to devices (fleet): deviation and return. */
  routes?: RouteWatch;
  /**
   * Cluster mode: per-device state kept in the store (read on a device's first event here,
   * written with the alerts it caused, the rest a few seconds behind), so the instance that
   * takes a device over raises no enter/exit again. Absent in single mode: memory only.
   */
  state?: EngineStateStore;
}

/**
 * The server-side alert engine. It listens to the gateway's bus (events arrive after the
 * gateway's commit), evaluates every stored position against the device's thresholds and
 * its owner's fences with in-memory state, and writes what it finds as alert records, then
 * publishes them on the bus like device alarms so delivery and live pages treat both alike.
 * Device alarms (SOS, power cut…) are recorded by the gateway and are not raised again here.
 */
export class AlertEngine {
  private tracks = new Map<string, DeviceTrack>();
  /** Cluster mode: events of devices whose stored state is being read, in arrival order. */
  private loading = new Map<string, GatewayEvent[]>();
  private toLoad: string[] = [];
  private loads: Promise<void> | null = null;
  /** Cluster mode: devices whose state changed since it was last written. */
  private unsaved = new Set<string>();
  private saveTimer: ReturnType<typeof setTimeout> | undefined;
  private saving: Promise<void> | null = null;
  private pending: AlertRecord[] = [];
  private flushing: Promise<void> | null = null;
  /** Off until start(): ALERT_ENGINE=off leaves it off. */
  private running = false;
  readonly stats = { positions: 0, alerts: 0 };
  private readonly addressOf: (lat: number, lng: number, userId: string) => string | undefined;

  constructor(private readonly d: EngineDeps) {
    this.addressOf = d.addressOf ?? (() => undefined);
  }

  start(): void {
    this.running = true;
  }

  stop(): void {
    this.running = false;
  }

  /** The position pipeline's handler (app/position_pipeline.ts): evaluates while started. */
  handle = (ev: GatewayEvent): void => {
    if (this.running) this.onEvent(ev);
  };

  /** Resolves once every alert raised so far is stored and published. */
  async idle(): Promise<void> {
    while (this.loads || this.flushing || this.pending.length) {
      await (this.loads ?? this.flushing ?? this.flush());
    }
  }

  onEvent(ev: GatewayEvent): void {
    if (!this.d.state) return this.apply(ev);
    if (ev.type === "connection") return this.connected(ev.imei, ev.connected);
    if (ev.type !== "position" && ev.type !== "status") return;
    // Status changes come from the leader's sweep, mostly for devices held elsewhere: what
    // this instance remembers may be old, so it is read again (rare events: one read each).
    if (ev.type === "status") this.connected(ev.imei, true);
    if (this.tracks.has(ev.imei)) this.apply(ev);
    else this.loadThen(ev);
  }

  private apply(ev: GatewayEvent): void {
    if (ev.type === "position") this.position(ev.imei, ev.userId, ev.position);
    else if (ev.type === "status") this.status(ev.imei, ev.userId, ev.status);
    else return;
    if (this.d.state) this.stateChanged(ev.imei);
  }

  private track(imei: string): DeviceTrack {
    let t = this.tracks.get(imei);
    if (!t) {
      t = newTrack();
      this.tracks.set(imei, t);
    }
    return t;
  }

  /**
   * Cluster mode: a device connecting here may have been evaluated elsewhere meanwhile, so
   * what this instance remembers of it is read again from the store (unless it changed here
   * in the last seconds, then it is the newest).
   */
  private connected(imei: string, connected: boolean): void {
    if (connected && !this.unsaved.has(imei) && !this.loading.has(imei)) this.tracks.delete(imei);
  }

  /** Cluster mode: holds the device's events until its stored state is read (batched). */
  private loadThen(ev: GatewayEvent & { imei: string }): void {
    const queued = this.loading.get(ev.imei);
    if (queued) return void queued.push(ev);
    this.loading.set(ev.imei, [ev]);
    this.toLoad.push(ev.imei);
    this.loads ??= this.loadQueued();
  }

  private async loadQueued(): Promise<void> {
    try {
      await Promise.resolve(); // devices of one commit read together
      while (this.toLoad.length) {
        const imeis = this.toLoad.splice(0, 100);
        let saved: (SavedTrack | null)[];
        try {
          saved = await this.d.state!.loadMany(imeis);
        } catch (e) {
          // A fresh track learns where the device is without claiming a crossing.
          engineLog.error("reading alert engine states failed", e);
          saved = imeis.map(() => null);
        }
        imeis.forEach((imei, i) => {
          const s = saved[i];
          this.tracks.set(imei, s ? loadTrack(s, this.d.settings.device(imei)) : newTrack());
          const events = this.loading.get(imei) ?? [];
          this.loading.delete(imei);
          for (const ev of events) this.apply(ev);
        });
      }
    } finally {
      this.loads = null;
    }
  }

  private stateChanged(imei: string): void {
    this.unsaved.add(imei);
    if (this.saveTimer !== undefined) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = undefined;
      void this.saveStates();
    }, STATE_SAVE_MS);
    // A state change lost at exit raises nothing twice (alerts carry their state): no need to
    // hold the process for it.
    Deno.unrefTimer(this.saveTimer);
  }

  /** Stops the write-behind timer and writes what is unsaved (exit, tests). */
  async close(): Promise<void> {
    clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    await this.idle();
    if (this.d.state) await this.saveStates();
  }

  /** Cluster mode: writes the states changed since their last write (timer, exit, tests). */
  saveStates(): Promise<void> {
    const run = (this.saving ?? Promise.resolve()).then(async () => {
      const imeis = [...this.unsaved].filter((imei) => this.tracks.has(imei));
      this.unsaved.clear();
      for (let i = 0; i < imeis.length; i += 500) {
        const op = this.d.state!.openCommit();
        for (const imei of imeis.slice(i, i + 500)) {
          this.d.state!.addTo(op, imei, saveTrack(this.tracks.get(imei)!));
        }
        if (!(await op.commit()).ok) engineLog.error("writing alert engine states failed");
      }
    }).catch((e) => engineLog.error("writing alert engine states failed", e));
    this.saving = run.finally(() => {
      if (this.saving === run) this.saving = null;
    });
    return run;
  }

  private raise(
    imei: string,
    userId: string,
    type: EngineType,
    p: { lat: number; lng: number; speed: number; time: number } | null,
    time: number,
    extra: Partial<Pick<AlertRecord, "fenceId" | "fenceName" | "detail">> = {},
  ): void {
    this.pending.push({
      id: crypto.randomUUID(),
      imei,
      userId,
      type,
      time,
      lat: p?.lat ?? null,
      lng: p?.lng ?? null,
      speed: p?.speed ?? null,
      read: -1,
      processed: false,
      createdAt: Date.now(),
      ...(p ? addressField(this.addressOf(p.lat, p.lng, userId)) : {}),
      ...extra,
    });
    this.stats.alerts++;
    this.flushing ??= this.flush();
  }

  /** Writes raised alerts in batches, then announces them on the bus. */
  private async flush(): Promise<void> {
    try {
      while (this.pending.length) {
        await Promise.resolve(); // let one tick of positions accumulate
        const batch = this.pending.splice(0, this.pending.length);
        try {
          if (this.d.state) await this.storeWithStates(batch);
          else await this.d.alerts.add(batch);
        } catch (e) {
          engineLog.error("storing alerts failed", e);
          continue;
        }
        for (const a of batch) {
          this.d.bus.publish({ type: "alert", imei: a.imei, userId: a.userId, alert: a });
        }
      }
    } finally {
      this.flushing = null;
    }
  }

  /**
   * Cluster mode: each alert is stored in one commit with its device's state, so an instance
   * taking the device over knows the alert was raised (a crash loses both, never re-raises).
   */
  private async storeWithStates(batch: AlertRecord[]): Promise<void> {
    for (let i = 0; i < batch.length; i += ALERTS_PER_COMMIT) {
      const part = batch.slice(i, i + ALERTS_PER_COMMIT);
      const op = this.d.state!.openCommit();
      for (const a of part) this.d.alerts.addTo(op, a);
      for (const imei of new Set(part.map((a) => a.imei))) {
        const t = this.tracks.get(imei);
        if (!t) continue;
        this.d.state!.addTo(op, imei, saveTrack(t));
        this.unsaved.delete(imei); // a later change marks it again
      }
      if (!(await op.commit()).ok) throw new Error("alert commit failed");
    }
  }

  private position(imei: string, userId: string, p: StoredPosition): void {
    this.stats.positions++;
    const t = this.track(imei);
    const s = this.d.settings.device(imei);
    if (t.settings !== s) this.resetCounters(t, s);
    if (t.last && p.time < t.last.time) return; // re-uploaded history: no live alerts
    this.fences(imei, userId, t, p);
    if (this.d.routes) this.plannedRoutes(imei, userId, p);
    if (s) this.thresholds(imei, userId, t, s, p);
    t.last = { lat: p.lat, lng: p.lng, time: p.time, speed: p.speed, acc: p.acc };
    t.offlineAnnounced = null;
    t.offlineFired = false;
  }

  private resetCounters(t: DeviceTrack, s: DeviceAlertSettings | undefined): void {
    t.settings = s;
    t.overspeedSince = null;
    t.overspeedFired = false;
    t.stayFired = false;
    t.mileageFired = false;
    t.maintenanceFired = false;
    t.accOnMs = 0;
    t.accFired = false;
    t.temperature = "ok";
  }

  private fences(imei: string, userId: string, t: DeviceTrack, p: StoredPosition): void {
    const zones = this.d.geofences.zonesOf(userId);
    if (!zones.length) return;
    const prev = t.last;
    for (const { zone, box } of zones) {
      if (zone.imeis.length && !zone.imeis.includes(imei)) continue;
      const wasInside = t.inside.has(zone.id);
      // Cheap rejection: a segment far from the fence cannot touch it.
      const near = bboxOverlapsSegment(box, prev ?? p, p);
      const isInside = near && contains(zone.shape, p);
      const fenceInfo = { fenceId: zone.id, fenceName: zone.name };
      if (!t.lastInside.has(zone.id)) t.lastInside.set(zone.id, p.time);
      if (isInside) t.lastInside.set(zone.id, p.time);
      if (prev === null) {
        // First fix seen: learn where the device is without claiming a crossing.
        if (isInside) t.inside.set(zone.id, p.time);
        continue;
      }
      if (!wasInside && isInside) {
        t.inside.set(zone.id, p.time);
        t.firedLong.delete(zone.id);
        this.fenceAlert(imei, userId, zone, "enter", p, fenceInfo);
      } else if (wasInside && !isInside) {
        t.inside.delete(zone.id);
        t.firedLong.delete(zone.id);
        this.fenceAlert(imei, userId, zone, "exit", p, fenceInfo);
      } else if (!wasInside && near && segmentTouches(zone.shape, prev, p)) {
        // Two sparse fixes straddle the fence: the device passed through it.
        t.lastInside.set(zone.id, p.time);
        this.fenceAlert(imei, userId, zone, "enter", p, fenceInfo);
        this.fenceAlert(imei, userId, zone, "exit", p, fenceInfo);
      }
      if (zone.kind !== "fence" || t.firedLong.has(zone.id)) continue;
      const limit = zone.stayDays * DAY_MS;
      const since = t.inside.get(zone.id);
      if (zone.notOutAlert && since !== undefined && p.time - since >= limit) {
        t.firedLong.add(zone.id);
        this.raise(imei, userId, "fenceNotOut", p, p.time, {
          ...fenceInfo,
          detail: { days: zone.stayDays },
        });
      } else if (
        zone.notInAlert && since === undefined && p.time - t.lastInside.get(zone.id)! >= limit
      ) {
        t.firedLong.add(zone.id);
        this.raise(imei, userId, "fenceNotIn", p, p.time, {
          ...fenceInfo,
          detail: { days: zone.stayDays },
        });
      }
    }
  }

  /** Route deviation / back on route from the device's planned routes. */
  private plannedRoutes(imei: string, userId: string, p: StoredPosition): void {
    const found = this.d.routes!.observe(imei, p.lat, p.lng, p.time);
    if (found) {
      for (const r of found) this.raise(imei, userId, r.type, p, p.time, { detail: r.detail });
    }
  }

  private fenceAlert(
    imei: string,
    userId: string,
    zone: Zone,
    dir: "enter" | "exit",
    p: StoredPosition,
    info: { fenceId: string; fenceName: string },
  ): void {
    this.d.bus.publish({ type: "fenceCrossed", imei, userId, ...info, time: p.time, dir });
    if (zone.kind === "blackCar") {
      if (dir === "enter") this.raise(imei, userId, "blackCarAddress", p, p.time, info);
      return;
    }
    if (dir === "enter" ? !zone.enterAlert : !zone.exitAlert) return;
    this.raise(imei, userId, dir === "enter" ? "geofenceEnter" : "geofenceExit", p, p.time, info);
    if (zone.command) this.d.onFenceCommand?.(imei, zone);
  }

  private thresholds(
    imei: string,
    userId: string,
    t: DeviceTrack,
    s: DeviceAlertSettings,
    p: StoredPosition,
  ): void {
    // Overspeed: above the limit without a break for overSecond seconds, once per episode.
    if (s.overSpeed !== null && s.overSecond !== null) {
      if (p.speed > s.overSpeed) {
        t.overspeedSince ??= p.time;
        if (!t.overspeedFired && p.time - t.overspeedSince >= s.overSecond * 1000) {
          t.overspeedFired = true;
          this.raise(imei, userId, "overspeed", p, p.time, {
            detail: { limit: s.overSpeed, seconds: s.overSecond },
          });
        }
      } else {
        t.overspeedSince = null;
        t.overspeedFired = false;
      }
    }
    // Stay: not moving for stayMinutes, once per stop.
    if (p.speed < MOVING_KMH) {
      t.stoppedSince ??= p.time;
      if (
        s.stayMinutes !== null && !t.stayFired && p.time - t.stoppedSince >= s.stayMinutes * 60_000
      ) {
        t.stayFired = true;
        this.raise(imei, userId, "stay", p, p.time, { detail: { minutes: s.stayMinutes } });
      }
    } else {
      t.stoppedSince = null;
      t.stayFired = false;
    }
    // Temperature: on leaving the allowed band (a change of band re-arms it).
    const temp = p.attributes.temp1;
    if (typeof temp === "number") {
      const band = s.maxTemperature !== null && temp > s.maxTemperature
        ? "high"
        : s.minTemperature !== null && temp < s.minTemperature
        ? "low"
        : "ok";
      if (band !== t.temperature && band !== "ok") {
        this.raise(
          imei,
          userId,
          band === "high" ? "temperatureHigh" : "temperatureLow",
          p,
          p.time,
          {
            detail: {
              temperature: temp,
              limit: (band === "high" ? s.maxTemperature : s.minTemperature)!,
            },
          },
        );
      }
      t.temperature = band;
    }
    // Mileage and maintenance: distance since the odometer reading given with the threshold.
    if (p.mileage !== null && s.currentMileage !== null) {
      const travelled = p.mileage - s.currentMileage;
      if (s.mileageThreshold !== null && !t.mileageFired && travelled >= s.mileageThreshold) {
        t.mileageFired = true;
        this.raise(imei, userId, "mileage", p, p.time, { detail: { km: Math.round(p.mileage) } });
      }
      if (
        s.maintenanceThreshold !== null && !t.maintenanceFired &&
        travelled >= s.maintenanceThreshold
      ) {
        t.maintenanceFired = true;
        this.raise(imei, userId, "maintenance", p, p.time, {
          detail: { km: Math.round(p.mileage) },
        });
      }
    }
    // ACC-on duration: accumulated between close fixes with ignition on.
    if (s.accOnHours !== null && s.currentAccOnHours !== null) {
      const gap = t.last ? p.time - t.last.time : 0;
      if (t.last?.acc && p.acc && gap > 0 && gap <= MAX_ACC_GAP_MS) t.accOnMs += gap;
      const hours = s.currentAccOnHours + t.accOnMs / 3_600_000;
      if (!t.accFired && hours >= s.accOnHours) {
        t.accFired = true;
        this.raise(imei, userId, "accOnDuration", p, p.time, {
          detail: { hours: Math.floor(hours) },
        });
      }
    }
    // Night driving: moving inside a range of the device's local day, once per range and day.
    if (s.nightRanges.length && p.speed >= MOVING_KMH) {
      const offset = (this.d.directory.get(imei)?.timezoneOffsetMinutes ?? 0) * 60_000;
      const local = p.time + offset;
      // Whole-number arithmetic instead of Date: this runs for every moving position.
      const minute = Math.floor((((local % DAY_MS) + DAY_MS) % DAY_MS) / 60_000);
      const day = Math.floor(local / DAY_MS);
      for (const [i, r] of s.nightRanges.entries()) {
        const from = Number(r.start.slice(0, 2)) * 60 + Number(r.start.slice(3));
        const to = Number(r.end.slice(0, 2)) * 60 + Number(r.end.slice(3));
        const key = `${day}#${i}`;
        if (minute >= from && minute < to && !t.nightFired.has(key)) {
          t.nightFired.add(key);
          if (t.nightFired.size > 10) t.nightFired.delete(t.nightFired.values().next().value!);
          this.raise(imei, userId, "nightDriving", p, p.time, {
            detail: { start: r.start, end: r.end },
          });
        }
      }
    }
  }

  /** Offline: announced by the gateway/cron; the device's threshold decides when to alert. */
  private status(imei: string, userId: string, status: string): void {
    const t = this.track(imei);
    if (status !== "offline") {
      t.offlineAnnounced = null;
      t.offlineFired = false;
      return;
    }
    t.offlineAnnounced ??= Date.now();
    this.checkOffline(imei, userId, t, Date.now());
  }

  private checkOffline(imei: string, userId: string, t: DeviceTrack, now: number): void {
    const s = this.d.settings.device(imei);
    if (!s?.offlineMinutes || t.offlineFired || t.offlineAnnounced === null) return;
    const lastSeen = this.d.directory.state(imei)?.hbTime ?? t.offlineAnnounced;
    if (now - lastSeen < s.offlineMinutes * 60_000) return;
    t.offlineFired = true;
    const pos = this.d.directory.state(imei)?.position ?? null;
    this.raise(imei, userId, "offline", pos, now, {
      detail: { minutes: Math.floor((now - lastSeen) / 60_000) },
    });
  }

  /**
   * Periodic check for thresholds that pass without any event: long offline thresholds
   * (beyond the platform's offline rule). Called every minute by the process.
   */
  sweep(now = Date.now()): void {
    for (const [imei, t] of this.tracks) {
      if (t.offlineAnnounced === null || t.offlineFired) continue;
      const device = this.d.directory.get(imei);
      if (device) this.checkOffline(imei, device.userId, t, now);
    }
  }
}

/** The record's address field, absent when there is none yet (the dataset still loading). */
function addressField(address: string | undefined): { address?: string } {
  return address ? { address } : {};
}
