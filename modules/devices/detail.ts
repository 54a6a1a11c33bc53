import { z } from "zod";
import { BizError } from "../../lib/errors.ts";
import { calendarDate } from "../accounts/schemas.ts";
import { CALIBRATION_MAX_POINTS, calibrationProblem } from "../sensors/model.ts";

/**
 * The field groups of a device's details dialog (spec §3): customer (driver, vehicle,
 * install), alerts (alarm settings) and sensors. Stored beside the registry record because
 * the gateway never needs them. Length limits follow spec §5; rules that span fields are
 * checked in the check* functions so each refusal names its catalogue message.
 */

const text = (max: number) => z.string().trim().max(max);
const num = (min: number, max: number) => z.number().min(min).max(max).nullable();

/** ISO 3779 VIN: 17 characters, letters I, O and Q excluded. */
export const VIN = /^[A-HJ-NPR-Z0-9]{17}$/;

export const customerFields = z.object({
  driverName: text(20),
  driverPhone: text(20).regex(/^[0-9+\- ]*$/, "validation.phoneForm"),
  driverId: text(50),
  driverNo: text(50),
  vehicleNumber: text(50),
  vehicleId: text(50),
  idCard: text(30),
  carFrame: text(50),
  engineNumber: text(50),
  /** Fuel per 100 km. */
  oilWear: num(0, 1000),
  vehicleModels: text(50),
  vehicleBrand: text(50),
  vehicleColor: text(20),
  installTime: calendarDate.nullable(),
  installAddress: text(200),
  installCompany: text(100),
  installPosition: text(100),
  installPersonnel: text(50),
}).strict();
export type Customer = z.infer<typeof customerFields>;

const inputSetting = z.object({ active: text(20), inactive: text(20) }).strict();

export const alertFields = z.object({
  minTemperature: num(-40, 125),
  maxTemperature: num(-40, 125),
  /** km/h */
  overSpeed: num(1, 300),
  /** seconds: a multiple of 10, at most 600 */
  overSecond: z.number().int().min(10).max(600).multipleOf(10).nullable(),
  /** Maintenance reminder (km), needs the current mileage. */
  mileageThreshold: num(1000, 10_000_000),
  /** Continuous driving distance alert (km). */
  continuousMileageThreshold: num(100, 100_000),
  /** Current mileage (km). */
  mileage: num(0, 10_000_000),
  /** Hours, at least 50, needs the current duration. */
  aCCOnDurtionThreshold: num(50, 1_000_000),
  /** Current ACC-on duration (hours). */
  initialValue: num(0, 1_000_000),
  input1: inputSetting,
  input2: inputSetting,
}).strict();
export type Alerts = z.infer<typeof alertFields>;

const mac = text(17).regex(/^$|^([0-9A-Fa-f]{2}[:-]?){5}[0-9A-Fa-f]{2}$/);

export const fuelSensor = z.object({
  name: text(20).min(1),
  type: z.enum(["capacitive", "ultrasonic"]),
  mac,
}).strict();

/** Wired sensor types follow the sensor report types: temperature, humidity, door, light. */
export const wireSensor = z.object({
  name: text(20).min(1),
  type: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]),
  mac,
}).strict();

const dim = z.number().positive().max(100_000).nullable();
export const oilTank = z.object({
  name: text(20).min(1),
  type: z.enum(["fuel", "water", "other"]),
  /** Tank ID or MAC of its sensor. */
  tankId: text(30).min(1),
  minVoltage: z.number().min(0).max(100),
  maxVoltage: z.number().min(0).max(100),
  cutoffVoltage: z.number().min(0).max(100).nullable(),
  /** Litres that count as a refuelling. */
  refuelThreshold: z.number().min(0).max(10_000).nullable(),
  shape: z.enum(["cube", "horizontal", "irregular"]),
  /** Dimensions in cm. */
  diameter: dim,
  height: dim,
  width: dim,
  length: dim,
  oilHeight: dim,
  /** Litres; computed from the dimensions for regular shapes when not given. */
  capacity: z.number().positive().max(1_000_000).nullable(),
  /**
   * Irregular tanks: sensor reading (volts, or cm for a height rod) → litres, rows ascending;
   * the sensor readings are converted by linear interpolation (modules/sensors/tank.ts).
   */
  calibration: z.array(
    z.object({ value: z.number().min(0).max(100_000), litres: z.number().min(0).max(1_000_000) })
      .strict(),
  ).max(CALIBRATION_MAX_POINTS).optional(),
}).strict();
export type OilTank = z.infer<typeof oilTank>;

export const sensorFields = z.object({
  adc: text(50),
  serialPort: text(50),
  serialPort485: text(50),
  digitalPort: text(50),
  batteryType: z.enum(["leadAcid", "lithium", "nickel", "other"]),
  nominalVoltage: z.number().positive().max(1000),
  oilRods: z.array(fuelSensor).max(8),
  deviceWireSensorsVos: z.array(wireSensor).max(8),
  oilTanks: z.array(oilTank).max(8),
}).strict();
export type Sensors = z.infer<typeof sensorFields>;

export interface DeviceDetail {
  customer: Customer;
  alerts: Alerts;
  sensors: Sensors | null;
}

