/**
 * Generated vehicle days for the report benchmarks (bench:reports, motion_cost_bench): every
 * `intervalS` seconds a fix, deterministic per device.
 */
import type { StoredPosition } from "../../modules/devices/model.ts";
import { DAY_MS } from "../../modules/motion/days.ts";

/**
 * One device's days: parked overnight, 3-6 trips (idling 2-5 min before each, 10-50 min at
 * 40-80 km/h, an overspeed burst in some), parking with GPS drift between, back home at night.
 */
export class DeviceDays {
  private lat: number;
  private lng: number;
  private readonly homeLat: number;
  private readonly homeLng: number;
  private odometer = 10_000;
  private rnd: () => number;

  constructor(i: number, private readonly intervalS = 30) {
    this.homeLat = this.lat = 22.3 + (i % 20) * 0.02;
    this.homeLng = this.lng = 113.9 + Math.floor(i / 20) * 0.02;
    this.rnd = mulberry(i + 1);
  }

  day(start: number): StoredPosition[] {
    const out: StoredPosition[] = [];
    const step = this.intervalS * 1000;
    const end = start + DAY_MS;
    let t = start;
    const trips = 3 + Math.floor(this.rnd() * 4);
    let leave = start + (6.5 + this.rnd() * 2) * 3_600_000;
    for (let k = 0; k < trips && t < end; k++) {
      t = this.park(out, t, Math.min(leave, end), step);
      t = this.idle(out, t, Math.min(t + (2 + this.rnd() * 3) * 60_000, end), step);
      const homeward = k === trips - 1 || k % 2 === 1;
      t = this.drive(out, t, Math.min(t + (10 + this.rnd() * 40) * 60_000, end), step, homeward);
      leave = t + (20 + this.rnd() * 100) * 60_000;
    }
    this.park(out, t, end, step);
    return out;
  }

  private point(time: number, speed: number, acc: boolean, lat = this.lat, lng = this.lng) {
    return {
      time,
      lat,
      lng,
      speed,
      course: 0,
      altitude: 20,
      satellites: 9,
      posType: 1,
      valid: true,
      acc,
      mileage: Math.round(this.odometer * 100) / 100,
      battery: null,
      signal: null,
      attributes: NO_ATTRIBUTES,
    } satisfies StoredPosition;
  }

  private park(out: StoredPosition[], t: number, until: number, step: number): number {
    for (; t < until; t += step) {
      const d = () => (this.rnd() - 0.5) * 0.0002; // ±10 m of drift
      out.push(this.point(t, Math.floor(this.rnd() * 3), false, this.lat + d(), this.lng + d()));
    }
    return t;
  }

  private idle(out: StoredPosition[], t: number, until: number, step: number): number {
    for (; t < until; t += step) out.push(this.point(t, 0, true));
    return t;
  }

  private drive(
    out: StoredPosition[],
    t: number,
    until: number,
    step: number,
    homeward: boolean,
  ): number {
    let heading = homeward
      ? Math.atan2(this.homeLng - this.lng, this.homeLat - this.lat)
      : this.rnd() * 2 * Math.PI;
    const cruise = 40 + this.rnd() * 40;
    const burst = this.rnd() < 0.3 ? t + (until - t) * this.rnd() : -1;
    for (; t < until; t += step) {
      const fast = burst > 0 && t >= burst && t < burst + 120_000;
      const kmh = fast ? 105 + this.rnd() * 15 : cruise + (this.rnd() - 0.5) * 20;
      const metres = (kmh / 3.6) * (step / 1000);
      heading += (this.rnd() - 0.5) * 0.3;
      this.lat += (metres * Math.cos(heading)) / 111_195;
      this.lng += (metres * Math.sin(heading)) / (111_195 * Math.cos((this.lat * Math.PI) / 180));
      this.odometer += metres / 1000;
      out.push(this.point(t, Math.round(kmh * 10) / 10, true));
    }
    return t;
  }
}

const NO_ATTRIBUTES: Record<string, never> = Object.freeze({}) as Record<string, never>;

function mulberry(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
