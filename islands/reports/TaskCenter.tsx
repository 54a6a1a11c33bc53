import { island } from "../../lib/islands/island.tsx";
import { type Lang, translator } from "../../lib/i18n/i18n.ts";
import { api } from "../../lib/client/api.ts";
import { Toasts } from "../../components/ui/Toast.tsx";
import { DataTable } from "../../components/commands/DataTable.tsx";
import { usePaged } from "../../components/commands/usePaged.ts";
import { formatTime } from "../../modules/monitor/time.ts";
import { EXPORT_KEEP_DAYS, type TaskRow, type TaskStatus } from "../../modules/reports/model.ts";

/** Task types the filter offers: report exports and automatic report runs. */
const TYPES = ["report", "autoReport"] as const;

function Progress({ t, row }: { t: (k: string) => string; row: TaskRow }) {
  const pct = row.status === "done" ? 100 : Math.max(0, Math.min(100, Math.round(row.progress)));
  return (
    <div
      class={`rp-progress rp-progress-${row.status}`}
      role="progressbar"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={pct}
      aria-label={t("reports.tasks.progress")}
    >
      <span style={{ width: `${pct}%` }} />
      <b>{pct}%</b>
    </div>
  );
}

const STATUS_CLASS: Record<TaskStatus, string> = {
  running: "rp-status-running",
  done: "rp-status-done",
  failed: "rp-status-failed",
};

/**
 * /task: the download centre. The caller's background exports, newest first, refreshed every
 * 2 s while one runs; a finished one downloads its file (kept 7 days).
 */
function TaskCenter({ lang, type, timeZone }: { lang: Lang; type: string; timeZone: string }) {
  const t = translator(lang);
  const filter = (TYPES as readonly string[]).includes(type) ? type : "";
  const { rows, loading, paging, reload } = usePaged<TaskRow>(
    (page) => api("/v3/new/task/list", { ...page, ...(filter ? { type: filter } : {}) }),
    [filter],
    { pollWhile: (list) => list.some((r) => r.status === "running"), pollMs: 2000 },
  );
  return (
    <div class="rp-tasks">
      <div class="rp-tasks-bar">
        <div class="rp-quick" role="group" aria-label={t("reports.tasks.type")}>
          {["", ...TYPES].map((k) => (
            <a
              key={k}
              class={`rp-quick-btn${filter === k ? " active" : ""}`}
              href={k ? `/task?type=${k}` : "/task"}
              aria-current={filter === k ? "page" : undefined}
            >
              {t(`reports.tasks.types.${k || "all"}`)}
            </a>
          ))}
        </div>
        <span class="field-hint">{t("reports.tasks.kept", { days: EXPORT_KEEP_DAYS })}</span>
        <button type="button" class="btn" onClick={reload}>{t("reports.tasks.refresh")}</button>
      </div>
      <section class="panel">
        <DataTable
          t={t}
          columns={6}
          loading={loading}
          empty={t("reports.tasks.empty")}
          count={rows.length}
          class="rp-task-table"
          paging={paging}
          head={
            <>
              <th>{t("reports.tasks.name")}</th>
              <th>{t("reports.tasks.type")}</th>
              <th>{t("reports.tasks.createdAt")}</th>
              <th>{t("reports.tasks.status")}</th>
              <th class="rp-progress-col">{t("reports.tasks.progress")}</th>
              <th class="col-actions">{t("reports.tasks.file")}</th>
            </>
          }
        >
          {rows.map((r) => (
            <tr key={r.id} data-task={r.id} data-status={r.status}>
              <td class="rp-task-name">{r.name}</td>
              <td class="rp-task-type">
                {t(`reports.tasks.types.${r.type}`, { defaultValue: r.type })}
              </td>
              <td class="nowrap rp-task-created">
                {formatTime(Date.parse(r.createdAt), timeZone)}
              </td>
              <td class="rp-task-status">
                <span class={`badge ${STATUS_CLASS[r.status]}`}>
                  {t(`reports.tasks.statuses.${r.status}`)}
                </span>
              </td>
              <td class="rp-progress-col">
                <Progress t={t} row={r} />
              </td>
              <td class="col-actions">
                {r.status === "done" && r.fileName
                  ? (
                    <a
                      class="btn btn-primary rp-download"
                      href={`/v3/new/task/download?id=${encodeURIComponent(r.id)}`}
                      download={r.fileName}
                      title={r.fileName}
                    >
                      {t("reports.tasks.download")}
                    </a>
                  )
                  : <span class="muted">—</span>}
              </td>
            </tr>
          ))}
        </DataTable>
      </section>
      <Toasts />
    </div>
  );
}

export default island("reports/TaskCenter", TaskCenter);
