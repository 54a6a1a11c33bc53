import { z } from "zod";
import { EXPORT_FORMATS, EXPORT_MAX_DEVICES, REPORT_NAMES } from "../model.ts";

/**
 * POST /v3/new/report/export. `params` is the report's own request: its shape is checked by
 * the report's schema when the export runs it; here only the devices it names (up to the
 * export's 1,000, queried 200 at a time) — every other field is passed through unchanged.
 */
export const exportBody = z.strictObject({
  report: z.enum(REPORT_NAMES),
  params: z.looseObject({
    imeis: z.array(z.string().trim().min(1).max(32)).min(1).max(EXPORT_MAX_DEVICES),
  }),
  format: z.enum(EXPORT_FORMATS),
  exportType: z.union([z.literal(0), z.literal(1)]).default(1),
});

export type ExportBody = z.infer<typeof exportBody>;
