import { z } from "zod";
import { accountId, pageFields } from "../accounts/schemas.ts";

export const creditsBalanceBody = z.object({ userId: accountId.optional() }).strict();

/** Either Mi coins to spend (as many whole credits as they buy) or a number of credits. */
export const creditsBuyBody = z.object({
  coins: z.number().positive().max(1_000_000).multipleOf(0.01).optional(),
  credits: z.number().int().min(1).max(100_000_000).optional(),
}).strict().refine((b) => (b.coins === undefined) !== (b.credits === undefined), {
  message: "validation.required",
  path: ["coins"],
});

export const creditsShareBody = z.object({ userId: accountId }).strict();

export const creditsLogBody = z.object({ userId: accountId.optional(), ...pageFields }).strict();
