import { z } from "zod";
import { calendarDate, pageFields } from "../accounts/schemas.ts";
import { ALERT_TYPES, type AlertType } from "./types.ts";

const imei = z.string().regex(/^\d{15}$/, "validation.imeiForm");
export const alertType = z.enum(ALERT_TYPES as [AlertType, ...AlertType[]]);
const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "validation.timeForm");
const minutesOf = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3));

/** Spec §5 alarm thresholds, per device; null switches a check off. */
export const deviceSettingsBody = z.object({
  imei,
  overSpeed: z.number().int().min(1).max(300).nullable().default(null),
  /** Seconds over the limit before the alarm; multiple of 10, at most 600. */
  overSecond: z.number().int().min(10).max(600).multipleOf(10).nullable().default(null),
  minTemperature: z.number().min(-40).max(125).nullable().default(null),
  maxTemperature: z.number().min(-40).max(125).nullable().default(null),
  offlineMinutes: z.number().int().min(10).max(43_200).nullable().default(null),
  stayMinutes: z.number().int().min(1).max(43_200).nullable().default(null),
  mileageThreshold: z.number().min(1000).max(10_000_000).nullable().default(null),
  maintenanceThreshold: z.number().min(100).max(10_000_000).nullable().default(null),
  /** Current odometer (km) the mileage and maintenance thresholds count from. */
  currentMileage: z.number().min(0).max(100_000_000).nullable().default(null),
  accOnHours: z.number().int().min(50).max(100_000).nullable().default(null),
  /** ACC-on hours the device already has when the threshold is set. */
  currentAccOnHours: z.number().min(0).max(1_000_000).nullable().default(null),
  /** Reminder dates (message center types 7, 8, 9): the driver's licence, the vehicle's
   * insurance and the device's SIM card expire on these days (YYYY-MM-DD). */
  licenceExpiry: calendarDate.nullable().default(null),
  insuranceExpiry: calendarDate.nullable().default(null),
  simCardExpiry: calendarDate.nullable().default(null),
  nightRanges: z.array(
    z.object({ start: hhmm, end: hhmm }).strict()
      .refine((r) => minutesOf(r.end) > minutesOf(r.start), {
        message: "validation.nightRange",
        path: ["end"],
      }),
  ).max(3).default([]),
}).strict().superRefine((v, ctx) => {
  const pair = (a: keyof typeof v, b: keyof typeof v) => {
    if ((v[a] === null) !== (v[b] === null)) {
      ctx.addIssue({
        code: "custom",
        path: [v[a] === null ? a : b],
        message: "validation.pairRequired",
      });
    }
  };
  pair("overSpeed", "overSecond");
  if (
    v.minTemperature !== null && v.maxTemperature !== null && v.maxTemperature <= v.minTemperature
  ) {
    ctx.addIssue({ code: "custom", path: ["maxTemperature"], message: "validation.maxAboveMin" });
  }
  if (
    (v.mileageThreshold !== null || v.maintenanceThreshold !== null) && v.currentMileage === null
  ) {
    ctx.addIssue({ code: "custom", path: ["currentMileage"], message: "validation.pairRequired" });
  }
  pair("accOnHours", "currentAccOnHours");
});
export type DeviceAlertSettings = z.infer<typeof deviceSettingsBody> & { setAt?: number };

/** Per-account push settings: which types pop up / mail / call the webhook. */
export const accountSettingsBody = z.object({
  userId: z.string().max(64).optional(),
  pushTypes: z.array(alertType).max(ALERT_TYPES.length),
  popup: z.boolean(),
  sound: z.boolean(),
  /** Minutes in which a repeat of the same alarm of a device is not pushed (spec: 0-60, 30). */
  silenceMinutes: z.number().int().min(0).max(60),
  email: z.object({
    enabled: z.boolean(),
    address: z.string().trim().max(100).pipe(z.email()).or(z.literal("")),
    types: z.array(alertType).max(ALERT_TYPES.length),
  }).strict(),
  webhook: z.object({
    enabled: z.boolean(),
    url: z.string().trim().max(500).pipe(z.url({ protocol: /^https?$/ })).or(z.literal("")),
    /** Empty keeps the stored secret; a new one is generated on first enable. */
    secret: z.string().max(200).default(""),
    types: z.array(alertType).max(ALERT_TYPES.length),
  }).strict(),
  /** Alert SMS through the SMS gateway (SMS_URL), one credit each; absent: off. */
  sms: z.object({
    enabled: z.boolean(),
    phone: z.string().trim().regex(/^\+?[0-9-]{5,20}$/, "validation.phoneForm").or(z.literal("")),
    types: z.array(alertType).max(ALERT_TYPES.length),
  }).strict().optional(),
}).strict();
export type AccountAlertSettings = Omit<z.infer<typeof accountSettingsBody>, "userId">;

export const DEFAULT_ACCOUNT_SETTINGS: AccountAlertSettings = {
  pushTypes: [...ALERT_TYPES],
  popup: true,
  sound: true,
  silenceMinutes: 30,
  email: { enabled: false, address: "", types: [] },
  webhook: { enabled: false, url: "", secret: "", types: [] },
};

export const alertListBody = z.object({
  types: z.array(alertType).max(ALERT_TYPES.length).optional(),
  /** Spec: alert device filter up to 200 devices. */
  imeis: z.array(imei).max(200).optional(),
  userId: z.string().max(64).optional(),
  startTime: z.iso.datetime({ offset: true }).optional(),
  endTime: z.iso.datetime({ offset: true }).optional(),
  /** Spec read filter: all, 0 read, -1 unread. */
  read: z.union([z.literal("all"), z.literal(0), z.literal(-1)]).default("all"),
  processed: z.enum(["all", "processed", "unprocessed"]).default("all"),
  ...pageFields,
}).strict();

export const alertRef = z.object({
  imei,
  time: z.number().int().min(0),
  id: z.string().min(1).max(64),
}).strict();

export const processBody = alertRef.extend({
  handler: z.string().trim().min(1).max(50),
  content: z.string().trim().min(1).max(500),
}).strict();

export const markBody = z.object({
  alerts: z.array(alertRef).min(1).max(100),
  read: z.union([z.literal(0), z.literal(-1)]),
}).strict();
