/**
 * What the export and the task centre use of the report area: run a report as a user, with
 * the same checks as its API route (visibility, ranges, the viewReports need is the route's).
 */
import type { Session } from "../../lib/http/env.ts";
import type { ReportName } from "./model.ts";

/** One page of a report: rows carry `imei`; values in km, km/h, seconds, ISO-8601 UTC. */
export interface ReportPage {
  total: number;
  list: Record<string, unknown>[];
}

export interface ReportRunner {
  /**
   * Runs `report` with its own request body (`params`, validated here by the report's
   * schema; paging fields in it are ignored) and answers the page asked for. Throws the
   * catalogue's errors (ApiError) like the API route.
   */
  run(
    session: Session,
    report: ReportName,
    params: unknown,
    page: { pageNum: number; pageSize: number },
  ): Promise<ReportPage>;
}
