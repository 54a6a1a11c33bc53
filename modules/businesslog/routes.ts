import { z } from "zod";
import type { ApiRegistry } from "../../lib/http/api.ts";
import { XLSX_TYPE, xlsxAttachment } from "../../lib/http/attachment.ts";
import { pageFields } from "../accounts/schemas.ts";
import type { BusinessLog } from "./service.ts";

/** The services these routes use (the composition root passes them). */
export interface BusinessLogRouteDeps {
  businessLog: BusinessLog;
}

const isoTime = z.string().datetime({ offset: true });
const filter = {
  startTime: isoTime.optional(),
  endTime: isoTime.optional(),
  keyword: z.string().trim().max(50).optional(),
};
export const businessLogBody = z.object({ ...filter, ...pageFields }).strict();
export const businessLogExportBody = z.object(filter).strict();

export function registerBusinessLogRoutes(api: ApiRegistry, s: BusinessLogRouteDeps) {
  const tag = "Business log";
  api.add({
    method: "post",
    path: "/v3/new/businessLog/list",
    need: "read",
    tag,
    summary:
      "Business operations of the caller's subtree (who, action, target, detail, when, IP), newest first; kept 180 days",
    body: businessLogBody,
    handler: ({ body, c }) =>
      s.businessLog.page(c.var.session, body, (key, params) => c.var.t(key, params ?? {})),
  });
  api.add({
    method: "post",
    path: "/v3/new/businessLog/export",
    need: "read",
    tag,
    summary: "The filtered business log as xlsx (at most 30000 rows)",
    body: businessLogExportBody,
    produces: XLSX_TYPE,
    handler: async ({ body, c }) => {
      const bytes = await s.businessLog.export(
        c.var.session,
        body,
        (key, params) => c.var.t(key, params ?? {}),
      );
      return xlsxAttachment(bytes, "business-log.xlsx");
    },
  });
}
