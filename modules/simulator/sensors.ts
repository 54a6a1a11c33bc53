/**
 * The sensors a simulated vehicle carries, so every sensor report has data: a fuel tank burnt by
 * driving and idling, refilled at a stop when low and now and then siphoned while parked; a
 * cold-box probe that warms while its door is open at stops, a cabin probe and humidity; OBD
 * values (rpm, coolant, load) with a fault code that comes and goes; harsh driving events. Its
 * own random stream, so adding it leaves the vehicle's movements as they were.
 */
import { Rng } from "./rng.ts";

export type HarshKind = "harshAcceleration" | "harshBraking" | "harshCornering";

/** What the sensors read at one instant (a tracker reports these). */
export interface SimSensors {
  /** Litres in the tank. */
  fuelLitres: number;
  /** The fuel sensor's volts (0-5 V over the tank's height). */
  fuelVolts: number;
  /** Percent of the tank. */
  fuelPercent: number;
  /** °C: probe 1 the cold box, probe 2 the cabin. */
  temps: [number, number];
  /** %RH. */
  humidity: number;
  door: boolean;
  /** Vehicle supply volts. */
  power: number;
  rpm: number;
  coolant: number;
  /** Percent. */
  engineLoad: number;
  /** Trouble codes, "" when none. */
  faults: string;
  /** A harsh event at this instant. */
  harsh?: HarshKind;
}

export const SIM_TANK_LITRES = 120;
const LITRES_PER_KM = 0.1;
const IDLE_LITRES_PER_HOUR = 1.2;
const REFUEL_LITRES_PER_SECOND = 0.5;
const DRAIN_LITRES_PER_SECOND = 0.2;
const COLD_BOX_C = -18;
const AMBIENT_C = 26;

export class SimSensorModel {
  private readonly rng: Rng;
  private fuel: number;
  /** Litres still to pour in (refuel) or take out (drain) while standing. */
  private refuelLeft = 0;
  private drainLeft = 0;
  private coldBox = COLD_BOX_C;
  private cabin = AMBIENT_C;
  private humidity = 60;
  private doorLeft = 0;
  private coolant = AMBIENT_C;
  private faults = "";
  private harsh: HarshKind | undefined;

  constructor(seed: number) {
    this.rng = new Rng(seed ^ 0x5e4503);
    // Some vehicles start low, so a refuel comes soon.
    this.fuel = this.rng.chance(0.4)
      ? this.rng.range(20, 34)
      : this.rng.range(45, SIM_TANK_LITRES - 10);
  }

  /** Advances dt seconds: `metres` driven, the ignition and whether the vehicle stands still. */
  step(dt: number, metres: number, accOn: boolean, standing: boolean, parked: boolean): void {
    const rng = this.rng;
    this.fuel -= metres / 1000 * LITRES_PER_KM;
    if (accOn && standing) this.fuel -= (IDLE_LITRES_PER_HOUR * dt) / 3600;
    if (standing && this.fuel < 35 && this.refuelLeft === 0 && rng.chance(dt / 30)) {
      this.refuelLeft = rng.range(0.6, 0.9) * (SIM_TANK_LITRES - this.fuel);
    }
    if (parked && this.drainLeft === 0 && this.fuel > 50 && rng.chance((0.3 * dt) / 3600)) {
      this.drainLeft = rng.range(15, 25);
    }
    if (!standing) this.refuelLeft = this.drainLeft = 0;
    const pour = Math.min(this.refuelLeft, REFUEL_LITRES_PER_SECOND * dt);
    this.refuelLeft -= pour;
    const take = Math.min(this.drainLeft, DRAIN_LITRES_PER_SECOND * dt);
    this.drainLeft -= take;
    this.fuel = Math.max(0, Math.min(SIM_TANK_LITRES, this.fuel + pour - take));

    // The cold box's door opens at stops; the box warms while open and cools back after.
    if (parked && this.doorLeft <= 0 && rng.chance(dt / 600)) this.doorLeft = rng.range(60, 180);
    if (!parked) this.doorLeft = 0;
    this.doorLeft = Math.max(0, this.doorLeft - dt);
    const target = this.doorLeft > 0 ? AMBIENT_C : COLD_BOX_C;
    this.coldBox += (target - this.coldBox) * Math.min(1, dt / (this.doorLeft > 0 ? 400 : 900));
    this.cabin += (AMBIENT_C + rng.range(-2, 2) - this.cabin) * Math.min(1, dt / 300);
    this.humidity = Math.max(20, Math.min(95, this.humidity + rng.range(-0.3, 0.3) * dt / 10));
    this.coolant += ((accOn ? 90 : AMBIENT_C) - this.coolant) * Math.min(1, dt / 240);

    if (!this.faults && rng.chance((0.3 * dt) / 3600)) this.faults = rng.pick(["P0420", "P0301"]);
    else if (this.faults && rng.chance((0.2 * dt) / 3600)) this.faults = "";
    if (!standing && !this.harsh && rng.chance((3 * dt) / 3600)) {
      this.harsh = rng.pick<HarshKind>(["harshAcceleration", "harshBraking", "harshCornering"]);
    }
  }

  /** The readings now (a harsh event is told once). */
  read(speedKmh: number, accOn: boolean): SimSensors {
    const harsh = this.harsh;
    this.harsh = undefined;
    const fraction = this.fuel / SIM_TANK_LITRES;
    const out: SimSensors = {
      fuelLitres: round(this.fuel, 1),
      fuelVolts: round(fraction * 5, 2),
      fuelPercent: round(fraction * 100, 1),
      temps: [round(this.coldBox, 1), round(this.cabin, 1)],
      humidity: round(this.humidity, 1),
      door: this.doorLeft > 0,
      power: accOn ? 13.8 : 12.4,
      rpm: accOn ? Math.round(speedKmh > 1 ? 900 + speedKmh * 22 : 750) : 0,
      coolant: Math.round(this.coolant),
      engineLoad: accOn ? Math.round(Math.min(95, 18 + speedKmh * 0.6)) : 0,
      faults: this.faults,
    };
    if (harsh) out.harsh = harsh;
    return out;
  }
}

const round = (v: number, digits: number) => Math.round(v * 10 ** digits) / 10 ** digits;
