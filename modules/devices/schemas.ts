import { z } from "zod";
import { accountId, pageFields } from "../accounts/schemas.ts";

export const importBody = z.object({
  userId: accountId,
  mcType: z.string().trim().min(1).max(40),
  /** Checked one by one in the service, so one bad IMEI does not refuse the others. */
  imeis: z.array(z.string().max(40)).min(1).max(1000),
}).strict();

export const listBody = z.object({
  ...pageFields,
  /** Whose subtree; defaults to the caller's account. */
  userId: accountId.optional(),
  /** Only the account's own devices, not its sub-accounts'. */
  ownOnly: z.boolean().optional(),
  /** IMEI (5-15 digits, matches anywhere) or device name. */
  keyword: z.string().trim().max(50).optional(),
  /** Spec status filter: 1 moving, 2 idling, 3 stopped, 4 offline. */
  status: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]).optional(),
  mcType: z.string().trim().max(40).optional(),
}).strict();
