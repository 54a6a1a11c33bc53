/** An automatic report's runs: when, what period, how it ended, and the file to download. */
import type { TFunction } from "i18next";
import { useEffect, useState } from "react";
import { api, ApiError } from "../../lib/client/api.ts";
import { formatTime } from "../../modules/monitor/time.ts";
import type { AutoReportRow, AutoReportRun } from "../../modules/autoreports/model.ts";
import { Modal } from "../ui/Modal.tsx";

export function HistoryDialog(
  { t, report, timeZone, onClose }: {
    t: TFunction;
    report: AutoReportRow;
    timeZone: string;
    onClose: () => void;
  },
) {
  const [runs, setRuns] = useState<AutoReportRun[] | null>(null);
  const [error, setError] = useState("");
  useEffect(() => {
    let live = true;
    const load = () =>
      api<{ list: AutoReportRun[] }>("/v3/new/autoReport/history", { id: report.id }).then(
        (r) => {
          if (!live) return;
          setRuns(r.list);
          // A run in progress: look again shortly.
          if (r.list.some((x) => x.status === "running")) setTimeout(load, 2000);
        },
        (e) => live && setError(e instanceof ApiError ? e.message : String(e)),
      );
    load();
    return () => {
      live = false;
    };
  }, [report.id]);
  const day = (ms: number) => formatTime(ms, timeZone, "YYYY-MM-DD");
  /** The period's first and last local day ("to" is exclusive); one day once. */
  const period = (r: AutoReportRun) => {
    const first = day(Date.parse(r.from)), last = day(Date.parse(r.to) - 1);
    return first === last ? first : `${first} – ${last}`;
  };
  return (
    <Modal
      title={t("autoReports.history.title", { name: report.name })}
      closeLabel={t("ui.close")}
      width={860}
      onClose={onClose}
    >
      {error && <p class="field-error">{error}</p>}
      <div class="table-wrap ar-history">
        <table class="data">
          <thead>
            <tr>
              <th>{t("autoReports.history.runAt")}</th>
              <th>{t("autoReports.history.period")}</th>
              <th>{t("autoReports.history.trigger")}</th>
              <th>{t("autoReports.history.status")}</th>
              <th class="num">{t("autoReports.history.rows")}</th>
              <th class="col-actions">{t("autoReports.history.file")}</th>
            </tr>
          </thead>
          <tbody>
            {runs?.map((r) => (
              <tr key={r.runAt + r.trigger} data-status={r.status} data-testid="ar-run">
                <td class="nowrap">{formatTime(Date.parse(r.runAt), timeZone)}</td>
                <td class="nowrap">{period(r)}</td>
                <td>{t(`autoReports.history.triggers.${r.trigger}`)}</td>
                <td>
                  <span class={`badge rp-status-${r.status}`}>
                    {t(`autoReports.statuses.${r.status}`)}
                  </span>
                  {r.error && (
                    <span class="ar-run-error" title={t(`errors.${r.error}`)}>
                      {t(`errors.${r.error}`)}
                    </span>
                  )}
                </td>
                <td class="num">{r.rows ?? "—"}</td>
                <td class="col-actions">
                  {r.taskId && r.fileName
                    ? (
                      <a
                        class="btn btn-primary ar-download"
                        href={`/v3/new/task/download?id=${encodeURIComponent(r.taskId)}`}
                        download={r.fileName}
                        title={r.fileName}
                      >
                        {t("autoReports.history.download")}
                      </a>
                    )
                    : <span class="muted">—</span>}
                </td>
              </tr>
            ))}
            {runs && !runs.length && (
              <tr class="empty-row">
                <td colSpan={6}>{t("autoReports.history.empty")}</td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
    </Modal>
  );
}
