/**
 * Fuel readings for the report benchmark (bench:reports): a device's level follows its
 * generated day (12 L/100 km from the odometer while driving, a slow idle burn), a refuel to
 * full while parked when it falls under a quarter, and is kept as the sensor recorder keeps it
 * (a change at once, an unchanged level every 5 minutes), with a refuel event per refuel.
 */
import type { StoredPosition } from "../../modules/devices/model.ts";
import type { SensorEvent, SensorSample } from "../../modules/sensors/types.ts";

const TANK_L = 120;
const L_PER_KM = 0.12;
const IDLE_L_PER_H = 0.8;
const REPEAT_MS = 5 * 60_000;

export class FuelDays {
  private level = TANK_L * 0.8;
  private lastKept: SensorSample | null = null;
  private lastOdometer: number | null = null;

  /** One day's kept readings and refuel events from its positions. */
  day(points: StoredPosition[]): { samples: SensorSample[]; events: SensorEvent[] } {
    const samples: SensorSample[] = [], events: SensorEvent[] = [];
    let prevTime: number | null = null;
    for (const p of points) {
      if (this.lastOdometer !== null && p.mileage !== null) {
        this.level -= Math.max(0, p.mileage - this.lastOdometer) * L_PER_KM;
      }
      if (p.acc && prevTime !== null) {
        this.level -= ((p.time - prevTime) / 3_600_000) * IDLE_L_PER_H;
      }
      this.lastOdometer = p.mileage;
      prevTime = p.time;
      if (!p.acc && p.speed < 5 && this.level < TANK_L / 4) {
        const before = this.level;
        this.level = TANK_L;
        events.push({
          kind: "refuel",
          time: p.time,
          lat: p.lat,
          lng: p.lng,
          data: {
            before: round(before),
            after: TANK_L,
            amount: round(TANK_L - before),
          },
        });
      }
      const value = round(this.level);
      const last = this.lastKept;
      if (last && last.value === value && p.time - last.time < REPEAT_MS) continue;
      const s = { time: p.time, value, index: 0, lat: p.lat, lng: p.lng };
      samples.push(s);
      this.lastKept = s;
    }
    return { samples, events };
  }
}

const round = (v: number) => Math.round(v * 10) / 10;
