import { z } from "zod";
import type { ApiRegistry } from "../../lib/http/api.ts";
import { REPORT_NAMES } from "./model.ts";
import type { MyReports } from "./my_reports.ts";

/** The services these routes use (the composition root passes them). */
export interface MyReportRouteDeps {
  myReports: MyReports;
}

/** The user's own report list on /reportList (spec §2: /addReport adds to it). */
export function registerMyReportRoutes(api: ApiRegistry, s: MyReportRouteDeps) {
  const tag = "Reports";
  api.add({
    method: "post",
    path: "/v3/new/report/myReports/get",
    need: "viewReports",
    tag,
    summary: "The caller's own report list (report names, in the order added)",
    body: z.object({}).strict(),
    handler: async ({ c }) => ({ list: await s.myReports.list(c.var.session) }),
  });
  api.add({
    method: "post",
    path: "/v3/new/report/myReports/set",
    need: "viewReports",
    tag,
    summary: "Replace the caller's own report list (names of existing reports)",
    body: z.object({
      list: z.array(z.enum(REPORT_NAMES)).max(REPORT_NAMES.length * 2),
    }).strict(),
    handler: async ({ body, c }) => ({
      list: await s.myReports.save(c.var.session, body.list),
    }),
  });
}
