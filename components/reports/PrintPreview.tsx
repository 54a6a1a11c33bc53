import { useEffect, useState } from "react";
import { createPortal } from "react-dom";
import { Modal } from "../ui/Modal.tsx";
import type { ReportColumn } from "../../modules/reports/model.ts";
import { ReportTable } from "./ReportTable.tsx";
import type { ReportRow, ReportState } from "./report_state.ts";
import { fetchRows } from "./report_actions.ts";

/** Rows a print holds; more are left to the export (the preview says so). */
export const PRINT_MAX_ROWS = 1000;

/**
 * The print preview (spec §2): the report's table with an optional title and totals row, as
 * it will print; Print hands it to the browser (window.print) with only the table on paper
 * (static/app.css "@media print").
 */
export function PrintPreview({ s, columns, onClose }: {
  s: ReportState;
  columns: ReportColumn[];
  onClose: () => void;
}) {
  const { t } = s;
  const query = s.query.value!;
  const defaultTitle = `${t(`reports.names.${s.report}`)} · ${s.fmt.time(query.startTime)} – ${
    s.fmt.time(query.endTime)
  }`;
  const [title, setTitle] = useState(defaultTitle);
  const [withTitle, setWithTitle] = useState(true);
  const [withTotals, setWithTotals] = useState(true);
  const [data, setData] = useState<{ rows: ReportRow[]; total: number } | null>(null);
  const [error, setError] = useState("");
  useEffect(() => {
    fetchRows(s, PRINT_MAX_ROWS).then(setData, (e) => setError((e as Error).message));
  }, []);
  const hasTotals = columns.some((c) => c.total);

  const sheet = (
    <div class="rp-sheet">
      {withTitle && title.trim() && <h2 class="rp-sheet-title">{title}</h2>}
      {data && (
        <ReportTable
          t={t}
          fmt={s.fmt}
          columns={columns}
          rows={data.rows}
          showTotals={withTotals}
          partial={data.total > data.rows.length}
        />
      )}
      {data && data.total > data.rows.length && (
        <p class="field-hint">
          {t("reports.print.cut", { shown: data.rows.length, total: data.total })}
        </p>
      )}
    </div>
  );
  const print = () => {
    document.body.classList.add("rp-printing");
    const done = () => {
      document.body.classList.remove("rp-printing");
      removeEventListener("afterprint", done);
    };
    addEventListener("afterprint", done);
    print_();
  };
  return (
    <Modal
      title={t("reports.print.title")}
      closeLabel={t("ui.close")}
      width={1100}
      onClose={onClose}
      footer={
        <>
          <button type="button" class="btn" onClick={onClose}>{t("ui.cancel")}</button>
          <button
            type="button"
            class="btn btn-primary"
            id="report-print-go"
            disabled={!data}
            onClick={print}
          >
            {t("reports.print.print")}
          </button>
        </>
      }
    >
      <div class="rp-print-options">
        <label class="field rp-print-title">
          <span class="field-label">{t("reports.print.heading")}</span>
          <input
            name="printTitle"
            value={title}
            maxLength={120}
            disabled={!withTitle}
            onInput={(e) => setTitle((e.target as HTMLInputElement).value)}
          />
        </label>
        <label class="rp-check">
          <input
            type="checkbox"
            name="printWithTitle"
            checked={withTitle}
            onChange={(e) => setWithTitle((e.target as HTMLInputElement).checked)}
          />
          {t("reports.print.showTitle")}
        </label>
        {hasTotals && (
          <label class="rp-check">
            <input
              type="checkbox"
              name="printWithTotals"
              checked={withTotals}
              onChange={(e) => setWithTotals((e.target as HTMLInputElement).checked)}
            />
            {t("reports.print.showTotals")}
          </label>
        )}
      </div>
      {error && <p class="form-error">{error}</p>}
      {!data && !error && <p class="muted">{t("reports.table.loading")}</p>}
      <div class="rp-preview table-wrap" data-testid="print-preview">{sheet}</div>
      {createPortal(<div class="rp-print-root">{sheet}</div>, document.body)}
    </Modal>
  );
}

/** The browser's print dialog (a function so a test can watch for it). */
function print_() {
  globalThis.print();
}
