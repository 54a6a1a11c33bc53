import { useEffect, useMemo } from "react";
import { island } from "../../lib/islands/island.tsx";
import { type Lang, translator } from "../../lib/i18n/i18n.ts";
import { Toasts } from "../../components/ui/Toast.tsx";
import type { AccountRef } from "../../components/accounts/types.ts";
import type { UserUnits } from "../../components/reports/format.ts";
import type { ReportName } from "../../modules/reports/model.ts";
import { createReportState } from "../../components/reports/report_state.ts";
import { nameDevices, runReport } from "../../components/reports/report_actions.ts";
import { ReportForm } from "../../components/reports/ReportForm.tsx";
import { ReportResult } from "../../components/reports/ReportResult.tsx";

interface Props {
  lang: Lang;
  report: ReportName;
  units: UserUnits;
  /** The device picker's tree root: the account the user works in. */
  root: AccountRef;
  /** From the page's query (spec §2: imei, startTime, endTime). */
  imeis: string[];
  startTime: string;
  endTime: string;
}

/**
 * /new/{report}: one page for every report, driven by its columns (REPORT_COLUMNS). Opened
 * with devices in the query it runs at once. State: components/reports/report_state.ts.
 */
function ReportPage(p: Props) {
  const s = useMemo(
    () => createReportState(translator(p.lang), { ...p }, Date.now()),
    [],
  );
  useEffect(() => {
    if (!p.imeis.length) return;
    void nameDevices(s, p.imeis);
    runReport(s);
  }, []);
  return (
    <div class="rp-body">
      <ReportForm s={s} root={p.root} />
      <ReportResult s={s} />
      <Toasts />
    </div>
  );
}

export default island("reports/ReportPage", ReportPage);
