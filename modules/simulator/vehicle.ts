/**
 * A simulated vehicle: drives a route loop at a speed profile (accelerating, cruising at
 * 30-90 km/h, slowing for turns), stops now and then — idling with the ignition on or
 * parked with it off — accumulates its odometer, drains and recharges its backup battery,
 * raises the occasional alarm (SOS, vibration while parked, power cut) and decides when its
 * connection drops. Everything random comes from a seeded generator: the same seed and the
 * same clock give the same drive.
 */
import { SimSensorModel } from "./sensors.ts";
import type { DeviceFix, SimAlarm } from "./fix.ts";
import { Rng } from "./rng.ts";
import { bearing, type Centre, CENTRES, distanceMetres, placeRoute, ROUTES } from "./routes.ts";

export type VehicleMode = "driving" | "stopping" | "idling" | "parked";

export type VehicleEvent =
  | { type: "alarm"; alarm: SimAlarm }
  | { type: "ignition"; on: boolean }
  /** The tracker loses its connection for this long (then reconnects and logs in again). */
  | { type: "disconnect"; offlineSeconds: number };

export interface VehicleOptions {
  seed: number;
  centre?: Centre;
  /** Index into ROUTES; by default chosen by the seed. */
  route?: number;
  /** Simulation start, epoch ms. */
  start?: number;
  /** Alarm rates per hour of the kind's condition (default ~0.05 SOS, 1 vibration parked, 0.05 power cut); 0 disables. */
  alarmScale?: number;
  /** Connection drops per hour (default 0.5); 0 disables. */
  reconnectsPerHour?: number;
  /** Mean seconds between stops while driving (default 600). */
  meanDriveSeconds?: number;
  /** Start mode; by default mostly driving, some idling or parked. */
  mode?: VehicleMode;
}

const ACCEL = 1.6; // m/s²
const BRAKE = 2.6; // m/s²
const KMH = 1 / 3.6;
const MAX_SPEED = 90 * KMH;

export class Vehicle {
  readonly route: { lat: number; lng: number }[];
  readonly routeName: string;
  private readonly rng: Rng;
  private readonly centre: Centre;
  private readonly alarmScale: number;
  private readonly reconnectsPerHour: number;
  private readonly meanDriveSeconds: number;

  time: number;
  mode: VehicleMode;
  /** Segment index (from route[seg] to route[seg + 1]) and metres along it. */
  private seg: number;
  private along = 0;
  speed = 0; // m/s
  private cruise: number; // m/s
  /** Seconds left in the current stop. */
  private dwell = 0;
  odometerKm: number;
  battery: number;
  signal: number;
  satellites: number;
  /** Fuel, temperatures, door, OBD, harsh driving (its own random stream). */
  private readonly sensors: SimSensorModel;

  constructor(opts: VehicleOptions) {
    this.rng = new Rng(opts.seed);
    this.sensors = new SimSensorModel(opts.seed);
    this.centre = opts.centre ?? CENTRES.shenzhen;
    this.alarmScale = opts.alarmScale ?? 1;
    this.reconnectsPerHour = opts.reconnectsPerHour ?? 0.5;
    this.meanDriveSeconds = opts.meanDriveSeconds ?? 600;
    const rng = this.rng;
    const shape = ROUTES[opts.route ?? rng.int(0, ROUTES.length - 1)];
    this.routeName = shape.name;
    this.route = placeRoute(shape, this.centre, {
      rotation: rng.range(0, 2 * Math.PI),
      scale: rng.range(0.7, 1.3),
      north: rng.range(-2500, 2500),
      east: rng.range(-2500, 2500),
    });
    this.time = opts.start ?? Date.now();
    this.seg = rng.int(0, this.route.length - 1);
    this.along = rng.range(0, this.segmentLength());
    this.cruise = rng.range(30, 90) * KMH;
    this.odometerKm = Math.round(rng.range(1_000, 80_000) * 10) / 10;
    this.battery = rng.range(60, 100);
    this.signal = rng.int(2, 4);
    this.satellites = rng.int(7, 12);
    const roll = rng.next();
    this.mode = opts.mode ?? (roll < 0.7 ? "driving" : roll < 0.85 ? "idling" : "parked");
    if (this.mode === "driving") this.speed = this.cruise * rng.range(0.5, 1);
    if (this.mode === "idling") this.dwell = rng.range(10, 90);
    if (this.mode === "parked") this.dwell = rng.range(60, 900);
  }

  get acc(): boolean {
    return this.mode !== "parked";
  }

  private point(i: number) {
    return this.route[((i % this.route.length) + this.route.length) % this.route.length];
  }

  private segmentLength(seg = this.seg): number {
    return distanceMetres(this.point(seg), this.point(seg + 1));
  }

  /** Turn at the end of a segment, degrees 0-180. */
  private turnAngle(seg: number): number {
    const a = bearing(this.point(seg), this.point(seg + 1));
    const b = bearing(this.point(seg + 1), this.point(seg + 2));
    const d = Math.abs(a - b) % 360;
    return d > 180 ? 360 - d : d;
  }

  /** Speed to be down to when reaching the next vertex. */
  private cornerSpeed(): number {
    const turn = this.turnAngle(this.seg);
    if (turn > 60) return 18 * KMH;
    if (turn > 30) return 32 * KMH;
    if (turn > 12) return 50 * KMH;
    return this.cruise;
  }

