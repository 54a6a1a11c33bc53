import type { DeviceDirectory } from "../devices/directory.ts";
import type { StoredPosition } from "../devices/model.ts";
import type { Publisher } from "../../lib/events/bus.ts";
import type { GatewayEvent } from "../gateway/events.ts";
import type { AlertRaised, FenceCrossed } from "./events.ts";
import {
  bboxOverlapsSegment,
  contains,
  type LatLng,
  segmentTouches,
} from "../geofences/geometry.ts";
import type { Zone } from "../geofences/model.ts";
import type { GeofenceService } from "../geofences/service.ts";
import type { DeviceAlertSettings } from "./schemas.ts";
import type { AlertSettingsStore } from "./settings.ts";
import type { AlertRecord, AlertStore } from "./store.ts";
import type { EngineType, RouteWatch } from "./types.ts";
import { log } from "../../lib/log.ts";

const engineLog = log.area("alerts");

const MOVING_KMH = 5;
/** ACC-on time is accumulated only between fixes closer than this (gaps are not driving). */
const MAX_ACC_GAP_MS = 10 * 60_000;
const DAY_MS = 86_400_000;

/** What the engine remembers per device between positions (memory only; rebuilt on start). */
interface DeviceTrack {
  last: (LatLng & { time: number; speed: number; acc: boolean | null }) | null;
  /** Fence id → since when the device is inside. */
  inside: Map<string, number>;
  /** Fence id → when the device was last seen inside (or first tracked). */
  lastInside: Map<string, number>;
  /** Fences whose not-in / not-out alert already fired for the current period. */
  firedLong: Set<string>;
  overspeedSince: number | null;
  overspeedFired: boolean;
  stoppedSince: number | null;
  stayFired: boolean;
  temperature: "ok" | "high" | "low";
  mileageFired: boolean;
  maintenanceFired: boolean;
  accOnMs: number;
  accFired: boolean;
  /** "yyyy-mm-dd#range" keys of night ranges already reported. */
  nightFired: Set<string>;
  offlineAnnounced: number | null;
  offlineFired: boolean;
  /** Settings object the counters belong to: new settings restart the counters. */
  settings: DeviceAlertSettings | undefined;
}

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
    while (this.flushing || this.pending.length) await (this.flushing ?? this.flush());
  }

  onEvent(ev: GatewayEvent): void {
    if (ev.type === "position") this.position(ev.imei, ev.userId, ev.position);
    else if (ev.type === "status") this.status(ev.imei, ev.userId, ev.status);
  }

  private track(imei: string): DeviceTrack {
    let t = this.tracks.get(imei);
    if (!t) {
      t = {
        last: null,
        inside: new Map(),
        lastInside: new Map(),
        firedLong: new Set(),
        overspeedSince: null,
        overspeedFired: false,
        stoppedSince: null,
        stayFired: false,
        temperature: "ok",
        mileageFired: false,
        maintenanceFired: false,
        accOnMs: 0,
        accFired: false,
        nightFired: new Set(),
        offlineAnnounced: null,
        offlineFired: false,
        settings: undefined,
      };
      this.tracks.set(imei, t);
    }
    return t;
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
          await this.d.alerts.add(batch);
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
