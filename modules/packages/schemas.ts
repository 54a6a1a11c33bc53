import { z } from "zod";
import { CURRENCIES, PACKAGE_MONTHS } from "./model.ts";

/** Any short string: an id that is not one of the caller's answers like an unknown one. */
const packageId = z.string().trim().min(1).max(64);

export const packageFields = z.object({
  name: z.string().trim().min(1).max(50),
  price: z.number().min(0).max(1_000_000).multipleOf(0.01),
  currency: z.enum(CURRENCIES),
  months: z.union(PACKAGE_MONTHS.map((m) => z.literal(m)) as [
    z.ZodLiteral<0>,
    z.ZodLiteral<3>,
    z.ZodLiteral<6>,
    z.ZodLiteral<12>,
    z.ZodLiteral<120>,
  ]),
  smsCount: z.number().int().min(0).max(1_000_000),
  coins: z.number().min(0).max(1_000_000).multipleOf(0.01),
  discount: z.number().min(0.01).max(1).multipleOf(0.01),
}).strict();

export const addPackageBody = packageFields;
export const updatePackageBody = packageFields.extend({ id: packageId }).strict();
export const packageIdBody = z.object({ id: packageId }).strict();
export const listPackagesBody = z.object({}).strict();
