import { z } from "zod";
import { accountId, pageFields } from "../accounts/schemas.ts";
import { CARD_CODE_PATTERN, CARD_TYPES, TERMS } from "./model.ts";

const cardCounts = z.object(
  Object.fromEntries(CARD_TYPES.map((c) => [c, z.number().int().min(0).max(100000).optional()])),
).strict();

export const balanceBody = z.object({ userId: accountId.optional() }).strict();

export const allocateBody = z.object({
  targetUserId: accountId,
  /** Mi coins, two decimals at most. */
  coins: z.number().min(0).max(1_000_000).multipleOf(0.01).optional(),
  cards: cardCounts.optional(),
}).strict();

export const ledgerBody = z.object({ userId: accountId.optional(), ...pageFields }).strict();

const price = z.number().positive().max(100000).multipleOf(0.01);
export const setRateBody = z.object({
  mcType: z.string().trim().min(1).max(40),
  /** null removes the model's rate: its devices cannot be renewed until one is set. */
  rate: z.object({
    option: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]),
    prices: z.object(Object.fromEntries(TERMS.map((t) => [String(t), price.optional()])))
      .strict(),
  }).strict().nullable(),
}).strict();

const isoTime = z.string().datetime({ offset: true });
const logFilter = {
  view: z.enum(["consumption", "allocation", "business"]),
  userId: accountId.optional(),
  startTime: isoTime.optional(),
  endTime: isoTime.optional(),
};
export const logBody = z.object({ ...logFilter, ...pageFields }).strict();
export const logExportBody = z.object(logFilter).strict();

export const redeemBody = z.object({
  code: z.string().trim().regex(CARD_CODE_PATTERN),
  type: z.enum(CARD_TYPES),
}).strict();

export const codeListBody = z.object({ used: z.boolean().optional(), ...pageFields }).strict();

export const codeImportForm = z.object({
  type: z.enum(CARD_TYPES),
  file: z.file().describe("Codes: .xlsx (first column) or text/CSV (first field of each line)"),
});
