/** Links from sensor report rows: an OBD trip opens its details page. */
import type { ReportName } from "../../../modules/reports/model.ts";
import type { ReportRow } from "../report_state.ts";

export function detailHref(report: ReportName): ((row: ReportRow) => string | null) | null {
  if (report !== "obdTrip") return null;
  return (row) =>
    typeof row.id === "string" ? `/new/OBDTripReportInfo/${encodeURIComponent(row.id)}` : null;
}
