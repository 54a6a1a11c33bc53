/** Request bodies of the motion rules API (strict: unknown fields are refused). */
import { z } from "zod";

/** Ranges of each threshold (docs/decisions.md "Motion analysis"); whole numbers. */
export const motionRulesChange = z.object({
  tripStartMeters: z.number().int().min(50).max(5000),
  stopRadiusMeters: z.number().int().min(20).max(5000),
  stopSeconds: z.number().int().min(30).max(3600),
  gapSeconds: z.number().int().min(300).max(86_400),
  overspeedKmh: z.number().int().min(10).max(300),
  overspeedMinSeconds: z.number().int().min(0).max(600),
}).partial().strict();

/** An account id of the caller's tree; absent: the caller's own (working) account. */
const account = z.string().min(1).max(64).optional();

export const motionRulesGetBody = z.object({ userId: account }).strict();

export const motionRulesSetBody = z.object({
  userId: account,
  rules: motionRulesChange,
}).strict();
