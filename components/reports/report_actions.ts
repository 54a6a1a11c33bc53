/**
 * What a report page does with its state (report_state.ts): check the form and run the
 * query, load a page, fetch rows for the print preview, export, and link rows to playback.
 */
import { api, ApiError, csrfToken } from "../../lib/client/api.ts";
import { REPORT_MAX_DEVICES, type ReportName } from "../../modules/reports/model.ts";
import { filterFields } from "./filters.ts";
import { rangeProblem } from "./range.ts";
import {
  type ReportAnswer,
  type ReportQuery,
  type ReportRow,
  type ReportState,
  typedRange,
} from "./report_state.ts";

/** The form as a query, or null with the form's error set. */
export function formQuery(s: ReportState, now = Date.now()): ReportQuery | null {
  const { t } = s;
  const fail = (message: string) => {
    s.error.value = message;
    return null;
  };
  const imeis = s.imeis.value;
  if (!imeis.length) return fail(t("errors.noDevicesChosen"));
  if (imeis.length > REPORT_MAX_DEVICES) {
    return fail(t("reports.form.tooManyDevices", { max: REPORT_MAX_DEVICES }));
  }
  const range = typedRange(s, now);
  const problem = rangeProblem(s.report, range, now);
  if (problem) {
    const { key, ...values } = problem;
    return fail(t(key, values));
  }
  const filters = filterFields(s.report, s.filters.value, s.units.speed);
  if (filters.error) return fail(t(filters.error));
  s.error.value = "";
  return {
    imeis,
    startTime: new Date(range.from).toISOString(),
    endTime: new Date(range.to).toISOString(),
    ...filters.fields,
  };
}

/** Runs the form's query from its first page. */
export function runReport(s: ReportState): void {
  const query = formQuery(s);
  if (!query) return;
  s.query.value = query;
  s.page.value = { ...s.page.value, pageNum: 1 };
  void loadPage(s);
}

/** Loads the shown query's current page (an older answer arriving late is dropped). */
export async function loadPage(s: ReportState): Promise<void> {
  const query = s.query.value;
  if (!query) return;
  const seq = ++s.seq.current;
  s.loading.value = true;
  try {
    const answer = await api<ReportAnswer>(`/v3/new/report/${s.report}`, {
      ...query,
      ...s.page.value,
    });
    if (seq !== s.seq.current) return;
    s.answer.value = answer;
    learnNames(s, answer.list);
  } catch (e) {
    if (seq !== s.seq.current) return;
    s.answer.value = { total: 0, list: [] };
    s.error.value = (e as Error).message;
  } finally {
    if (seq === s.seq.current) s.loading.value = false;
  }
}

export function learnNames(s: ReportState, rows: { imei: string; deviceName?: unknown }[]) {
  const add: Record<string, string> = {};
  for (const r of rows) {
    if (typeof r.deviceName === "string" && r.deviceName && !s.names.value[r.imei]) {
      add[r.imei] = r.deviceName;
    }
  }
  if (Object.keys(add).length) s.names.value = { ...s.names.value, ...add };
}

/** Rows for the print preview: up to `max`, 100 a page. */
export async function fetchRows(
  s: ReportState,
  max: number,
): Promise<{ rows: ReportRow[]; total: number }> {
  const query = s.query.value!;
  const rows: ReportRow[] = [];
  let total = 0;
  for (let pageNum = 1; rows.length < max; pageNum++) {
    const page = await api<ReportAnswer>(`/v3/new/report/${s.report}`, {
      ...query,
      pageNum,
      pageSize: 100,
    });
    total = page.total;
    rows.push(...page.list);
    if (!page.list.length || rows.length >= total) break;
  }
  return { rows: rows.slice(0, max), total };
}

export type ExportOutcome = { kind: "file"; fileName: string } | { kind: "task"; taskId: string };

/**
 * POST /v3/new/report/export: a file answer is saved under its content-disposition name; a
 * `{taskId}` answer means the export runs in the task centre.
 */
export async function exportReport(
  report: ReportName,
  params: ReportQuery,
  format: "xlsx" | "csv" | "pdf",
  exportType: 0 | 1,
): Promise<ExportOutcome> {
  let res: Response;
  try {
    res = await fetch("/v3/new/report/export", {
      method: "POST",
      credentials: "same-origin",
      headers: { "content-type": "application/json", "x-csrf-token": csrfToken() },
      body: JSON.stringify({ report, params, format, exportType }),
    });
  } catch {
    throw new ApiError("", 0);
  }
  if (res.headers.get("content-type")?.includes("json")) {
    const json = await res.json() as { code: number; msg: string; data: { taskId?: string } };
    if (json.code === 10000 && json.data?.taskId) return { kind: "task", taskId: json.data.taskId };
    throw new ApiError(json.msg, json.code, json.data);
  }
  const fileName = dispositionName(res.headers.get("content-disposition")) ??
    `${report}.${format}`;
  saveBlob(await res.blob(), fileName);
  return { kind: "file", fileName };
}

/** The file name of a content-disposition header: the UTF-8 form first, else the plain one. */
export function dispositionName(header: string | null): string | null {
  if (!header) return null;
  const utf8 = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (utf8) {
    try {
      return decodeURIComponent(utf8[1]);
    } catch { /* fall back to the plain name */ }
  }
  return /filename="([^"]+)"/i.exec(header)?.[1] ?? null;
}

function saveBlob(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Minutes of track shown around a moment (alerts, track points). */
const AROUND_MS = 10 * 60_000;

/** The playback page for a row's interval, or null for rows without one. */
export function playbackHref(row: ReportRow): string | null {
  const iso = (v: unknown) => (typeof v === "string" && v ? Date.parse(v) : NaN);
  let from = NaN, to = NaN;
  if (row.startTime) [from, to] = [iso(row.startTime), iso(row.endTime)];
  else if (row.enterTime) [from, to] = [iso(row.enterTime), iso(row.exitTime)];
  else if (row.alertTime || row.time) {
    const at = iso(row.alertTime ?? row.time);
    [from, to] = [at - AROUND_MS, at + AROUND_MS];
  } else if (typeof row.date === "string") {
    // Mileage days are UTC days.
    from = Date.parse(`${row.date}T00:00:00Z`);
    to = from + 86_400_000 - 1000;
  }
  if (!Number.isFinite(from)) return null;
  if (!Number.isFinite(to)) to = Math.min(Date.now(), from + 86_400_000);
  const q = new URLSearchParams({
    imei: row.imei,
    startTime: new Date(from).toISOString(),
    endTime: new Date(Math.min(to, Date.now())).toISOString(),
  });
  return `/monitorPlayback?${q}`;
}

/** Looks up the names of chosen devices not named yet (for the chips; first 100). */
export async function nameDevices(s: ReportState, imeis: string[]): Promise<void> {
  const missing = imeis.filter((i) => !s.names.value[i]).slice(0, 100);
  if (!missing.length) return;
  try {
    const page = await api<{ list: { imei: string; deviceName: string }[] }>(
      "/v3/new/newEquipment/queryEquipmentList",
      { pageNum: 1, pageSize: 100, imeis: missing },
    );
    learnNames(s, page.list);
  } catch { /* the chips show IMEIs */ }
}
