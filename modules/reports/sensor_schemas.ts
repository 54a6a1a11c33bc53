/**
 * The sensor reports' requests: the Reports I request (devices, range, page) plus their own
 * filters — fuel consumption per trip ("segment") or per day, the clock-in filter (all,
 * 1 clock-in, 2 clock-in and out) and the sensor type (1 temperature, 2 humidity, 3 door,
 * 4 light). Strict objects like every report request.
 */
import { z } from "zod";
import type { SensorReportName } from "./sensor_model.ts";

/** The shape every report request shares (schemas.ts passes its own). */
type Base = Record<string, z.ZodType>;

const clockType = z.union([z.literal("all"), z.literal(1), z.literal(2)]).default("all");
const sensorType = z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]).default(1);

export function sensorReportBodies<B extends Base>(base: B) {
  const plain = z.object(base).strict();
  return {
    internalBattery: plain,
    externalBattery: plain,
    positioningBattery: plain,
    fuelConsumption: z.object({ ...base, view: z.enum(["segment", "day"]).default("segment") })
      .strict(),
    currentFuel: plain,
    refueling: plain,
    temperatureHumidity: plain,
    logistics: plain,
    obdTrip: plain,
    obdTripInfo: plain,
    obdFault: plain,
    canData: plain,
    drivingBehavior: plain,
    clockIn: z.object({ ...base, clockType }).strict(),
    bluetoothClockIn: z.object({ ...base, clockType }).strict(),
    carriageMileage: plain,
    sensorData: z.object({ ...base, sensorType }).strict(),
    fuelDaily: plain,
    stateStatistics: plain,
  } satisfies Record<SensorReportName, z.ZodType>;
}
