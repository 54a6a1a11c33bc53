/**
 * The state of one report page (islands/reports/ReportPage.tsx), made per island instance:
 * what the form holds, the query that produced the table, and the answer. What the page does
 * with it (run, page, export) is in report_actions.ts.
 */
import { type Signal, signal } from "@preact/signals";
import type { TFunction } from "i18next";
import { parseLocal, toLocalInput } from "../../modules/monitor/time.ts";
import type { ReportName } from "../../modules/reports/model.ts";
import { type CellFormat, cellFormat, type UserUnits } from "./format.ts";
import { defaultFilters, type ReportFilters } from "./filters.ts";
import { quickRange } from "./range.ts";

export interface ReportRow extends Record<string, unknown> {
  imei: string;
}

export interface ReportAnswer {
  total: number;
  list: ReportRow[];
}

/** A query as sent (without paging): the table, the export and the print use the same. */
export interface ReportQuery {
  imeis: string[];
  startTime: string;
  endTime: string;
  [filter: string]: unknown;
}

export interface ReportState {
  report: ReportName;
  t: TFunction;
  fmt: CellFormat;
  units: UserUnits;
  imeis: Signal<string[]>;
  /** Device names learned from answers and the picker, for the chips. */
  names: Signal<Record<string, string>>;
  /** The range as typed (datetime-local in the user's zone). */
  from: Signal<string>;
  to: Signal<string>;
  filters: Signal<ReportFilters>;
  /** The form's problem (a translated message), shown under it. */
  error: Signal<string>;
  /** The query of the table shown, or null before the first run. */
  query: Signal<ReportQuery | null>;
  page: Signal<{ pageNum: number; pageSize: number }>;
  answer: Signal<ReportAnswer | null>;
  loading: Signal<boolean>;
  /** Bumped per run, so an older answer arriving late is dropped. */
  seq: { current: number };
}

export interface ReportStart {
  report: ReportName;
  units: UserUnits;
  /** From the page's query: IMEIs, and a range as ISO or epoch values. */
  imeis: string[];
  startTime: string;
  endTime: string;
}

/** A query value (ISO-8601, or epoch ms/s digits) as epoch ms, or NaN. */
export function parseQueryTime(value: string): number {
  if (!value) return NaN;
  if (/^\d{10}$/.test(value)) return Number(value) * 1000;
  if (/^\d{13}$/.test(value)) return Number(value);
  return Date.parse(value);
}

export function createReportState(t: TFunction, start: ReportStart, now: number): ReportState {
  const tz = start.units.timeZone;
  const fromQuery = parseQueryTime(start.startTime), toQuery = parseQueryTime(start.endTime);
  const today = quickRange("today", now, tz);
  const from = Number.isFinite(fromQuery) ? fromQuery : today.from;
  const to = Number.isFinite(toQuery) ? Math.min(toQuery, now) : today.to;
  return {
    report: start.report,
    t,
    fmt: cellFormat(start.units, t),
    units: start.units,
    imeis: signal(start.imeis),
    names: signal({}),
    from: signal(toLocalInput(from, tz)),
    // The input shows minutes; the typed end includes its minute's seconds (typedRange).
    to: signal(toLocalInput(to, tz)),
    filters: signal(defaultFilters(start.report)),
    error: signal(""),
    query: signal(null),
    page: signal({ pageNum: 1, pageSize: 10 }),
    answer: signal(null),
    loading: signal(false),
    seq: { current: 0 },
  };
}

/** The typed range as epoch ms (the end never after now). */
export function typedRange(s: ReportState, now: number): { from: number; to: number } {
  const tz = s.units.timeZone;
  const from = s.from.value ? parseLocal(s.from.value, tz) : NaN;
  const to = s.to.value ? parseLocal(s.to.value, tz) : NaN;
  // A whole minute typed as the end includes its seconds.
  return { from, to: Number.isFinite(to) ? Math.min(to + 59_999, now) : to };
}
