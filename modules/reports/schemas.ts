/**
 * The report API's requests (spec business §5 "Reports and queries"): every report takes the
 * devices (1-200 IMEIs), a UTC range and a page, plus its own filters. Strict objects: an
 * unknown field is refused, like everywhere in the API.
 */
import { z } from "zod";
import { alertType } from "../alerts/schemas.ts";
import { REPORT_MAX_DEVICES, type ReportName } from "./model.ts";
import { sensorReportBodies } from "./sensor_schemas.ts";

const imei = z.string().regex(/^\d{15}$/, "validation.imeiForm");
/** ISO-8601 with a zone (`Z` or an offset); the API answers in UTC. */
const isoTime = z.iso.datetime({ offset: true });

/** Report pages: any size up to 1,000 rows (the pages offer 10-100, the export reads 1,000). */
export const reportPaging = {
  pageNum: z.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.number().int().min(1).max(1_000).default(10),
};

const range = {
  imeis: z.array(imei).min(1).max(REPORT_MAX_DEVICES),
  startTime: isoTime,
  endTime: isoTime,
};

const base = { ...range, ...reportPaging };

/** Spec "Positioning filter": all, gps, lbs, wifi, beacon. */
export const POSITIONING = ["all", "gps", "lbs", "wifi", "beacon"] as const;
export type Positioning = typeof POSITIONING[number];

/** Spec read filter (all, 0 read, -1 unread); true/false are read/unread too. */
const readFilter = z.union([z.literal("all"), z.literal(0), z.literal(-1), z.boolean()]);

export const REPORT_BODIES = {
  trips: z.object(base).strict(),
  parking: z.object(base).strict(),
  idling: z.object(base).strict(),
  mileage: z.object({ ...base, view: z.enum(["day", "segment"]).default("day") }).strict(),
  overspeed: z.object({ ...base, speedLimit: z.number().min(1).max(400).optional() }).strict(),
  ignition: z.object(base).strict(),
  online: z.object(base).strict(),
  offline: z.object(base).strict(),
  geoRegion: z.object(base).strict(),
  alertDetails: z.object({
    ...base,
    alertType: alertType.optional(),
    read: readFilter.default("all"),
  }).strict(),
  alertStatistics: z.object({ ...base, alertType: alertType.optional() }).strict(),
  trackDetails: z.object({ ...base, positioning: z.enum(POSITIONING).default("all") }).strict(),
  vehicleStatus: z.object(base).strict(),
  ...sensorReportBodies(base),
} satisfies Record<ReportName, z.ZodType>;

export type ReportBody<N extends ReportName> = z.infer<typeof REPORT_BODIES[N]>;
export type AnyReportBody = ReportBody<ReportName>;

/** The device overview: the caller's whole tree, or the subtree of one visible account. */
export const deviceOverviewBody = z.object({ userId: z.string().min(1).max(64).optional() })
  .strict();

/**
 * The moving and alert overviews: a range over named devices (1-200), or over every device
 * of the caller's tree when `imeis` is left out.
 */
export const rangeOverviewBody = z.object({
  imeis: range.imeis.optional(),
  startTime: isoTime,
  endTime: isoTime,
}).strict();
export type RangeOverviewBody = z.infer<typeof rangeOverviewBody>;
