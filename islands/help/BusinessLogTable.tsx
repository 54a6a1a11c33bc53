import { useEffect, useState } from "react";
import dayjs from "dayjs";
import { island } from "../../lib/islands/island.tsx";
import { api, ApiError } from "../../lib/client/api.ts";
import { type Lang, translator } from "../../lib/i18n/i18n.ts";
import { toast, Toasts } from "../../components/ui/Toast.tsx";
import { FIRST_PAGE, PagerFor, type PageState } from "../../components/ui/Pagination.tsx";
import { isoOf } from "../../components/help/time.ts";
import { download } from "../../components/devices/transfer_io.ts";
import type { BusinessLogRow } from "../../modules/businesslog/model.ts";

type Translate = ReturnType<typeof translator>;
interface Filter {
  start: string;
  end: string;
  keyword: string;
}
const NO_FILTER: Filter = { start: "", end: "", keyword: "" };

const query = (f: Filter) => ({
  startTime: isoOf(f.start),
  endTime: isoOf(f.end),
  keyword: f.keyword.trim() || undefined,
});

/** /businessLogs: the caller's subtree's operations with time and keyword filters, export. */
function BusinessLogTable({ lang, keepDays }: { lang: Lang; keepDays: number }) {
  const t = translator(lang);
  const [draft, setDraft] = useState<Filter>(NO_FILTER);
  const [filter, setFilter] = useState<Filter>(NO_FILTER);
  const [page, setPage] = useState<PageState>(FIRST_PAGE);
  const [data, setData] = useState<{ total: number; list: BusinessLogRow[] } | null>(null);
  const [exporting, setExporting] = useState(false);
  const fail = (e: unknown) =>
    toast(e instanceof ApiError && e.message ? e.message : t("ui.requestFailed"), "error");

  useEffect(() => {
    api<{ total: number; list: BusinessLogRow[] }>("/v3/new/businessLog/list", {
      ...query(filter),
      ...page,
    }).then(setData, fail);
  }, [filter, page]);

  const search = (next: Filter) => {
    setFilter(next);
    setPage(FIRST_PAGE);
  };
  const exportXlsx = async () => {
    setExporting(true);
    try {
      await download("/v3/new/businessLog/export", query(filter));
    } catch (e) {
      fail(e);
    } finally {
      setExporting(false);
    }
  };

  return (
    <section class="panel help-page business-log">
      <div class="panel-title">
        <h1>{t("help.businessLog.title")}</h1>
      </div>
      <p class="muted help-intro">{t("help.businessLog.intro", { days: keepDays })}</p>
      <form
        class="help-filters"
        onSubmit={(e) => {
          e.preventDefault();
          search(draft);
        }}
      >
        <label class="field">
          <span class="field-label">{t("help.businessLog.start")}</span>
          <input
            type="datetime-local"
            name="start"
            value={draft.start}
            onInput={(e) => setDraft({ ...draft, start: e.currentTarget.value })}
          />
        </label>
        <label class="field">
          <span class="field-label">{t("help.businessLog.end")}</span>
          <input
            type="datetime-local"
            name="end"
            value={draft.end}
            onInput={(e) => setDraft({ ...draft, end: e.currentTarget.value })}
          />
        </label>
        <label class="field grow">
          <span class="field-label">{t("help.businessLog.keyword")}</span>
          <input
            type="search"
            name="keyword"
            maxLength={50}
            placeholder={t("help.businessLog.keywordHint")}
            value={draft.keyword}
            onInput={(e) => setDraft({ ...draft, keyword: e.currentTarget.value })}
          />
        </label>
        <div class="help-filter-actions">
          <button type="submit" class="btn btn-primary">{t("help.businessLog.search")}</button>
          <button
            type="button"
            class="btn"
            onClick={() => {
              setDraft(NO_FILTER);
              search(NO_FILTER);
            }}
          >
            {t("help.businessLog.reset")}
          </button>
          <button type="button" class="btn" disabled={exporting} onClick={exportXlsx}>
            {exporting ? t("help.businessLog.exporting") : t("help.businessLog.export")}
          </button>
        </div>
      </form>
      <LogRows t={t} rows={data?.list ?? null} />
      <PagerFor t={t} total={data?.total ?? 0} page={page} setPage={setPage} />
      <Toasts />
    </section>
  );
}

const COLUMNS = ["time", "account", "action", "target", "detail", "ip"] as const;

function LogRows({ t, rows }: { t: Translate; rows: BusinessLogRow[] | null }) {
  return (
    <div class={`table-wrap${rows ? "" : " is-loading"}`}>
      <table class="data bl-table">
        <thead>
          <tr>{COLUMNS.map((k) => <th key={k}>{t(`help.businessLog.${k}`)}</th>)}</tr>
        </thead>
        <tbody>
          {rows?.length === 0 && (
            <tr class="empty-row">
              <td colSpan={COLUMNS.length} class="empty">{t("help.businessLog.empty")}</td>
            </tr>
          )}
          {rows?.map((r, i) => (
            <tr key={`${r.time}-${i}`}>
              <td data-label={t("help.businessLog.time")} class="bl-time">
                {dayjs(r.time).format("YYYY-MM-DD HH:mm:ss")}
              </td>
              <td data-label={t("help.businessLog.account")} class="strong">{r.account}</td>
              <td data-label={t("help.businessLog.action")} class="bl-action">{r.action}</td>
              <td data-label={t("help.businessLog.target")} class="bl-target">
                {r.target || "—"}
              </td>
              <td data-label={t("help.businessLog.detail")} class="bl-detail" title={r.detail}>
                {r.detail || "—"}
              </td>
              <td data-label={t("help.businessLog.ip")} class="bl-ip">{r.ip}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export default island("help/BusinessLogTable", BusinessLogTable);
