/**
 * The sensor stage of the position pipeline: every stored fix and every status report is turned
 * into series samples and events (extract.ts), fuel readings into litres by the device's tank
 * (tank.ts), fuel levels into refuels and drains (fuel_events.ts). Samples wait in memory per
 * device-series and are appended to the store in parts — when a buffer is FLUSH_AGE old or
 * PART_SAMPLES long — so a fleet writes a few parts a device per ten minutes instead of a value
 * per report; reads see the waiting samples too (SensorReadings merges them).
 */
import { log } from "../../lib/log.ts";
import type { Leadership } from "../../lib/cluster/types.ts";
import type { StoredPosition } from "../devices/model.ts";
import type {
  DeviceConnection,
  DriverIdentified,
  PositionsCommitted,
  StatusReported,
} from "../gateway/events.ts";
import { dayOf } from "./codec.ts";
import { bleTags, extractEvents, extractValues, faultCodes, type SensorReport } from "./extract.ts";
import { detectFuelChanges, type FuelSample } from "./fuel_events.ts";
import { DEFAULT_FUEL_THRESHOLD_L } from "./model.ts";
import type { EventAppend, Reported, SensorStore, SeriesAppend } from "./store.ts";
import { roundLitres, type TankGeometry, tankLitres, type TankReading } from "./tank.ts";
import type { SensorEvent, SensorEventKind, SensorSample, SensorSeries } from "./types.ts";

const sensorLog = log.area("sensors");

/** A fuel tank as the device's sensor configuration has it. */
export interface FuelTank extends TankGeometry {
  /** Litres that count as a refuel (and a drain); null: DEFAULT_FUEL_THRESHOLD_L. */
  refuelThreshold: number | null;
}

export interface RecorderDeps {
  store: SensorStore;
  /** The device's fuel tanks (the first one converts its readings); [] when none. */
  tanks(imei: string): Promise<FuelTank[]>;
  /** How often waiting readings are converted and checked for refuels (ms). */
  tickMs?: number;
  /** How long samples wait in memory before they are appended (ms). */
  flushAgeMs?: number;
  now?: () => number;
  /** Cluster mode: only the leader compacts the finished days (every instance appends). */
  leader?: Pick<Leadership, "isLeader">;
  /** Cluster mode: a device's readings are appended when its connection closes here. */
  appendOnClose?: boolean;
}

/** Samples a device-series buffer holds before it is appended whatever its age. */
const PART_SAMPLES = 600;
/** An unchanged value is stored again after this long (a flat line still shows it is alive). */
const REPEAT_MS = 5 * 60_000;
/**
 * A Bluetooth badge no report saw for this long has left: its driver clocks out (BLE gateways
 * report the tags in range every 30-60 s).
 */
const BLE_GONE_MS = 5 * 60_000;
/** Fuel levels kept for the refuel/drain detection. */
const FUEL_WINDOW_MS = 3 * 3600_000;
/** A change is told once the level stayed this long after it (it may still be going on). */
const FUEL_SETTLE_MS = 10 * 60_000;
/** How often a device's fuel levels are looked at for refuels and drains. */
const FUEL_CHECK_MS = 60_000;
/** How often finished days are merged into blocks. */
const COMPACT_EVERY_MS = 3600_000;
/** How long a device's tank configuration is trusted before it is read again. */
const TANKS_TTL_MS = 60_000;

interface DeviceBuffer {
  series: Map<SensorSeries, SensorSample[]>;
  events: SensorEvent[];
  /** Taken out for an append not committed yet: still what reads see waiting until it is. */
  appending: { series: Map<SensorSeries, SensorSample[]>; events: SensorEvent[] } | null;
  /** Wall time the oldest waiting sample or event arrived (0: nothing waits). */
  since: number;
  /** Last kept value per series/probe ("series:index"). */
  last: Map<string, { time: number; value: number }>;
  /** Raw fuel readings (ADC volts, percent) waiting for the tank conversion. */
  raw: { reading: TankReading; sample: SensorSample; speed?: number }[];
  fuel: FuelSample[];
  fuelToldUntil: number;
  /** Wall time of the last refuel/drain check, and whether levels came since. */
  fuelCheckedAt: number;
  /** The newest level's time at that check. */
  fuelCheckedTime: number;
  fuelNew: boolean;
  faults: string | null;
  /** The RFID card swiped in, for swipe readers that do not say in or out. */
  card: string | null;
  /** Bluetooth tags in range (driver badges): MAC → last report that saw it (device time). */
  tags: Map<string, number>;
  tanks: { at: number; list: FuelTank[] } | null;
  reported: Reported | null;
  reportedChanged: boolean;
}