  /** The vehicle's state now, as a tracker would report it (alarms come with `advance`). */
  fix(): DeviceFix {
    const a = this.point(this.seg), b = this.point(this.seg + 1);
    const len = this.segmentLength();
    const t = len > 0 ? Math.min(1, this.along / len) : 0;
    const lat = a.lat + (b.lat - a.lat) * t;
    const lng = a.lng + (b.lng - a.lng) * t;
    const gridLat = Math.floor(lat * 50), gridLng = Math.floor(lng * 50);
    const fix: DeviceFix = {
      time: new Date(Math.floor(this.time / 1000) * 1000),
      valid: this.satellites >= 4,
      latitude: Math.round(lat * 1e6) / 1e6,
      longitude: Math.round(lng * 1e6) / 1e6,
      altitude: Math.round(
        this.centre.altitude + 8 * Math.sin(lat * 900) + 5 * Math.cos(lng * 700),
      ),
      speedKmh: Math.round((this.speed / KMH) * 10) / 10,
      course: Math.round(bearing(a, b)) % 360,
      satellites: this.satellites,
      acc: this.acc,
      odometerKm: Math.round(this.odometerKm * 1000) / 1000,
      battery: Math.round(this.battery),
      signal: this.signal,
      mcc: this.centre.mcc,
      mnc: this.centre.mnc,
      lac: 0x1000 + (((gridLat * 7 + gridLng * 13) % 0x4000) + 0x4000) % 0x4000,
      cellId: ((gridLat * 7919 + gridLng * 104729) % 0xfffff + 0xfffff) % 0xfffff,
      sensors: this.sensors.read(this.speed / KMH, this.acc),
    };
    return fix;
  }

  /** Advances the clock to `to` (epoch ms); returns the state then and what happened on the way. */
  advance(to: number): { fix: DeviceFix; events: VehicleEvent[] } {
    const events: VehicleEvent[] = [];
    while (this.time < to) {
      const dt = Math.min(1, (to - this.time) / 1000);
      this.step(dt, events);
      this.time += dt * 1000;
    }
    const alarm = events.find((e): e is Extract<VehicleEvent, { type: "alarm" }> =>
      e.type === "alarm"
    );
    const fix = this.fix();
    if (alarm) fix.alarm = alarm.alarm;
    return { fix, events };
  }

  private perHour(rate: number, dt: number): boolean {
    return rate > 0 && this.rng.chance((rate * dt) / 3600);
  }

  private step(dt: number, events: VehicleEvent[]): void {
    const rng = this.rng;
    const wasOn = this.acc;
    switch (this.mode) {
      case "driving":
      case "stopping": {
        const target = this.mode === "stopping" ? 0 : this.targetSpeed();
        if (this.speed < target - 0.5) {
          this.speed = Math.min(target, this.speed + ACCEL * dt * rng.range(0.7, 1.1));
        } else if (this.speed > target + 0.5) {
          this.speed = Math.max(target, this.speed - BRAKE * dt);
        } else if (target > 0) {
          // Cruising: a driver never holds the speed exactly.
          this.speed = Math.max(
            0,
            Math.min(target + 1, MAX_SPEED, this.speed + rng.range(-0.4, 0.4) * dt),
          );
        } else {
          this.speed = 0;
        }
        this.move(this.speed * dt);
        if (this.mode === "driving" && rng.chance(dt / this.meanDriveSeconds)) {
          this.mode = "stopping";
        }
        if (this.mode === "stopping" && this.speed <= 0.05) {
          this.speed = 0;
          if (rng.chance(0.6)) {
            this.mode = "idling"; // traffic, a drop-off, a queue
            this.dwell = rng.range(15, 120);
          } else {
            this.mode = "parked";
            this.dwell = rng.range(120, 900);
          }
        }
        break;
      }
      case "idling":
      case "parked":
        this.speed = 0;
        this.dwell -= dt;
        if (this.dwell <= 0) {
          this.mode = "driving";
          this.cruise = rng.range(30, 90) * KMH;
        }
        break;
    }
    if (wasOn !== this.acc) events.push({ type: "ignition", on: this.acc });
    this.sensors.step(dt, this.speed * dt, this.acc, this.speed < 0.5, this.mode === "parked");

    // Battery: charged while the ignition is on, drained while parked.
    this.battery = this.acc
      ? Math.min(100, this.battery + (6 * dt) / 3600)
      : Math.max(5, this.battery - (2 * dt) / 3600);
    if (rng.chance(dt / 45)) {
      this.signal = Math.max(1, Math.min(4, this.signal + rng.pick([-1, 1])));
    }
    if (rng.chance(dt / 30)) {
      this.satellites = Math.max(3, Math.min(14, this.satellites + rng.pick([-1, 1])));
    }

    const scale = this.alarmScale;
    if (this.perHour(0.05 * scale, dt)) events.push({ type: "alarm", alarm: "sos" });
    if (this.mode === "parked" && this.perHour(1 * scale, dt)) {
      events.push({ type: "alarm", alarm: "vibration" });
    }
    if (this.perHour(0.05 * scale, dt)) events.push({ type: "alarm", alarm: "powerCut" });
    if (this.perHour(this.reconnectsPerHour, dt)) {
      events.push({ type: "disconnect", offlineSeconds: Math.round(rng.range(5, 60)) });
    }
  }

  /** Cruise speed, limited so the vehicle can still brake down to the next corner's speed. */
  private targetSpeed(): number {
    const left = Math.max(0, this.segmentLength() - this.along);
    const corner = this.cornerSpeed();
    const reachable = Math.sqrt(corner * corner + 2 * BRAKE * left);
    return Math.min(this.cruise, reachable);
  }

  private move(metres: number): void {
    this.odometerKm += metres / 1000;
    this.along += metres;
    for (let guard = 0; guard < this.route.length + 1; guard++) {
      const len = this.segmentLength();
      if (this.along < len) break;
      this.along -= len;
      this.seg = (this.seg + 1) % this.route.length;
      // A new street: a new cruising speed.
      if (this.rng.chance(0.5)) this.cruise = this.rng.range(30, 90) * KMH;
    }
  }
}
