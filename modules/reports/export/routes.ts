/** POST /v3/new/report/export: a report as xlsx, csv or pdf — the file, or a task id. */
import type { ApiRegistry } from "../../../lib/http/api.ts";
import { contentDisposition } from "../../tasks/routes.ts";
import { exportBody } from "./schemas.ts";
import type { ReportExport } from "./service.ts";

/** The services these routes use (the composition root passes them). */
export interface ExportRouteDeps {
  reportExport: ReportExport;
}

export function registerExportRoutes(api: ApiRegistry, s: ExportRouteDeps) {
  api.add({
    method: "post",
    path: "/v3/new/report/export",
    need: "viewReports",
    tag: "Reports",
    summary:
      "A report as xlsx, csv or pdf in the caller's units, zone and language: the file for ≤ 200 devices and ≤ 5000 rows, else data {taskId} (task centre); ≤ 1000 devices, ≤ 5000 rows (30000 with OpenStreetMap), the file says where it cut",
    body: exportBody,
    produces: "application/octet-stream",
    handler: async ({ body, c }) => {
      const answer = await s.reportExport.request(c.var.session, c.var.lang, body);
      if ("taskId" in answer) return { taskId: answer.taskId };
      const { file } = answer;
      return new Response(file.bytes as Uint8Array<ArrayBuffer>, {
        headers: {
          "content-type": file.contentType,
          "content-disposition": contentDisposition(file.fileName),
          "cache-control": "private, no-store",
        },
      });
    },
  });
}