export const EMPTY_CUSTOMER: Customer = {
  driverName: "",
  driverPhone: "",
  driverId: "",
  driverNo: "",
  vehicleNumber: "",
  vehicleId: "",
  idCard: "",
  carFrame: "",
  engineNumber: "",
  oilWear: null,
  vehicleModels: "",
  vehicleBrand: "",
  vehicleColor: "",
  installTime: null,
  installAddress: "",
  installCompany: "",
  installPosition: "",
  installPersonnel: "",
};

export const EMPTY_ALERTS: Alerts = {
  minTemperature: null,
  maxTemperature: null,
  overSpeed: null,
  overSecond: null,
  mileageThreshold: null,
  continuousMileageThreshold: null,
  mileage: null,
  aCCOnDurtionThreshold: null,
  initialValue: null,
  input1: { active: "", inactive: "" },
  input2: { active: "", inactive: "" },
};

export const emptyDetail = (): DeviceDetail => ({
  customer: { ...EMPTY_CUSTOMER },
  alerts: structuredClone(EMPTY_ALERTS),
  sensors: null,
});

/** Spec §5: a VIN that does not look like one is saved only when the user confirms. */
export function checkCustomer(c: Customer, confirmVin: boolean): void {
  if (c.carFrame && !VIN.test(c.carFrame.toUpperCase()) && !confirmVin) {
    throw new BizError("vinFormatWarning", {}, { field: "carFrame", warning: true });
  }
}

/** Spec §5 alarm thresholds that span fields. */
export function checkAlerts(a: Alerts): void {
  const field = (name: string) => ({ field: name });
  if (
    a.minTemperature !== null && a.maxTemperature !== null && a.maxTemperature <= a.minTemperature
  ) throw new BizError("temperatureRange", {}, field("maxTemperature"));
  if ((a.overSpeed === null) !== (a.overSecond === null)) {
    throw new BizError(
      "overSpeedPair",
      {},
      field(a.overSpeed === null ? "overSpeed" : "overSecond"),
    );
  }
  if (a.mileageThreshold !== null && a.mileage === null) {
    throw new BizError("mileageNeedsCurrent", {}, field("mileage"));
  }
  if (a.aCCOnDurtionThreshold !== null && a.initialValue === null) {
    throw new BizError("accOnNeedsCurrent", {}, field("initialValue"));
  }
}

/**
 * Spec §5 sensor rules: one fuel sensor type; sensor names and MACs unique across fuel and
 * wired sensors; tank names and IDs unique. Returns the sensors with tank capacities filled.
 */
export function checkSensors(s: Sensors): Sensors {
  if (new Set(s.oilRods.map((r) => r.type)).size > 1) {
    throw new BizError("fuelSensorTypeMixed", {}, { field: "oilRods" });
  }
  const sensors = [...s.oilRods, ...s.deviceWireSensorsVos];
  unique(sensors.map((x) => x.name.toLowerCase()), "sensorNameExists", "name");
  unique(
    sensors.map((x) => x.mac.toUpperCase().replace(/[:-]/g, "")).filter(Boolean),
    "sensorMacExists",
    "mac",
  );
  unique(s.oilTanks.map((t) => t.name.toLowerCase()), "tankNameExists", "name");
  unique(s.oilTanks.map((t) => t.tankId.toLowerCase()), "tankIdExists", "tankId");
  return { ...s, oilTanks: s.oilTanks.map(withCapacity) };
}

function unique(
  values: string[],
  error: "sensorNameExists" | "sensorMacExists" | "tankNameExists" | "tankIdExists",
  field: string,
) {
  const seen = new Set<string>();
  for (const v of values) {
    if (seen.has(v)) throw new BizError(error, { name: v }, { field });
    seen.add(v);
  }
}

/** Regular shapes need their dimensions; their capacity (litres, from cm) follows from them. */
export function withCapacity(t: OilTank): OilTank {
  const need = (names: (keyof OilTank)[]) => {
    for (const n of names) {
      if (t[n] === null) {
        throw new BizError("illegalParameter", { field: n, reasonKey: "validation.required" }, {
          field: n,
        });
      }
    }
  };
  if (t.maxVoltage <= t.minVoltage) {
    throw new BizError("illegalParameter", {
      field: "maxVoltage",
      reasonKey: "validation.invalid",
    }, { field: "maxVoltage" });
  }
  let computed: number | null = null;
  if (t.shape === "cube") {
    need(["width", "length", "height"]);
    computed = t.width! * t.length! * t.height! / 1000;
  } else if (t.shape === "horizontal") {
    need(["diameter", "length"]);
    computed = Math.PI * (t.diameter! / 2) ** 2 * t.length! / 1000;
  } else if (t.calibration?.length) {
    const problem = calibrationProblem(t.calibration);
    if (problem) {
      throw new BizError("illegalParameter", { field: "calibration", reasonKey: problem }, {
        field: "calibration",
      });
    }
    computed = t.calibration[t.calibration.length - 1].litres;
  } else need(["capacity"]);
  return { ...t, capacity: t.capacity ?? Math.round(computed! * 10) / 10 };
}