export class SensorRecorder {
  private readonly devices = new Map<string, DeviceBuffer>();
  private readonly tickMs: number;
  private readonly flushAgeMs: number;
  private readonly now: () => number;
  private timer: ReturnType<typeof setInterval> | undefined;
  private compactTimer: ReturnType<typeof setInterval> | undefined;
  private running: Promise<void> = Promise.resolve();
  private compacting: Promise<number> | null = null;
  readonly stats = { samples: 0, events: 0, appends: 0, parts: 0 };

  constructor(private readonly deps: RecorderDeps) {
    this.tickMs = deps.tickMs ?? 5_000;
    this.flushAgeMs = deps.flushAgeMs ?? 10 * 60_000;
    this.now = deps.now ?? Date.now;
  }

  // ---- the pipeline's handlers ----------------------------------------------------------------

  onCommitted = (e: PositionsCommitted): void => {
    for (const p of e.points) this.take(e.imei, reportOfFix(p));
  };

  onStatusReported = (e: StatusReported): void => {
    this.take(e.imei, {
      time: e.time,
      battery: e.battery,
      // The alarm is the message's own field; reports read it as an attribute, like fixes.
      attributes: e.alarm ? { ...e.attributes, alarm: e.alarm } : e.attributes,
      ...(e.lat !== null && e.lng !== null ? { lat: e.lat, lng: e.lng } : {}),
    });
  };

  onIdentified = (e: DriverIdentified): void => {
    const id = e.identity;
    const d = this.device(e.imei);
    let inserted: boolean;
    if (id.type === "swipe") {
      inserted = d.card !== id.cardNo;
      d.card = inserted ? id.cardNo : null;
    } else {
      inserted = id.type === "in";
      d.card = inserted ? id.cardNo : null;
    }
    this.addEvent(e.imei, d, {
      kind: inserted ? "rfidIn" : "rfidOut",
      time: Date.parse(id.time),
      ...(id.lat !== null && id.lng !== null ? { lat: id.lat, lng: id.lng } : {}),
      data: { cardNo: id.cardNo, driverName: id.name || null },
    });
  };

  // ---- taking reports -------------------------------------------------------------------------

  private device(imei: string): DeviceBuffer {
    let d = this.devices.get(imei);
    if (!d) {
      d = {
        series: new Map(),
        events: [],
        appending: null,
        since: 0,
        last: new Map(),
        raw: [],
        fuel: [],
        fuelToldUntil: 0,
        fuelCheckedAt: 0,
        fuelCheckedTime: 0,
        fuelNew: false,
        faults: null,
        card: null,
        tags: new Map(),
        tanks: null,
        reported: null,
        reportedChanged: false,
      };
      this.devices.set(imei, d);
    }
    return d;
  }

  /** One report's values and events into the device's buffers (synchronous: the hot path). */
  take(imei: string, r: SensorReport): void {
    const values = extractValues(r);
    const events = extractEvents(r);
    const codes = faultCodes(r);
    const tags = bleTags(r);
    const known = this.devices.get(imei);
    if (tags.length || known?.tags.size) this.bluetoothClock(imei, this.device(imei), r, tags);
    if (!values.length && !events.length && codes === null) return;
    const d = this.device(imei);
    const place = r.lat !== undefined ? { lat: r.lat, lng: r.lng } : {};
    let litres = false;
    for (const v of values) {
      const sample: SensorSample = { time: r.time, value: v.value, index: v.index, ...place };
      if (v.series === "fuelLitres") {
        litres = true;
        this.addFuel(d, sample, r.speed);
      }
      this.addSample(imei, d, v.series, sample);
    }
    if (!litres) {
      // Readings a tank turns into litres: a fuel percent, else the first ADC input.
      const pct = values.find((v) => v.series === "fuelPercent");
      const adc = values.find((v) => v.series === "adc" && v.index === 1);
      const sample = { time: r.time, value: 0, index: 0, ...place };
      if (pct) {
        d.raw.push({ reading: { kind: "percent", percent: pct.value }, sample, speed: r.speed });
      } else if (adc) {
        d.raw.push({ reading: { kind: "voltage", volts: adc.value }, sample, speed: r.speed });
      }
    }
    for (const e of events) this.addEvent(imei, d, { ...e, time: r.time, ...place });
    if (codes !== null && codes !== d.faults) {
      this.addEvent(imei, d, { kind: "obdFault", time: r.time, ...place, data: { codes } });
    }
    if (codes !== null) d.faults = codes;
  }

