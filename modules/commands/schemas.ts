import { z } from "zod";
import { pageFields } from "../accounts/schemas.ts";
import { INSTRUCTION_CODES } from "./catalogue/index.ts";
import { COMMAND_STATUSES } from "./store.ts";

export const imei = z.string().trim().regex(/^\d{15}$/, "validation.imeiForm");
export const instructionCode = z.enum(INSTRUCTION_CODES);
/** Parameters are checked against the instruction's own schema in the catalogue. */
export const params = z.record(z.string(), z.unknown()).default({});
export const sendType = z.enum(["online", "offline"]);
/** Up to 1000 devices per batch, like the other batch operations (spec §5). */
export const MAX_BATCH = 1000;

export const instructionBody = {
  code: instructionCode,
  params,
  sendType,
  /** Confirms replacing a pending offline command. */
  replace: z.boolean().default(false),
  /** Login password, for instructions the model protects. */
  password: z.string().max(64).optional(),
};

export const sendInstructionBody = z.object({ imei, ...instructionBody }).strict();

export const batchSendBody = z.object({
  imeis: z.array(imei).min(1, "validation.required").max(MAX_BATCH),
  ...instructionBody,
}).strict();

export const TEMPLATE_LIMIT = 5;
export const templateBody = z.object({
  id: z.string().max(40).optional(),
  name: z.string().trim().min(1).max(20),
  code: instructionCode,
  params,
}).strict();

const time = z.string().datetime({ offset: true });
export const statusFilter = {
  imei: z.string().trim().regex(/^\d{1,15}$/, "validation.imeiForm").optional(),
  status: z.enum(COMMAND_STATUSES).optional(),
  sendType: sendType.optional(),
  batchNo: z.string().trim().max(40).optional(),
  startTime: time.optional(),
  endTime: time.optional(),
};
export const statusBody = z.object({ ...statusFilter, ...pageFields }).strict();
export const exportQuery = z.object({
  ...statusFilter,
  lang: z.enum(["en", "zh"]).default("en"),
  /** xlsx unless csv is asked for. */
  format: z.enum(["xlsx", "csv"]).default("xlsx"),
}).strict();
