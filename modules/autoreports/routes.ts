/** The auto report API (/v3/new/autoReport/*): the caller's own automatic reports. */
import type { ApiRegistry } from "../../lib/http/api.ts";
import type { AutoReportRuns } from "./runs.ts";
import { addBody, deleteBody, idBody, listBody, updateBody } from "./schemas.ts";
import type { AutoReportService } from "./service.ts";

/** The services these routes use (the composition root passes them). */
export interface AutoReportRouteDeps {
  autoReports: AutoReportService;
  autoReportRuns: Pick<AutoReportRuns, "runNow">;
}

export function registerAutoReportRoutes(api: ApiRegistry, s: AutoReportRouteDeps) {
  const tag = "Automatic reports";
  const base = "/v3/new/autoReport";
  api.add({
    method: "post",
    path: `${base}/list`,
    need: "viewReports",
    tag,
    summary: "The caller's own automatic reports with their last run",
    body: listBody,
    handler: ({ c }) => s.autoReports.list(c.var.session),
  });
  api.add({
    method: "post",
    path: `${base}/add`,
    need: "viewReports",
    tag,
    summary:
      "Add an automatic report: a report (REPORT_NAMES) mailed as xlsx daily, on Mondays or on the 1st at executionTime (HH:mm, the caller's zone) for the period before; ≤ 200 devices (imeis, or mcType of userId's devices); one per report type",
    body: addBody,
    handler: ({ body, c }) => s.autoReports.add(c.var.session, body),
  });
  api.add({
    method: "post",
    path: `${base}/update`,
    need: "viewReports",
    tag,
    summary: "Change an automatic report; its reportType and frequency cannot change",
    body: updateBody,
    handler: ({ body, c }) => s.autoReports.update(c.var.session, body),
  });
  api.add({
    method: "post",
    path: `${base}/delete`,
    need: "viewReports",
    tag,
    summary: "Delete automatic reports (their files stay in the task centre until they expire)",
    body: deleteBody,
    handler: ({ body, c }) =>
      s.autoReports.delete(c.var.session, [
        ...(body.id ? [body.id] : []),
        ...(body.ids ?? []),
      ]),
  });
  api.add({
    method: "post",
    path: `${base}/history`,
    need: "viewReports",
    tag,
    summary: "An automatic report's runs, newest first (the last 50): status, file and task id",
    body: idBody,
    handler: ({ body, c }) => s.autoReports.history(c.var.session, body.id),
  });
  api.add({
    method: "post",
    path: `${base}/runNow`,
    need: "viewReports",
    tag,
    summary:
      "Run an automatic report now for its latest period and mail it; data {taskId}: the file from /v3/new/task/download",
    body: idBody,
    handler: async ({ body, c }) =>
      s.autoReportRuns.runNow(c.var.session, await s.autoReports.own(c.var.session, body.id)),
  });
}
