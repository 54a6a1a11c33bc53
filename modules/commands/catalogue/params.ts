import { z } from "zod";

/** A typed instruction parameter, described once for validation (zod) and for the UI form. */
export type ParamDef =
  | { key: string; type: "int"; min: number; max: number; unit?: string; default?: number }
  | { key: string; type: "number"; min: number; max: number; unit?: string }
  | { key: string; type: "enum"; options: readonly string[]; default?: string }
  | { key: string; type: "phones"; max: number }
  | { key: string; type: "text"; max: number };

const PHONE = /^\+?\d{3,20}$/;

function fieldSchema(p: ParamDef): z.ZodType {
  switch (p.type) {
    case "int":
      return z.coerce.number().int().min(p.min).max(p.max);
    case "number":
      return z.coerce.number().min(p.min).max(p.max);
    case "enum":
      return z.enum(p.options as [string, ...string[]]);
    case "phones":
      // Blank slots clear a number on the device; at least one number must be given.
      return z.array(z.string().trim().regex(PHONE, "validation.phoneForm").or(z.literal("")))
        .max(p.max)
        .refine((a) => a.some((x) => x !== ""), "validation.required");
    case "text":
      // '#' ends a command frame in GT06/H02 text, so it may not appear inside one.
      return z.string().trim().min(1).max(p.max).regex(/^[\x20-\x7e]*$/, "validation.asciiOnly")
        .refine((s) => !s.includes("#") || s.endsWith("#"), "validation.invalid");
  }
}

/** The zod object for an instruction's parameters; unknown keys are refused. */
export function paramsSchema(params: readonly ParamDef[]) {
  return z.object(Object.fromEntries(params.map((p) => [p.key, fieldSchema(p)]))).strict();
}
