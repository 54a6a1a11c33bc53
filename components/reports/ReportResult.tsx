import { useState } from "react";
import { PagerFor } from "../ui/Pagination.tsx";
import { toast } from "../ui/Toast.tsx";
import { EXPORT_FORMATS, type ExportFormat } from "../../modules/reports/model.ts";
import { columnsFor } from "./filters.ts";
import { PrintPreview } from "./PrintPreview.tsx";
import { ReportTable } from "./ReportTable.tsx";
import type { ReportState } from "./report_state.ts";
import { exportReport, loadPage } from "./report_actions.ts";
import { SensorParts } from "./sensor/SensorParts.tsx";
import { detailHref } from "./sensor/links.ts";

/** Export buttons: the file downloads, or the export runs in the task centre (big ones). */
function ExportBar({ s }: { s: ReportState }) {
  const { t } = s;
  const [busy, setBusy] = useState<ExportFormat | null>(null);
  const [exportType, setExportType] = useState<0 | 1>(1);
  const [task, setTask] = useState(false);
  const run = async (format: ExportFormat) => {
    setBusy(format);
    setTask(false);
    try {
      const out = await exportReport(s.report, s.query.value!, format, exportType);
      if (out.kind === "task") setTask(true);
      else toast(t("reports.exportBar.saved", { name: out.fileName }));
    } catch (e) {
      toast((e as Error).message || t("errors.systemBusy"), "error");
    } finally {
      setBusy(null);
    }
  };
  return (
    <div class="rp-export">
      <select
        aria-label={t("reports.exportBar.type")}
        name="exportType"
        value={exportType}
        onChange={(e) => setExportType(Number((e.target as HTMLSelectElement).value) as 0 | 1)}
      >
        <option value={1}>{t("reports.exportBar.direct")}</option>
        <option value={0}>{t("reports.exportBar.byAccount")}</option>
      </select>
      {EXPORT_FORMATS.map((f) => (
        <button
          key={f}
          type="button"
          class="btn"
          data-export={f}
          disabled={busy !== null}
          onClick={() => run(f)}
        >
          {busy === f ? t("reports.exportBar.running") : t(`reports.exportBar.${f}`)}
        </button>
      ))}
      {task && (
        <p class="rp-task-note" role="status" data-testid="export-task">
          {t("reports.exportBar.task")}{" "}
          <a href="/task?type=report">{t("reports.exportBar.toTasks")}</a>
        </p>
      )}
    </div>
  );
}

/** What the page says instead of rows: before the first run, while loading, or nothing found. */
function EmptyState({ s }: { s: ReportState }) {
  const { t } = s;
  const text = !s.query.value
    ? t("reports.table.idle")
    : s.loading.value
    ? t("reports.table.loading")
    : t("reports.table.empty");
  return (
    <div class="empty rp-empty" data-testid="report-empty">
      <span class="empty-icon" aria-hidden="true">
        <svg viewBox="0 0 24 24" width="40" height="40">
          <path
            d="M4 20V10M10 20V4M16 20v-7M22 20H2"
            fill="none"
            stroke="currentColor"
            stroke-width="1.8"
            stroke-linecap="round"
          />
        </svg>
      </span>
      <p>{text}</p>
    </div>
  );
}

/** Every chosen device lacks the report's sensor: the notice says so, no empty table. */
const allUnsupported = (s: ReportState) => {
  const a = s.answer.value as { unsupported?: string[] } | null;
  return !!a?.unsupported?.length && a.unsupported.length >= (s.query.value?.imeis.length ?? 0);
};

/** The answer: count, print and export, the table with totals and paging. */
export function ReportResult({ s }: { s: ReportState }) {
  const { t } = s;
  const [printing, setPrinting] = useState(false);
  const answer = s.answer.value;
  const query = s.query.value;
  const columns = columnsFor(s.report, query ?? {});
  const rows = answer?.list ?? [];
  const ignitionUnknown = s.report === "parking" && rows.some((r) => r.acc === null);
  return (
    <section class="panel rp-result" aria-busy={s.loading.value}>
      <div class="rp-result-head">
        <h2>
          {t("reports.table.results")}
          {answer && query && (
            <span class="badge" data-testid="report-total">
              {t("reports.table.count", { count: answer.total })}
            </span>
          )}
        </h2>
        {query && answer && answer.total > 0 && (
          <div class="rp-actions">
            <button type="button" class="btn" id="report-print" onClick={() => setPrinting(true)}>
              {t("reports.print.open")}
            </button>
            <ExportBar s={s} />
          </div>
        )}
      </div>
      {ignitionUnknown && (
        <p class="rp-note" data-testid="ignition-unknown">{t("reports.table.ignitionUnknown")}</p>
      )}
      <SensorParts s={s} />
      {rows.length
        ? (
          <div class={`table-wrap${s.loading.value ? " is-loading" : ""}`}>
            <ReportTable
              t={t}
              fmt={s.fmt}
              columns={columns}
              rows={rows}
              showTotals
              links
              detail={detailHref(s.report)}
              offset={(s.page.value.pageNum - 1) * s.page.value.pageSize}
              partial={(answer?.total ?? 0) > rows.length}
            />
          </div>
        )
        : !allUnsupported(s) && <EmptyState s={s} />}
      {answer && (
        <PagerFor
          t={t}
          total={answer.total}
          page={s.page.value}
          setPage={(p) => {
            s.page.value = p;
            void loadPage(s);
          }}
        />
      )}
      {printing && <PrintPreview s={s} columns={columns} onClose={() => setPrinting(false)} />}
    </section>
  );
}
