import { useMemo, useState } from "react";
import { island } from "../../lib/islands/island.tsx";
import { type Lang, translator } from "../../lib/i18n/i18n.ts";
import { api, ApiError } from "../../lib/client/api.ts";
import { toast, Toasts } from "../../components/ui/Toast.tsx";
import { LoadError, useListPage } from "../../components/fleet/list_data.tsx";
import type { AccountRef } from "../../components/accounts/types.ts";
import { AutoReportForm } from "../../components/autoreports/AutoReportForm.tsx";
import { HistoryDialog } from "../../components/autoreports/HistoryDialog.tsx";
import { formatTime } from "../../modules/monitor/time.ts";
import type { AutoReportRow } from "../../modules/autoreports/model.ts";

type T = ReturnType<typeof translator>;
const messageOf = (e: unknown) => e instanceof ApiError ? e.message : String(e);

/**
 * /autoReports: the caller's automatic reports — add, edit (type and frequency fixed), run now,
 * the history of runs with their files, delete.
 */
function AutoReports({ lang, root, timeZone }: { lang: Lang; root: AccountRef; timeZone: string }) {
  const t = useMemo(() => translator(lang), [lang]);
  const [editing, setEditing] = useState<AutoReportRow | null | "new">(null);
  const [history, setHistory] = useState<AutoReportRow | null>(null);
  const { data, error, load } = useListPage<AutoReportRow>("/v3/new/autoReport/list", {}, []);
  if (error) return <LoadError message={error} />;
  const act = async (path: string, r: AutoReportRow, done: string) => {
    try {
      await api(`/v3/new/autoReport/${path}`, { id: r.id });
      toast(done);
      load();
    } catch (e) {
      toast(messageOf(e), "error");
    }
  };
  const remove = (r: AutoReportRow) => {
    if (confirm(t("autoReports.confirmDelete", { name: r.name }))) {
      void act("delete", r, t("autoReports.deleted"));
    }
  };
  return (
    <div class="ar-page">
      <div class="ar-bar">
        <button type="button" class="btn btn-primary" id="ar-add" onClick={() => setEditing("new")}>
          + {t("autoReports.add")}
        </button>
        <button type="button" class="btn" onClick={load}>{t("autoReports.refresh")}</button>
      </div>
      <section class="panel">
        <div class="table-wrap">
          <table class="data ar-table">
            <thead>
              <tr>
                {[
                  "name",
                  "reportType",
                  "frequency",
                  "devices",
                  "emails",
                  "lastRun",
                ]
                  .map((k) => <th key={k}>{t(`autoReports.columns.${k}`)}</th>)}
                <th class="col-actions">{t("autoReports.columns.actions")}</th>
              </tr>
            </thead>
            <tbody>
              {data?.list.map((r) => (
                <ReportRow
                  key={r.id}
                  t={t}
                  r={r}
                  timeZone={timeZone}
                  edit={() => setEditing(r)}
                  showHistory={() => setHistory(r)}
                  runNow={() => act("runNow", r, t("autoReports.started"))}
                  remove={() => remove(r)}
                />
              ))}
              {data && !data.list.length && (
                <tr class="empty-row">
                  <td colSpan={7}>{t("autoReports.empty")}</td>
                </tr>
              )}
            </tbody>
          </table>
        </div>
      </section>
      {editing && (
        <AutoReportForm
          t={t}
          editing={editing === "new" ? null : editing}
          taken={data?.list.map((r) => r.reportType) ?? []}
          root={root}
          timeZone={timeZone}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            toast(t("autoReports.saved"));
            load();
          }}
        />
      )}
      {history && (
        <HistoryDialog
          t={t}
          report={history}
          timeZone={timeZone}
          onClose={() => setHistory(null)}
        />
      )}
      <Toasts />
    </div>
  );
}

function ReportRow(
  { t, r, timeZone, edit, showHistory, runNow, remove }: {
    t: T;
    r: AutoReportRow;
    timeZone: string;
    edit: () => void;
    showHistory: () => void;
    runNow: () => void;
    remove: () => void;
  },
) {
  const devices = r.mcType
    ? t("autoReports.modelOf", { model: r.mcType }) +
      (r.includeSubAccounts ? ` · ${t("autoReports.withSubAccounts")}` : "")
    : t("autoReports.devicesOf", { count: r.imeis.length });
  return (
    <tr data-testid="ar-row" data-id={r.id} data-type={r.reportType}>
      <td class="ar-name" data-label={t("autoReports.columns.name")}>{r.name}</td>
      <td data-label={t("autoReports.columns.reportType")}>{t(`reports.names.${r.reportType}`)}</td>
      <td class="nowrap" data-label={t("autoReports.columns.frequency")}>
        {t(`autoReports.frequencies.${r.frequency}`)} · {r.executionTime}
      </td>
      <td class="ar-dev-cell" data-label={t("autoReports.columns.devices")}>{devices}</td>
      <td
        class="ar-emails"
        data-label={t("autoReports.columns.emails")}
        title={r.emails.join(", ")}
      >
        {r.emails.join(", ")}
      </td>
      <td class="ar-last" data-label={t("autoReports.columns.lastRun")}>
        {r.lastRunAt
          ? (
            <>
              {formatTime(Date.parse(r.lastRunAt), timeZone, "YYYY-MM-DD HH:mm")}{" "}
              <span class={`badge rp-status-${r.lastStatus}`}>
                {t(`autoReports.statuses.${r.lastStatus}`)}
              </span>
            </>
          )
          : <span class="muted">{t("autoReports.never")}</span>}
      </td>
      <td class="col-actions ar-actions">
        <button type="button" class="btn btn-primary ar-run" onClick={runNow}>
          {t("autoReports.actions.runNow")}
        </button>
        <button type="button" class="btn ar-history-btn" onClick={showHistory}>
          {t("autoReports.actions.history")}
        </button>
        <button type="button" class="btn ar-edit" onClick={edit}>
          {t("autoReports.actions.edit")}
        </button>
        <button type="button" class="btn btn-danger ar-delete" onClick={remove}>
          {t("autoReports.actions.delete")}
        </button>
      </td>
    </tr>
  );
}

export default island("autoreports/AutoReports", AutoReports);