  /**
   * Bluetooth clock-in: a driver's badge (a BLE tag) coming into range clocks in; one no report
   * saw for BLE_GONE_MS clocks out at the last time it was seen.
   */
  private bluetoothClock(imei: string, d: DeviceBuffer, r: SensorReport, tags: string[]): void {
    const place = r.lat !== undefined ? { lat: r.lat, lng: r.lng } : {};
    for (const [mac, seen] of d.tags) {
      if (tags.includes(mac) || r.time - seen < BLE_GONE_MS) continue;
      d.tags.delete(mac);
      this.addEvent(imei, d, { kind: "bluetoothOut", time: seen, data: { cardNo: mac } });
    }
    for (const mac of tags) {
      if (!d.tags.has(mac)) {
        this.addEvent(imei, d, {
          kind: "bluetoothIn",
          time: r.time,
          ...place,
          data: { cardNo: mac },
        });
      }
      d.tags.set(mac, Math.max(r.time, d.tags.get(mac) ?? 0));
    }
  }

  private addSample(imei: string, d: DeviceBuffer, series: SensorSeries, s: SensorSample): void {
    // JT/T 808 status words always carry door bits: a closed door says nothing until the
    // device has once reported an open one (else every device would "have" a door sensor).
    if (series === "door" && s.value === 0 && !d.reported?.series.includes("door")) return;
    const id = `${series}:${s.index}`;
    const last = d.last.get(id);
    const value = Math.round(s.value * 1e4) / 1e4;
    // An unchanged value is kept only now and then; older reports (history uploads) always.
    if (last && last.value === value && s.time > last.time && s.time - last.time < REPEAT_MS) {
      return;
    }
    if (!last || s.time >= last.time) d.last.set(id, { time: s.time, value });
    const list = d.series.get(series) ?? d.series.set(series, []).get(series)!;
    list.push({ ...s, value });
    this.stats.samples++;
    if (!d.since) d.since = this.now();
    this.noteReported(d, series, null);
    if (list.length === PART_SAMPLES) {
      this.schedule(() => this.append([imei], false))
        .catch((e) => sensorLog.error("sensor append failed", e));
    }
  }

  private addEvent(_imei: string, d: DeviceBuffer, e: SensorEvent): void {
    d.events.push(e);
    this.stats.events++;
    if (!d.since) d.since = this.now();
    this.noteReported(d, null, e.kind);
  }

  private addFuel(d: DeviceBuffer, s: SensorSample, speed?: number): void {
    d.fuel.push({ time: s.time, litres: s.value, speed, lat: s.lat, lng: s.lng });
    d.fuelNew = true;
  }

  private noteReported(d: DeviceBuffer, series: SensorSeries | null, kind: SensorEventKind | null) {
    const r = d.reported ??= { series: [], events: [] };
    if (series && !r.series.includes(series)) {
      r.series.push(series);
      d.reportedChanged = true;
    }
    if (kind && !r.events.includes(kind)) {
      r.events.push(kind);
      d.reportedChanged = true;
    }
  }

  // ---- what reads see before it is stored -------------------------------------------------------

  /**
   * Waiting samples of one series with from ≤ time < to, those of an append under way included
   * (read these before the store, and merge without repeats: SensorReadings).
   */
  pendingSeries(imei: string, series: SensorSeries, from: number, to: number): SensorSample[] {
    const d = this.devices.get(imei);
    if (!d) return [];
    const inFlight = d.appending?.series.get(series) ?? [];
    const list = [...inFlight, ...(d.series.get(series) ?? [])];
    return list.filter((s) => s.time >= from && s.time < to);
  }

  pendingEvents(imei: string, kinds: SensorEventKind[], from: number, to: number) {
    const d = this.devices.get(imei);
    if (!d) return [];
    const list = [...(d.appending?.events ?? []), ...d.events];
    return list.filter((e) => kinds.includes(e.kind) && e.time >= from && e.time < to);
  }

  /** What the device reported since start (merged with the stored list by the reader). */
  pendingReported(imei: string): Reported | null {
    return this.devices.get(imei)?.reported ?? null;
  }

