/**
 * Automatic reports (spec business §3 Reports "Auto report", §4, §5): a report run on a
 * schedule for up to 200 devices, mailed as an xlsx. The API's shapes and limits; browser
 * code may import this file.
 */
import type { ReportName, TaskStatus } from "../reports/model.ts";

/** Spec enumeration "Auto-report frequency". */
export const AUTO_REPORT_FREQUENCIES = ["day", "week", "month"] as const;
export type AutoReportFrequency = typeof AUTO_REPORT_FREQUENCIES[number];

/** "alert": alert reports by the alert's time; "position": by the position's time. */
export const AUTO_REPORT_TIME_FIELDS = ["alert", "position"] as const;
export type AutoReportTimeField = typeof AUTO_REPORT_TIME_FIELDS[number];

/** Devices one auto report covers (spec §5). */
export const AUTO_REPORT_MAX_DEVICES = 200;
/** Recipients of one auto report. */
export const AUTO_REPORT_MAX_EMAILS = 10;
/** Runs kept in an auto report's history (older ones are dropped, their files expire). */
export const AUTO_REPORT_HISTORY_KEEP = 50;
/** A slot missed while the process was down is still run this long after its time. */
export const AUTO_REPORT_CATCH_UP_MS = 6 * 3_600_000;

/** One auto report as the API lists it. */
export interface AutoReportRow {
  id: string;
  name: string;
  reportType: ReportName;
  frequency: AutoReportFrequency;
  /** "HH:mm" in the owner's time zone. */
  executionTime: string;
  /** The account whose devices it covers (its device model selection, sub-accounts). */
  userId: string;
  /** The account's login, for the list. */
  account: string;
  imeis: string[];
  mcType: string | null;
  emails: string[];
  includeSubAccounts: boolean;
  batteryThreshold: number | null;
  timeField: AutoReportTimeField | null;
  /** The report's own filters (e.g. speedLimit, view). */
  params: Record<string, unknown>;
  /** ISO-8601 UTC. */
  createdAt: string;
  lastRunAt: string | null;
  lastStatus: TaskStatus | null;
}

/** One run of an auto report (POST /v3/new/autoReport/history). */
export interface AutoReportRun {
  /** ISO-8601 UTC: when the run started. */
  runAt: string;
  status: TaskStatus;
  fileName: string | null;
  /** The task centre's task holding the file (/v3/new/task/download?id=). */
  taskId: string | null;
  /** "schedule" (the cron slot) or "manual" (run now). */
  trigger: "schedule" | "manual";
  /** The report's range, ISO-8601 UTC. */
  from: string;
  to: string;
  /** Devices the report ran for, rows in the file, recipients mailed. */
  devices: number;
  rows: number | null;
  mailed: number;
  /** The catalogue name of a failure (the report, or the mail). */
  error: string | null;
}
