/**
 * Report exports: runs a report through the ReportRunner (same checks as its API route), in
 * the user's units, time zone and language, as xlsx, csv or pdf. Small exports (≤ 200
 * devices and ≤ 5,000 rows) are answered directly; others become a task of the task centre
 * with progress. At most 1,000 devices (queried 200 at a time, the report's own cap) and
 * 5,000 rows — 30,000 for users whose map is OpenStreetMap — and the file says where it cut.
 */
import { BizError } from "../../../lib/errors.ts";
import type { Session } from "../../../lib/http/env.ts";
import type { Lang } from "../../../lib/i18n/i18n.ts";
import { translator } from "../../../lib/i18n/i18n.ts";
import type { Account, AccountLookup } from "../../accounts/model.ts";
import { normalizeUnits } from "../../accounts/current.ts";
import { distanceUnit, speedUnit } from "../../monitor/units.ts";
import type { ProgressFn, TaskOutput } from "../../tasks/model.ts";
import type { TaskService } from "../../tasks/service.ts";
import {
  EXPORT_DIRECT_MAX_DEVICES,
  EXPORT_DIRECT_MAX_ROWS,
  EXPORT_MAX_ROWS,
  EXPORT_MAX_ROWS_OSM,
  type ExportFormat,
  REPORT_MAX_DEVICES,
} from "../model.ts";
import type { ReportRunner } from "../types.ts";
import { type ExportPrefs, timeFormatter } from "./cells.ts";
import { CSV_TYPE, writeCsv } from "./csv.ts";
import { PDF_TYPE, writeInWorker } from "./render.ts";
import type { ExportBody } from "./schemas.ts";
import { buildTable, type ExportTable } from "./table.ts";
import { XLSX_TYPE } from "./xlsx.ts";

/** Rows fetched per runner call. */
const FETCH_PAGE = 1_000;
/** Background exports one user may have running at once (each holds up to 30,000 rows). */
export const EXPORT_TASKS_PER_USER = 2;

export interface ExportDeps {
  runner: ReportRunner;
  tasks: TaskService;
  accounts: AccountLookup;
  /** The account a device belongs to (exportType 0 groups by it). */
  deviceOwner: (imei: string) => string | undefined;
}

export type ExportAnswer = { file: TaskOutput } | { taskId: string };

/** Where an export stands once its devices were checked and counted. */
interface Plan {
  session: Session;
  body: ExportBody;
  chunks: string[][];
  /** Rows per chunk (the report's totals). */
  totals: number[];
  /** Rows asked per runner call. */
  fetchPage: number;
  /** Each chunk's first page (fetchPage rows), kept so a small export queries once. */
  firstPages: Record<string, unknown>[][];
  cap: number;
  self: Account;
  lang: Lang;
}

export class ReportExport {
  constructor(private readonly d: ExportDeps) {}

  async request(session: Session, lang: Lang, body: ExportBody): Promise<ExportAnswer> {
    if (this.d.tasks.runningOf(session.accountId) >= EXPORT_TASKS_PER_USER) {
      throw new BizError("exportTasksRunning", { limit: EXPORT_TASKS_PER_USER });
    }
    const plan = await this.plan(session, lang, body);
    const total = plan.totals.reduce((a, b) => a + b, 0);
    const devices = plan.chunks.reduce((n, c) => n + c.length, 0);
    const fileName = this.fileName(plan);
    if (devices <= EXPORT_DIRECT_MAX_DEVICES && total <= EXPORT_DIRECT_MAX_ROWS) {
      return { file: await this.produce(plan, fileName, () => {}) };
    }
    const taskId = await this.d.tasks.start(
      session.accountId,
      { name: translator(lang)(`reports.names.${body.report}`), type: "report", fileName },
      (progress) => this.produce(plan, fileName, progress),
    );
    return { taskId };
  }

  /**
   * The file now, whatever its size, and the rows the report had: for work that is already
   * a task of its own (automatic reports).
   */
  async file(
    session: Session,
    lang: Lang,
    body: ExportBody,
    progress: ProgressFn = () => {},
  ): Promise<{ output: TaskOutput; rows: number }> {
    // Its own task already: every row up to the cap in one query (a report reads its whole
    // range for each page it answers, so 30 pages of 1,000 rows cost 30 queries).
    const plan = await this.plan(session, lang, body, EXPORT_MAX_ROWS_OSM);
    const output = await this.produce(plan, this.fileName(plan), progress);
    return { output, rows: plan.totals.reduce((a, b) => a + b, 0) };
  }

