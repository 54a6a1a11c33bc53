/** The auto report API's requests (strict objects: an unknown field is refused). */
import { z } from "zod";
import { REPORT_NAMES } from "../reports/model.ts";
import {
  AUTO_REPORT_FREQUENCIES,
  AUTO_REPORT_MAX_DEVICES,
  AUTO_REPORT_MAX_EMAILS,
  AUTO_REPORT_TIME_FIELDS,
} from "./model.ts";

const id = z.string().trim().min(1).max(64);
const imei = z.string().regex(/^\d{15}$/, "validation.imeiForm");

/** What add and update share; update names the record and may not change type or frequency. */
const fields = {
  name: z.string().trim().min(1).max(50),
  reportType: z.enum(REPORT_NAMES),
  frequency: z.enum(AUTO_REPORT_FREQUENCIES),
  executionTime: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "validation.timeForm"),
  userId: id.optional(),
  imeis: z.array(imei).max(AUTO_REPORT_MAX_DEVICES).default([]),
  mcType: z.string().trim().min(1).max(50).optional(),
  emails: z.array(z.email().max(100)).min(1).max(AUTO_REPORT_MAX_EMAILS),
  includeSubAccounts: z.boolean().default(false),
  batteryThreshold: z.number().int().min(0).max(100).optional(),
  timeField: z.enum(AUTO_REPORT_TIME_FIELDS).optional(),
  /** The report's own filters, checked by the report's schema (no devices, range or paging). */
  params: z.record(z.string().max(40), z.unknown()).default({}),
};

export const addBody = z.strictObject(fields);
export type AddBody = z.infer<typeof addBody>;

export const updateBody = z.strictObject({ id, ...fields });
export type UpdateBody = z.infer<typeof updateBody>;

export const idBody = z.strictObject({ id });

/** One auto report by `id`, or several by `ids`. */
export const deleteBody = z.strictObject({
  id: id.optional(),
  ids: z.array(id).min(1).max(100).optional(),
}).refine((b) => b.id !== undefined || b.ids !== undefined, {
  path: ["id"],
  message: "validation.required",
});

export const listBody = z.strictObject({});
