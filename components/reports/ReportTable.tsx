import type { TFunction } from "i18next";
import type { ReportColumn } from "../../modules/reports/model.ts";
import type { CellFormat } from "./format.ts";
import { columnTotals } from "./format.ts";
import type { ReportRow } from "./report_state.ts";
import { playbackHref } from "./report_actions.ts";

export interface TableProps {
  t: TFunction;
  fmt: CellFormat;
  columns: ReportColumn[];
  rows: ReportRow[];
  /** Totals over the whole query when the API gives them; else the rows' sums. */
  totals?: Record<string, number | null> | null;
  showTotals: boolean;
  /** The playback link column (not in print). */
  links?: boolean;
  /** A row's details page (OBD trips), shown in the link column. */
  detail?: ((row: ReportRow) => string | null) | null;
  /** Rows before these (earlier pages), for the row numbers. */
  offset?: number;
  /** The rows are one page of more: the totals row says it sums this page. */
  partial?: boolean;
}

/** A column's header: its label and the user's unit ("Distance (mi)"). */
export function columnHeader(t: TFunction, fmt: CellFormat, col: ReportColumn): string {
  const unit = fmt.unit(col.kind);
  const label = t(`reports.columns.${col.key}`);
  return unit ? `${label} (${unit})` : label;
}

const NUMERIC = new Set([
  "distance",
  "speed",
  "duration",
  "number",
  "volume",
  "coordinate",
  "temperature",
  "voltage",
  "percent",
  "fuelRate",
]);

/** The report's rows in the user's units, a totals row, and a playback link per row. */
export function ReportTable(
  { t, fmt, columns, rows, totals, showTotals, links, detail, offset = 0, partial }: TableProps,
) {
  const sums = totals ?? columnTotals(columns, rows);
  const hasTotals = showTotals && columns.some((c) => c.total) && rows.length > 0;
  return (
    <table class="data rp-table">
      <thead>
        <tr>
          <th class="rp-num">#</th>
          {columns.map((col) => (
            <th key={col.key} class={NUMERIC.has(col.kind) ? "rp-num" : undefined}>
              {columnHeader(t, fmt, col)}
            </th>
          ))}
          {links && <th class="rp-link-col">{t("reports.table.playback")}</th>}
        </tr>
      </thead>
      <tbody>
        {rows.map((row, i) => {
          const href = links ? playbackHref(row) : null;
          const more = links && detail ? detail(row) : null;
          return (
            <tr key={i} data-imei={row.imei}>
              <td class="rp-num muted">{offset + i + 1}</td>
              {columns.map((col) => (
                <td
                  key={col.key}
                  class={[
                    NUMERIC.has(col.kind) ? "rp-num" : "",
                    col.key.endsWith("ddress") ? "rp-address" : "",
                  ].join(" ").trim() || undefined}
                  title={col.key.endsWith("ddress") ? String(row[col.key] ?? "") : undefined}
                >
                  {fmt.cell(col, row[col.key])}
                </td>
              ))}
              {links && (
                <td class="rp-link-col">
                  {more && (
                    <a class="rp-detail" href={more} data-testid="row-detail">
                      {t("reports.sensor.details")}
                    </a>
                  )}
                  {href && (
                    <a class="rp-play" href={href} aria-label={t("reports.table.playbackOf")}>
                      <svg viewBox="0 0 24 24" width="14" height="14" aria-hidden="true">
                        <path d="M8 5v14l11-7z" fill="currentColor" />
                      </svg>
                      {t("reports.table.playback")}
                    </a>
                  )}
                </td>
              )}
            </tr>
          );
        })}
      </tbody>
      {hasTotals && (
        <tfoot>
          <tr class="rp-totals">
            <td>{t(partial ? "reports.table.pageTotal" : "reports.table.total")}</td>
            {columns.map((col) => (
              <td key={col.key} class={NUMERIC.has(col.kind) ? "rp-num" : undefined}>
                {col.total ? fmt.cell(col, sums[col.key] ?? null) : ""}
              </td>
            ))}
            {links && <td />}
          </tr>
        </tfoot>
      )}
    </table>
  );
}
