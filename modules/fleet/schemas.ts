import { z } from "zod";
import { accountId, calendarDate, pageFields, phone } from "../accounts/schemas.ts";
import { FLEET_LIMITS, FUEL_TYPES, VEHICLE_STATUSES } from "./model.ts";

const text = (max: number = FLEET_LIMITS.textMax) => z.string().trim().max(max);
/** An optional date: "" clears it. */
const date = z.union([z.literal(""), calendarDate]);
const speed = z.number().int().min(0).max(FLEET_LIMITS.maxSpeedKmh);
export const fleetId = z.string().regex(/^[\w-]{8,40}$/, "validation.idForm");
const imei = z.string().regex(/^\d{15}$/, "validation.imeiForm");
const cardNo = z.string().trim().max(30).regex(/^[\w-]*$/, "validation.cardForm");

/** Driver fields (spec business §3 Fleet driver, §5: name ≤ 20, max speed ≤ 200 km/h). */
const driverFields = {
  name: z.string().trim().min(1).max(FLEET_LIMITS.driverNameMax),
  driverNo: text(),
  licenseNo: text(),
  phone,
  rfidCardNo: cardNo,
  registerDate: date,
  expiredDate: date,
  registerPlace: text(),
  city: text(),
  ext1: text(),
  ext2: text(),
  ext3: text(),
  ext4: text(),
  maxSpeed: speed,
  /** The vehicle the driver is assigned to ("" for none). */
  vehicleId: z.union([z.literal(""), fleetId]),
};

export const driverAddBody = z.object({
  ...driverFields,
  driverNo: text().default(""),
  licenseNo: text().default(""),
  phone: phone.default(""),
  rfidCardNo: cardNo.default(""),
  registerDate: date.default(""),
  expiredDate: date.default(""),
  registerPlace: text().default(""),
  city: text().default(""),
  ext1: text().default(""),
  ext2: text().default(""),
  ext3: text().default(""),
  ext4: text().default(""),
  maxSpeed: speed.default(0),
  vehicleId: driverFields.vehicleId.default(""),
  /** The sub-account the driver belongs to (default: the caller's account). */
  userId: accountId.optional(),
}).strict();

export const driverUpdateBody = z.object({
  id: fleetId,
  ...Object.fromEntries(Object.entries(driverFields).map(([k, v]) => [k, v.optional()])),
}).strict() as unknown as z.ZodType<{ id: string } & Partial<z.infer<typeof driverAddBody>>>;

export const idsBody = z.object({ ids: z.array(fleetId).min(1).max(200) }).strict();

export const driverListBody = z.object({
  ...pageFields,
  /** Name, driver no, licence no, phone or card no contains it. */
  keyword: z.string().trim().max(50).optional(),
  /** Only drivers whose licence is in this state. */
  licenceState: z.enum(["valid", "expiringSoon", "expired", "none"]).optional(),
}).strict();

/** Vehicle fields (spec business §3 Fleet vehicle). */
const vehicleFields = {
  plate: z.string().trim().min(1).max(20),
  imei: z.union([z.literal(""), imei]),
  brand: text(),
  model: text(),
  colour: text(20),
  chassis: z.string().trim().toUpperCase().max(17),
  fuelType: z.union([z.literal(""), z.enum(FUEL_TYPES)]),
  seats: z.number().int().min(0).max(100),
  wheels: z.number().int().min(0).max(50),
  tonnage: z.number().min(0).max(1000),
  cargo: text(),
  insuranceEffective: date,
  insuranceExpire: date,
  productionYear: z.number().int().min(0).max(9999).refine(
    (y) => y === 0 || (y >= 1900 && y <= new Date().getUTCFullYear() + 1),
    "validation.yearRange",
  ),
  maxSpeed: speed,
  status: z.enum(VEHICLE_STATUSES),
  driverId: z.union([z.literal(""), fleetId]),
};

export const vehicleAddBody = z.object({
  plate: vehicleFields.plate,
  imei: vehicleFields.imei.default(""),
  brand: text().default(""),
  model: text().default(""),
  colour: text(20).default(""),
  chassis: vehicleFields.chassis.default(""),
  fuelType: vehicleFields.fuelType.default(""),
  seats: vehicleFields.seats.default(0),
  wheels: vehicleFields.wheels.default(0),
  tonnage: vehicleFields.tonnage.default(0),
  cargo: text().default(""),
  insuranceEffective: date.default(""),
  insuranceExpire: date.default(""),
  productionYear: vehicleFields.productionYear.default(0),
  maxSpeed: speed.default(0),
  status: vehicleFields.status.default("vacant"),
  driverId: vehicleFields.driverId.default(""),
  userId: accountId.optional(),
  /** Save anyway despite a VIN warning (vinSuspicious). */
  force: z.boolean().default(false),
}).strict();

export const vehicleUpdateBody = z.object({
  id: fleetId,
  ...Object.fromEntries(Object.entries(vehicleFields).map(([k, v]) => [k, v.optional()])),
  force: z.boolean().default(false),
}).strict() as unknown as z.ZodType<
  { id: string; force: boolean } & Partial<Omit<z.infer<typeof vehicleAddBody>, "force">>
>;

export const vehicleListBody = z.object({
  ...pageFields,
  keyword: z.string().trim().max(50).optional(),
  status: z.enum(VEHICLE_STATUSES).optional(),
  insuranceState: z.enum(["valid", "expiringSoon", "expired", "none"]).optional(),
}).strict();

/** Assign a driver to a vehicle ("" unassigns). */
export const assignBody = z.object({
  vehicleId: fleetId,
  driverId: z.union([z.literal(""), fleetId]),
}).strict();

const dateTime = z.string().regex(
  /^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}(:\d{2})?)?$/,
  "validation.dateTimeForm",
);

export const rfidListBody = z.object({
  startTime: dateTime,
  endTime: dateTime,
  ...pageFields,
  driverId: fleetId.optional(),
  imei: imei.optional(),
  vehicleId: fleetId.optional(),
  /** Only swipes whose card matched no driver. */
  unknownOnly: z.boolean().optional(),
}).strict();

export const rfidExportBody = rfidListBody.omit({ pageNum: true, pageSize: true });

export const boardBody = z.object({}).strict();
