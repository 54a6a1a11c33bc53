import { useEffect, useState } from "react";
import dayjs from "dayjs";
import { island } from "../../lib/islands/island.tsx";
import { api, ApiError } from "../../lib/client/api.ts";
import { type Lang, translator } from "../../lib/i18n/i18n.ts";
import { Modal } from "../../components/ui/Modal.tsx";
import { toast, Toasts } from "../../components/ui/Toast.tsx";
import { FIRST_PAGE, PagerFor, type PageState } from "../../components/ui/Pagination.tsx";
import { DEMO_LIMITS, type DemoApplication, type DemoStatus } from "../../modules/demo/model.ts";

type Translate = ReturnType<typeof translator>;
type Filter = DemoStatus | "all";
const FILTERS: Filter[] = ["pending", "approved", "rejected", "all"];

/** /demoApplications: administrators approve or reject demo applications. */
function ReviewList({ lang, days }: { lang: Lang; days: number }) {
  const t = translator(lang);
  const [filter, setFilter] = useState<Filter>("pending");
  const [page, setPage] = useState<PageState>(FIRST_PAGE);
  const [data, setData] = useState<{ total: number; list: DemoApplication[] } | null>(null);
  const [rejecting, setRejecting] = useState<DemoApplication | null>(null);
  const [busy, setBusy] = useState("");
  const [version, setVersion] = useState(0);

  useEffect(() => {
    api<{ total: number; list: DemoApplication[] }>("/v3/new/demo/list", {
      ...(filter === "all" ? {} : { status: filter }),
      ...page,
    }).then(
      setData,
      (e) => toast(e instanceof ApiError ? e.message : t("ui.requestFailed"), "error"),
    );
  }, [filter, page, version]);

  const approve = async (row: DemoApplication) => {
    setBusy(row.id);
    try {
      const r = await api<{ account: string }>("/v3/new/demo/approve", { id: row.id });
      toast(t("demo.review.approved_ok", { account: r.account }));
      setVersion(version + 1);
    } catch (e) {
      toast(e instanceof ApiError ? e.message : t("ui.requestFailed"), "error");
    } finally {
      setBusy("");
    }
  };

  return (
    <section class="panel demo-review">
      <div class="panel-title">
        <h1>{t("demo.review.title")}</h1>
      </div>
      <p class="muted demo-review-intro">{t("demo.review.intro", { days })}</p>
      <div class="mon-status-tabs demo-tabs" role="tablist">
        {FILTERS.map((f) => (
          <button
            key={f}
            type="button"
            role="tab"
            id={`demo-tab-${f}`}
            aria-selected={filter === f}
            class={filter === f ? "active" : ""}
            onClick={() => {
              setFilter(f);
              setPage(FIRST_PAGE);
            }}
          >
            {t(`demo.review.${f}`)}
          </button>
        ))}
      </div>
      <ReviewTable
        t={t}
        rows={data?.list ?? null}
        busy={busy}
        onApprove={approve}
        onReject={setRejecting}
      />
      <PagerFor t={t} total={data?.total ?? 0} page={page} setPage={setPage} />
      {rejecting && (
        <RejectDialog
          t={t}
          row={rejecting}
          onClose={() => setRejecting(null)}
          onDone={() => {
            setRejecting(null);
            toast(t("demo.review.rejected_ok"));
            setVersion(version + 1);
          }}
        />
      )}
      <Toasts />
    </section>
  );
}

function ReviewTable({ t, rows, busy, onApprove, onReject }: {
  t: Translate;
  rows: DemoApplication[] | null;
  busy: string;
  onApprove: (row: DemoApplication) => void;
  onReject: (row: DemoApplication) => void;
}) {
  return (
    <div class="table-wrap">
      <table class="data demo-table">
        <thead>
          <tr>
            <th>{t("demo.review.time")}</th>
            <th>{t("demo.review.applicant")}</th>
            <th>{t("demo.review.company")}</th>
            <th>{t("demo.review.contact")}</th>
            <th>{t("demo.review.region")}</th>
            <th>{t("demo.review.status")}</th>
            <th>{t("demo.review.account")}</th>
            <th>{t("demo.review.actions")}</th>
          </tr>
        </thead>
        <tbody>
          {rows?.length === 0 && (
            <tr>
              <td colSpan={8} class="empty">{t("demo.review.empty")}</td>
            </tr>
          )}
          {rows?.map((r) => (
            <tr key={r.id} data-demo-id={r.id}>
              <td data-label={t("demo.review.time")}>
                {dayjs(r.createdAt).format("YYYY-MM-DD HH:mm")}
              </td>
              <td data-label={t("demo.review.applicant")}>{r.name}</td>
              <td data-label={t("demo.review.company")}>
                {r.company}
                <div class="muted">{r.department}</div>
              </td>
              <td data-label={t("demo.review.contact")}>
                {r.email}
                <div class="muted">{r.phone}</div>
              </td>
              <td data-label={t("demo.review.region")}>{r.region || "—"}</td>
              <td data-label={t("demo.review.status")}>
                <span class={`badge ${badge(r.status)}`}>{t(`demo.review.${r.status}`)}</span>
                {r.status === "rejected" && r.reason && <div class="muted">{r.reason}</div>}
              </td>
              <td data-label={t("demo.review.account")}>
                {r.account ?? "—"}
                {r.trialUntil && (
                  <div class="muted">{t("demo.review.until", { date: r.trialUntil })}</div>
                )}
              </td>
              <td class="demo-actions">
                {r.status === "pending" && (
                  <>
                    <button
                      type="button"
                      class="btn btn-primary btn-sm demo-approve"
                      disabled={busy === r.id}
                      onClick={() => onApprove(r)}
                    >
                      {t("demo.review.approve")}
                    </button>
                    <button type="button" class="btn btn-sm" onClick={() => onReject(r)}>
                      {t("demo.review.reject")}
                    </button>
                  </>
                )}
                {r.status === "approved" && (
                  <button
                    type="button"
                    class="btn btn-sm"
                    disabled={busy === r.id}
                    onClick={() => onApprove(r)}
                  >
                    {t("demo.review.resend")}
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

const badge = (s: DemoStatus) => s === "approved" ? "ok" : s === "rejected" ? "bad" : "warn";

function RejectDialog({ t, row, onClose, onDone }: {
  t: Translate;
  row: DemoApplication;
  onClose: () => void;
  onDone: () => void;
}) {
  const [reason, setReason] = useState("");
  const [error, setError] = useState("");
  const send = async () => {
    try {
      await api("/v3/new/demo/reject", { id: row.id, reason: reason.trim() });
      onDone();
    } catch (e) {
      setError(e instanceof ApiError ? e.message : t("ui.requestFailed"));
    }
  };
  return (
    <Modal
      title={t("demo.review.rejectTitle", { name: row.name })}
      onClose={onClose}
      closeLabel={t("ui.close")}
      footer={
        <>
          <button type="button" class="btn" onClick={onClose}>{t("ui.cancel")}</button>
          <button type="button" class="btn btn-danger" id="demo-reject-confirm" onClick={send}>
            {t("demo.review.reject")}
          </button>
        </>
      }
    >
      <label class="field">
        <span class="field-label">{t("demo.review.reason")}</span>
        <textarea
          class="input"
          maxLength={DEMO_LIMITS.reason}
          value={reason}
          onInput={(e) => setReason((e.target as HTMLTextAreaElement).value)}
        />
      </label>
      {error && <p class="form-error">{error}</p>}
    </Modal>
  );
}

export default island("demo/ReviewList", ReviewList);