  // ---- the tick: conversion, fuel events, appends --------------------------------------------

  /** Starts the tick, and the hourly compaction of finished days. */
  start(): void {
    this.timer ??= setInterval(() => {
      this.schedule(() => this.tick()).catch((e) => sensorLog.error("sensor tick failed", e));
    }, this.tickMs);
    this.compactTimer ??= setInterval(() => {
      this.compact().catch((e) => sensorLog.error("sensor compaction failed", e));
    }, COMPACT_EVERY_MS);
  }

  /**
   * Cluster mode: the device's connection closed here, so its waiting readings are appended now
   * (it may reconnect to another instance, and reads ask only the one holding it: ./relay.ts).
   */
  onConnection = (e: DeviceConnection): void => {
    if (!this.deps.appendOnClose || e.connected) return;
    this.schedule(async () => {
      const d = this.devices.get(e.imei);
      if (!d) return;
      await this.convertDevice(e.imei, d, true);
      await this.append([e.imei], true);
    }).catch((err) => sensorLog.error(`sensor readings of ${e.imei} not appended`, err));
  };

  /** Stops the timers and appends everything waiting (process exit, tests). */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    clearInterval(this.compactTimer);
    this.timer = this.compactTimer = undefined;
    await this.compacting;
    await this.flush();
  }

  /** Converts, detects and appends every waiting reading now. */
  flush(): Promise<void> {
    return this.schedule(async () => {
      await this.convertAndDetect(true);
      await this.append([...this.devices.keys()], true);
    });
  }

  /** Runs `fn` after every earlier run (ticks, flushes and size-triggered appends never overlap). */
  private schedule(fn: () => Promise<void>): Promise<void> {
    const run = this.running.then(fn);
    this.running = run.catch(() => {});
    return run;
  }

  private async tick(): Promise<void> {
    await this.convertAndDetect(false);
    const due = this.now() - this.flushAgeMs;
    const imeis = [...this.devices].filter(([, d]) => d.since && d.since <= due).map(([i]) => i);
    if (imeis.length) await this.append(imeis, false);
  }

  /** Raw fuel readings → litres by the device's tank; fuel levels → refuels and drains. */
  private async convertAndDetect(final: boolean): Promise<void> {
    for (const [imei, d] of this.devices) await this.convertDevice(imei, d, final);
  }

  private async convertDevice(imei: string, d: DeviceBuffer, final: boolean): Promise<void> {
    if (d.raw.length) {
      const tank = (await this.tanksOf(imei, d))[0];
      const raw = d.raw.splice(0);
      for (const x of tank ? raw : []) {
        const litres = tankLitres(tank, x.reading);
        if (litres === null) continue;
        const s = { ...x.sample, value: roundLitres(litres) };
        this.addSample(imei, d, "fuelLitres", s);
        this.addFuel(d, s, x.speed);
      }
    }
    // A device's levels are checked once a minute of its time or of ours (the window is
    // hours long): a live device every minute, an upload of history at every tick.
    const newest = d.fuel.length ? d.fuel[d.fuel.length - 1].time : 0;
    const due = this.now() - d.fuelCheckedAt >= FUEL_CHECK_MS ||
      newest - d.fuelCheckedTime >= FUEL_CHECK_MS;
    if ((d.fuelNew && due) || (final && d.fuel.length)) {
      d.fuelNew = false;
      d.fuelCheckedAt = this.now();
      d.fuelCheckedTime = newest;
      await this.detectFuel(imei, d, final);
    }
  }

  private async tanksOf(imei: string, d: DeviceBuffer): Promise<FuelTank[]> {
    if (d.tanks && this.now() - d.tanks.at < TANKS_TTL_MS) return d.tanks.list;
    let list: FuelTank[] = [];
    try {
      list = await this.deps.tanks(imei);
    } catch (e) {
      sensorLog.warn(`tanks of ${imei} not read`, e);
    }
    d.tanks = { at: this.now(), list };
    return list;
  }

  private async detectFuel(imei: string, d: DeviceBuffer, final: boolean): Promise<void> {
    d.fuel.sort((a, b) => a.time - b.time);
    const newest = d.fuel[d.fuel.length - 1].time;
    const tank = (await this.tanksOf(imei, d))[0];
    const threshold = tank?.refuelThreshold ?? DEFAULT_FUEL_THRESHOLD_L;
    for (const c of detectFuelChanges(d.fuel, { threshold })) {
      if (c.start <= d.fuelToldUntil) continue;
      if (!final && newest - c.end < FUEL_SETTLE_MS) break;
      this.addEvent(imei, d, {
        kind: c.kind,
        time: c.start,
        ...(c.lat !== undefined ? { lat: c.lat, lng: c.lng } : {}),
        data: { before: c.before, after: c.after, amount: c.amount, end: c.end },
      });
      d.fuelToldUntil = c.end;
    }
    const keepFrom = newest - FUEL_WINDOW_MS;
    if (d.fuel[0].time < keepFrom) d.fuel = d.fuel.filter((f) => f.time >= keepFrom);
  }

  /** Appends the waiting samples and events of these devices (split by UTC day). */
  private async append(imeis: string[], all: boolean): Promise<void> {
    const series: SeriesAppend[] = [];
    const events: EventAppend[] = [];
    const reported = new Map<string, Reported>();
    const taken: {
      d: DeviceBuffer;
      lists: Map<SensorSeries, SensorSample[]>;
      ev: SensorEvent[];
    }[] = [];
    for (const imei of imeis) {
      const d = this.devices.get(imei);
      if (!d || (!all && !d.since && !d.reportedChanged)) continue;
      for (const [name, list] of d.series) {
        for (const [day, samples] of byDay(list, (s) => s.time)) {
          series.push({ imei, series: name, day, samples });
        }
      }
      for (const [day, list] of byDay(d.events, (e) => e.time)) {
        events.push({ imei, day, events: list });
      }
      taken.push({ d, lists: d.series, ev: d.events });
      d.appending = { series: d.series, events: d.events };
      d.series = new Map();
      d.events = [];
      d.since = 0;
      if (d.reportedChanged) reported.set(imei, d.reported!);
    }
    if (!series.length && !events.length && !reported.size) {
      for (const t of taken) t.d.appending = null;
      return;
    }
    // What the device reported before this process started is kept too.
    const stored = await this.deps.store.reportedMany([...reported.keys()]);
    for (const [imei, r] of reported) reported.set(imei, mergeReported(stored.get(imei), r));
    try {
      await this.deps.store.append(series, events, reported);
    } catch (e) {
      // Put everything back: the next tick tries again.
      for (const t of taken) {
        t.d.appending = null;
        for (const [name, list] of t.lists) {
          const now = t.d.series.get(name) ?? [];
          t.d.series.set(name, list.concat(now));
        }
        t.d.events = t.ev.concat(t.d.events);
        t.d.since ||= this.now();
      }
      throw e;
    }
    for (const t of taken) t.d.appending = null;
    for (const [imei, r] of reported) {
      const d = this.devices.get(imei)!;
      d.reported = r;
      d.reportedChanged = false;
    }
    this.stats.appends++;
    this.stats.parts += series.length + events.length;
  }

  /**
   * Merges the parts of days before today into blocks (hourly). Not serialised with the
   * appends: a part appended to a day while it is compacted is left as a part, still read.
   * One compaction at a time, on the leader only in cluster mode.
   */
  compact(): Promise<number> {
    if (this.deps.leader && !this.deps.leader.isLeader()) return Promise.resolve(0);
    this.compacting ??= this.compactNow().finally(() => this.compacting = null);
    return this.compacting;
  }

  private async compactNow(): Promise<number> {
    const today = dayOf(this.now());
    let n = 0;
    for await (const { day, imei } of this.deps.store.dirtyBefore(today)) {
      await this.deps.store.compactDay(imei, day);
      n++;
    }
    return n;
  }
}

function reportOfFix(p: StoredPosition): SensorReport {
  return {
    time: p.time,
    lat: p.lat,
    lng: p.lng,
    speed: p.speed,
    battery: p.battery,
    attributes: p.attributes,
  };
}

function byDay<T>(list: T[], time: (x: T) => number): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const x of list) {
    const day = dayOf(time(x));
    const l = out.get(day) ?? out.set(day, []).get(day)!;
    l.push(x);
  }
  for (const l of out.values()) l.sort((a, b) => time(a) - time(b));
  return out;
}

export function mergeReported(a: Reported | undefined | null, b: Reported): Reported {
  return {
    series: [...new Set([...(a?.series ?? []), ...b.series])],
    events: [...new Set([...(a?.events ?? []), ...b.events])],
  };
}
