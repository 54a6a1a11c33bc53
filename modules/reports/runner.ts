/**
 * The ReportRunner the export and the task centre use: a report's own request checked by its
 * schema (paging fields ignored), then the same query as the API route, in the language of
 * the account that asked (addresses are written in it).
 */
import { zodRefusal } from "../../lib/http/validation.ts";
import type { Session } from "../../lib/http/env.ts";
import { normalizeLang } from "../../lib/i18n/i18n.ts";
import type { AccountLookup } from "../accounts/model.ts";
import type { ReportName } from "./model.ts";
import { REPORT_BODIES } from "./schemas.ts";
import type { ReportService } from "./service.ts";
import type { ReportPage, ReportRunner } from "./types.ts";

export class SessionReportRunner implements ReportRunner {
  constructor(
    private readonly d: { reports: Pick<ReportService, "run">; accounts: AccountLookup },
  ) {}

  async run(
    session: Session,
    report: ReportName,
    params: unknown,
    page: { pageNum: number; pageSize: number },
  ): Promise<ReportPage> {
    const request = params && typeof params === "object" && !Array.isArray(params)
      ? { ...params as Record<string, unknown>, pageNum: undefined, pageSize: undefined }
      : params;
    const parsed = REPORT_BODIES[report].safeParse(request);
    if (!parsed.success) throw zodRefusal(parsed.error);
    const lang = normalizeLang((await this.d.accounts.get(session.accountId))?.language);
    return await this.d.reports.run(session, lang, report, parsed.data, page);
  }
}