  /**
   * Checks every device group through the runner (visibility, ranges, the report's own
   * schema: a refusal refuses the whole export) and counts the rows.
   */
  private async plan(
    session: Session,
    lang: Lang,
    body: ExportBody,
    fetchPage = FETCH_PAGE,
  ): Promise<Plan> {
    const imeis = [...new Set(body.params.imeis)];
    const chunks: string[][] = [];
    for (let i = 0; i < imeis.length; i += REPORT_MAX_DEVICES) {
      chunks.push(imeis.slice(i, i + REPORT_MAX_DEVICES));
    }
    const totals: number[] = [], firstPages: Record<string, unknown>[][] = [];
    for (const chunk of chunks) {
      const page = await this.d.runner.run(session, body.report, { ...body.params, imeis: chunk }, {
        pageNum: 1,
        pageSize: fetchPage,
      });
      totals.push(page.total);
      firstPages.push(page.list);
    }
    const self = await this.d.accounts.get(session.accountId);
    if (!self) throw new Error(`export: account ${session.accountId} not found`);
    const cap = (self.userMapType || "OpenStreetMap") === "OpenStreetMap"
      ? EXPORT_MAX_ROWS_OSM
      : EXPORT_MAX_ROWS;
    return { session, body, chunks, totals, fetchPage, firstPages, cap, self, lang };
  }

  /** Fetches the rows (up to the cap), lays out the table and writes the file. */
  private async produce(plan: Plan, fileName: string, progress: ProgressFn): Promise<TaskOutput> {
    const total = plan.totals.reduce((a, b) => a + b, 0);
    const target = Math.min(total, plan.cap);
    const rows: Record<string, unknown>[] = [];
    for (let c = 0; c < plan.chunks.length && rows.length < plan.cap; c++) {
      const params = { ...plan.body.params, imeis: plan.chunks[c] };
      for (let pageNum = 1; rows.length < plan.cap; pageNum++) {
        const list = pageNum === 1 ? plan.firstPages[c] : (await this.d.runner.run(
          plan.session,
          plan.body.report,
          params,
          { pageNum, pageSize: plan.fetchPage },
        )).list;
        rows.push(...list.slice(0, plan.cap - rows.length));
        progress(target ? (rows.length / target) * 80 : 80);
        if (list.length < plan.fetchPage) break;
      }
    }
    const table = await this.table(plan, rows, Math.max(total, rows.length));
    progress(85);
    const bytes = await write(
      plan.body.format,
      table,
      translator(plan.lang)("reports.export.page"),
    );
    return { fileName, contentType: CONTENT_TYPES[plan.body.format], bytes };
  }

  private async table(
    plan: Plan,
    rows: Record<string, unknown>[],
    total: number,
  ): Promise<ExportTable> {
    const t = translator(plan.lang);
    const prefs = prefsOf(plan.self, t);
    const time = timeFormatter(prefs.timeZone);
    const p = plan.body.params as { startTime?: string; endTime?: string };
    const period = p.startTime && p.endTime
      ? t("reports.export.period", {
        from: time(p.startTime),
        to: time(p.endTime),
        zone: prefs.timeZone,
      }) + " · "
      : "";
    return await buildTable({
      report: plan.body.report,
      params: plan.body.params,
      rows,
      total,
      prefs,
      t: (key, params) => t(key, params ?? {}),
      accountOf: plan.body.exportType === 0
        ? await this.accountLabels(rows, t("reports.export.unknownAccount"))
        : undefined,
      subtitle: period +
        t("reports.export.generated", { time: time(Date.now()), account: plan.self.account }),
    });
  }

  /** IMEI → the owning account's login (and nickname), for the group headers. */
  private async accountLabels(
    rows: Record<string, unknown>[],
    unknown: string,
  ): Promise<(imei: string) => string> {
    const ownerOf = new Map<string, string>();
    for (const row of rows) {
      const imei = String(row.imei ?? "");
      if (!ownerOf.has(imei)) ownerOf.set(imei, this.d.deviceOwner(imei) ?? "");
    }
    const ids = [...new Set(ownerOf.values())].filter(Boolean);
    const label = new Map<string, string>();
    for (const a of await this.d.accounts.getMany(ids)) {
      label.set(
        a.id,
        a.nickName && a.nickName !== a.account ? `${a.account} (${a.nickName})` : a.account,
      );
    }
    return (imei) => label.get(ownerOf.get(imei) ?? "") ?? unknown;
  }

  /** "<report title>_<YYYYMMDD-HHmmss in the user's zone>.<format>". */
  private fileName(plan: Plan): string {
    const t = translator(plan.lang);
    const stamp = timeFormatter(plan.self.timeZones || "UTC")(Date.now()).replace(/[-:]/g, "")
      .replace(" ", "-");
    return `${t(`reports.names.${plan.body.report}`)}_${stamp}.${plan.body.format}`;
  }
}

const CONTENT_TYPES: Record<ExportFormat, string> = {
  xlsx: XLSX_TYPE,
  csv: CSV_TYPE,
  pdf: PDF_TYPE,
};

function write(format: ExportFormat, table: ExportTable, pageLabel: string) {
  if (format === "csv") return writeCsv(table);
  return writeInWorker(format, table, pageLabel);
}

/** The account's units and zone (spec §4 normalisation), and its yes/no words. */
export function prefsOf(self: Account, t: (key: string) => string): ExportPrefs {
  const u = normalizeUnits(self.units ?? {});
  return {
    distance: distanceUnit(u.showUnit),
    speed: speedUnit(u.speed),
    volume: u.capacity === "GAL" ? "GAL" : "L",
    timeZone: self.timeZones || "UTC",
    temperature: u.temperature === "°F" ? "°F" : "°C",
    yes: t("reports.export.yes"),
    no: t("reports.export.no"),
  };
}
