import { z } from "zod";
import { accountId, calendarDate, pageFields } from "../accounts/schemas.ts";
import { alertFields, customerFields, sensorFields } from "./detail.ts";
import { APPLICATION_TYPES } from "./models.ts";
import { ACTIVATION_FILTERS } from "./model.ts";

export const imei = z.string().trim().regex(/^\d{15}$/, "validation.imeiForm");
/** Batch operations name up to 1000 devices (spec §5 import limit). */
export const imeiList = z.array(imei).min(1).max(1000);

export const importBody = z.object({
  userId: accountId,
  mcType: z.string().trim().min(1).max(40),
  /** Checked one by one in the service, so one bad IMEI does not refuse the others. */
  imeis: z.array(z.string().max(40)).min(1).max(1000),
  /** "permission": the device waits for allow-activation before data activates it. */
  activationMode: z.enum(["auto", "permission"]).optional(),
  groupId: z.string().max(20).nullable().optional(),
}).strict();

export const filterFields = {
  /** Whose subtree; defaults to the caller's account. */
  userId: accountId.optional(),
  /** Only the account's own devices, not its sub-accounts'. */
  ownOnly: z.boolean().optional(),
  /** IMEI digits (5-15, match anywhere) or device name. */
  keyword: z.string().trim().max(50).optional(),
  /** Spec status filter: 1 moving, 2 idling, 3 stopped, 4 offline; 5 not activated (ours). */
  status: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.literal(5)])
    .optional(),
  /** Online (moving, idling or stopped) or not. */
  online: z.boolean().optional(),
  mcType: z.string().trim().max(40).optional(),
  /** A group id; "0" is the default group. */
  groupId: z.string().max(20).optional(),
  /** Effective expiry within this many days (and not yet past). */
  expiryWithin: z.union([z.literal(7), z.literal(30), z.literal(60)]).optional(),
  activation: z.enum(ACTIVATION_FILTERS).optional(),
  enabled: z.boolean().optional(),
  bound: z.boolean().optional(),
  /** Bindable by an app account (spec §4). */
  appBindable: z.boolean().optional(),
  followed: z.boolean().optional(),
  // Advanced search.
  /** Exact IMEIs (batch search). */
  imeis: z.array(z.string().trim().max(15)).max(1000).optional(),
  sim: z.string().trim().max(20).optional(),
  activatedFrom: calendarDate.optional(),
  activatedTo: calendarDate.optional(),
};

export const listBody = z.object({
  ...pageFields,
  ...filterFields,
  sort: z.enum(["imei", "deviceName", "activationTime", "expiration", "createdAt"]).optional(),
  order: z.enum(["asc", "desc"]).optional(),
}).strict();

export const filterBody = z.object(filterFields).strict();

export const searchBody = z.object({
  /** IMEI digits (5 to 15) or part of a device name. */
  keyword: z.string().trim().min(1).max(50).refine(
    (v) => !/^\d+$/.test(v) || (v.length >= 5 && v.length <= 15),
    "validation.imeiSearch",
  ),
  limit: z.number().int().min(1).max(100).optional(),
}).strict();

export const imeiBody = z.object({ imei }).strict();
export const imeisBody = z.object({ imeis: imeiList }).strict();
export const followBody = z.object({ imeis: imeiList, follow: z.boolean() }).strict();
export const enableBody = z.object({ imeis: imeiList, enabled: z.boolean() }).strict();

export const basicBody = z.object({
  imei,
  deviceName: z.string().trim().min(1).max(50),
  sim: z.string().trim().max(20).regex(/^[0-9+]*$/),
  iccid: z.string().trim().max(22),
  imsi: z.string().trim().max(20),
  sn: z.string().trim().max(50),
  macAddress: z.string().trim().max(17),
  reMark: z.string().trim().max(500),
  applicationType: z.enum(APPLICATION_TYPES),
}).strict();

export const customerBody = z.object({
  imei,
  customer: customerFields,
  /** The user saw the VIN warning and chose to save anyway. */
  confirmVin: z.boolean().optional(),
}).strict();

export const alertsBody = z.object({ imei, alerts: alertFields }).strict();
export const sensorsBody = z.object({ imei, sensors: sensorFields }).strict();

const groupName = z.string().trim().min(1).max(20);
export const addGroupBody = z.object({ userId: accountId, name: groupName }).strict();
export const renameGroupBody = z.object({
  userId: accountId,
  groupId: z.string().min(1).max(20),
  name: groupName,
})
  .strict();
export const groupRefQuery = z.object({ userId: accountId, groupId: z.string().min(1).max(20) })
  .strict();
export const groupListBody = z.object({ userId: accountId }).strict();
export const setGroupBody = z.object({ imeis: imeiList, groupId: z.string().min(1).max(20) })
  .strict();

export const transferBody = z.object({ imeis: imeiList, targetUserId: accountId }).strict();

export const userExpiryBody = z.object({ imeis: imeiList, userExpiration: calendarDate }).strict();
export const platformExpiryBody = z.object({ imeis: imeiList, expiration: calendarDate })
  .strict();

export const appBindableBody = z.object({ imeis: imeiList, bindable: z.boolean() }).strict();
export const showExpiryBody = z.object({
  userId: accountId,
  show: z.union([z.literal(0), z.literal(1)]),
})
  .strict();
export const userRefBody = z.object({ userId: accountId }).strict();

export const bindBody = z.object({
  imei,
  appAccount: z.string().trim().min(3).max(50),
}).strict();

export const aliasBody = z.object({
  aliases: z.record(z.string().max(40), z.string().trim().max(30)),
}).strict();

export const statsBody = z.object({ userId: accountId.optional() }).strict();

const term = z.union([z.literal(3), z.literal(6), z.literal(12), z.literal(120)]);
const payWith = z.enum(["card", "coin", "point"]);

/** Renewal (spec §3 renewal terms): months 3, 6, 12 or 120; paid with cards or Mi coins. */
export const renewBody = z.object({ imeis: imeiList, term, payWith }).strict();

/** Auto renewal on (with its term and payment) or off. */
export const autoRenewBody = z.object({
  imeis: imeiList,
  autoRenew: z.object({ term, payWith }).strict().nullable(),
}).strict();
