/**
 * An export's content before it becomes a file: headers in the user's language and units,
 * converted rows, an optional group header per owning account (exportType 0), a totals line
 * and the note saying where the export cut. The writers (xlsx, csv, pdf) only lay it out.
 */
import { type ReportColumn, reportColumns, type ReportName } from "../model.ts";
import { type Cell, cellConverter, type ExportPrefs, formatDuration, unitOf } from "./cells.ts";

export type TableLine =
  | { kind: "row"; cells: Cell[] }
  | { kind: "group"; label: string };

export interface ExportTable {
  title: string;
  /** A line under the title (period, who, when); shown by the pdf. */
  subtitle: string;
  headers: string[];
  /** Relative widths for the pdf (text columns wider). */
  widths: number[];
  lines: TableLine[];
  /** The totals line (first cell the "Total" label), or null when no column totals. */
  totals: Cell[] | null;
  /** "… first N rows of M" when the export cut, else null. */
  note: string | null;
}

export interface TableInput {
  report: ReportName;
  /** The report's request (mileage's `view` picks its columns). */
  params: Record<string, unknown>;
  rows: Record<string, unknown>[];
  /** Rows the report had in all (more than rows.length when cut). */
  total: number;
  prefs: ExportPrefs;
  t: (key: string, params?: Record<string, unknown>) => string;
  /** exportType 0: each row's owning account label (by IMEI); absent: listed directly. */
  accountOf?: (imei: string) => string;
  subtitle: string;
}

/** A column's share of the pdf's width: times need 19 characters, addresses the most. */
function widthOf(col: ReportColumn): number {
  if (col.key.endsWith("ddress")) return 3;
  if (col.key === "imei") return 2.1;
  return WIDTHS[col.kind] ?? 1.2;
}
const WIDTHS: Partial<Record<ReportColumn["kind"], number>> = {
  text: 1.7,
  time: 2.3,
  date: 1.4,
  coordinate: 1.4,
  boolean: 0.8,
};

/** Rows converted between two yields to the event loop (~5 ms of work each). */
const ROWS_PER_SLICE = 500;
const yieldToLoop = () => new Promise<void>((r) => setTimeout(r, 0));

export async function buildTable(input: TableInput): Promise<ExportTable> {
  const { report, prefs, t } = input;
  const columns = columnsOf(report, input.params);
  const headers = columns.map((col) => {
    const label = t(`reports.columns.${col.key}`);
    const unit = unitOf(col.kind, prefs);
    return unit ? `${label} (${unit})` : label;
  });
  const convert = cellConverter(prefs);
  const toCells = (row: Record<string, unknown>) =>
    columns.map((col) =>
      CODE_COLUMNS.has(col.key) && typeof row[col.key] === "string"
        ? codeText(col.key, row[col.key] as string, t)
        : convert(col.kind, row[col.key])
    );
  const lines: TableLine[] = [];
  let converted = 0;
  const push = async (row: Record<string, unknown>) => {
    lines.push({ kind: "row", cells: toCells(row) });
    if (++converted % ROWS_PER_SLICE === 0) await yieldToLoop();
  };
  if (input.accountOf) {
    const groups = new Map<string, Record<string, unknown>[]>();
    for (const row of input.rows) {
      const label = input.accountOf(String(row.imei ?? ""));
      const list = groups.get(label) ?? groups.set(label, []).get(label)!;
      list.push(row);
    }
    const labels = [...groups.keys()].sort((a, b) => a.localeCompare(b));
    for (const label of labels) {
      const rows = groups.get(label)!;
      lines.push({
        kind: "group",
        label: t("reports.export.account", { account: label, count: rows.length }),
      });
      for (const row of rows) await push(row);
    }
  } else {
    for (const row of input.rows) await push(row);
  }
  const shown = input.rows.length;
  return {
    title: t(`reports.names.${report}`),
    subtitle: input.subtitle,
    headers,
    widths: columns.map(widthOf),
    lines,
    totals: totalsLine(columns, input, t("reports.export.total")),
    note: input.total > shown
      ? t("reports.export.cut", {
        shown: shown.toLocaleString("en"),
        total: input.total.toLocaleString("en"),
      })
      : null,
  };
}

/** Sums of the total columns, in the file's units (durations as H:MM:SS). */
function totalsLine(columns: ReportColumn[], input: TableInput, label: string): Cell[] | null {
  if (!columns.some((c) => c.total) || input.rows.length === 0) return null;
  const convert = cellConverter(input.prefs);
  const cells: Cell[] = columns.map((col) => {
    if (!col.total) return "";
    let sum = 0;
    for (const row of input.rows) sum += Number(row[col.key]) || 0;
    return col.kind === "duration" ? formatDuration(sum) : convert(col.kind, sum);
  });
  cells[0] = label;
  return cells;
}

/** A report's columns for its request (mileage's view, the sensor reports' filters). */
export function columnsOf(report: ReportName, params: Record<string, unknown>): ReportColumn[] {
  return reportColumns(report, params);
}

/** Text columns whose values are codes, shown in the user's language (as on the pages). */
const CODE_COLUMNS = new Set([
  "alertType",
  "state",
  "status",
  "posType",
  "clockType",
  "door",
  "light",
]);

function codeText(key: string, value: string, t: TableInput["t"]): string {
  return key === "alertType"
    ? t(`alerts.type.${value}`, { defaultValue: value })
    : t(`reports.values.${key}.${value}`, { defaultValue: value });
}
