import ExcelJS from "exceljs";
import { z } from "zod";
import { ArchiveInvalid, checkArchive, XLSX_LIMITS } from "../../lib/archive.ts";
import { BizError } from "../../lib/errors.ts";
import type { Session } from "../../lib/http/env.ts";
import type { DriverService } from "./drivers.ts";
import { driverAddBody } from "./schemas.ts";
import type { SwipeRow } from "./swipes.ts";
import { formatTime } from "../monitor/time.ts";

export const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
export type Translate = (key: string, params?: Record<string, unknown>) => string;

/** At most this many rows in one export or import (spec console: exports cap). */
export const MAX_SHEET_ROWS = 30_000;
const MAX_IMPORT_ROWS = 1000;

/** The driver sheet's columns, in order: the import template, the export and the import. */
export const DRIVER_COLUMNS = [
  "name",
  "driverNo",
  "licenseNo",
  "phone",
  "rfidCardNo",
  "registerDate",
  "expiredDate",
  "registerPlace",
  "city",
  "maxSpeed",
  "ext1",
  "ext2",
  "ext3",
  "ext4",
] as const;

export interface ImportRow {
  row: number;
  ok: boolean;
  id?: string;
  reason?: string;
}

/** Drivers as xlsx (export, template) and from xlsx (import: one result per row). */
export class DriverSheets {
  constructor(private readonly drivers: DriverService) {}

  async template(t: Translate): Promise<Uint8Array<ArrayBuffer>> {
    return await book(t("fleet.driver.sheet"), [DRIVER_COLUMNS.map((c) => t(`fleet.driver.${c}`))]);
  }

  async export(session: Session, t: Translate): Promise<Uint8Array<ArrayBuffer>> {
    const all = await this.drivers.all(session);
    if (all.length > MAX_SHEET_ROWS) {
      throw new BizError("exportTooLarge", { limit: MAX_SHEET_ROWS });
    }
    const header = [
      ...DRIVER_COLUMNS.map((c) => t(`fleet.driver.${c}`)),
      t("fleet.driver.vehicle"),
    ];
    const rows = all.map((d) => [
      ...DRIVER_COLUMNS.map((c) => String(d[c] ?? "")),
      d.vehiclePlate,
    ]);
    return await book(t("fleet.driver.sheet"), [header, ...rows]);
  }

  /** Adds one driver per row; a bad row is reported and does not stop the others. */
  async import(session: Session, file: Uint8Array, t: Translate): Promise<ImportRow[]> {
    const rows = await readRows(file, DRIVER_COLUMNS.length, t);
    if (rows.length > MAX_IMPORT_ROWS) {
      throw new BizError("spreadsheetInvalid", {
        reason: t("fleet.driver.tooManyRows", { max: MAX_IMPORT_ROWS }),
      });
    }
    const out: ImportRow[] = [];
    for (const { row, cells } of rows) {
      const raw: Record<string, unknown> = {};
      DRIVER_COLUMNS.forEach((c, i) => {
        if (cells[i] === "") return;
        raw[c] = c === "maxSpeed" ? Number(cells[i]) : cells[i];
      });
      const parsed = driverAddBody.safeParse(raw);
      if (!parsed.success) {
        out.push({ row, ok: false, reason: rowReason(parsed.error, t) });
        continue;
      }
      try {
        out.push({ row, ok: true, id: (await this.drivers.add(session, parsed.data)).id });
      } catch (e) {
        if (!(e instanceof BizError)) throw e;
        // The caller's own refusals (not an enterprise) stop the whole import.
        if (e.key === "enterpriseFeatureDenied") throw e;
        out.push({ row, ok: false, reason: t(`errors.${e.key}`, e.params) });
      }
    }
    return out;
  }
}

/** RFID swipe records as xlsx. */
export async function swipeBook(
  rows: SwipeRow[],
  t: Translate,
  timeZone: string,
): Promise<Uint8Array<ArrayBuffer>> {
  if (rows.length > MAX_SHEET_ROWS) throw new BizError("exportTooLarge", { limit: MAX_SHEET_ROWS });
  const cols = ["time", "type", "cardNo", "driverName", "plate", "imei", "lat", "lng", "issuer"];
  return await book(t("fleet.rfid.sheet"), [
    cols.map((c) => t(`fleet.rfid.${c}`)),
    ...rows.map((r) => [
      formatTime(Date.parse(r.time), timeZone),
      t(`fleet.rfid.types.${r.type}`),
      r.cardNo,
      r.unknown ? t("fleet.rfid.unknownCard") : r.driverName,
      r.plate,
      r.imei,
      r.lat === null ? "" : r.lat.toFixed(6),
      r.lng === null ? "" : r.lng.toFixed(6),
      r.issuer,
    ]),
  ]);
}

function rowReason(error: z.ZodError, t: Translate): string {
  const issue = error.issues[0];
  const field = String(issue.path[0] ?? "");
  return `${t(`fleet.driver.${field}`)}: ${
    issue.message.startsWith("validation.") ? t(issue.message) : t("validation.invalid")
  }`;
}

/** A one-sheet workbook: bold header row, every cell text. */
async function book(sheet: string, rows: string[][]): Promise<Uint8Array<ArrayBuffer>> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet(sheet);
  for (const r of rows) ws.addRow(r);
  ws.getRow(1).font = { bold: true };
  ws.columns.forEach((c) => {
    c.width = 18;
    c.numFmt = "@";
  });
  return new Uint8Array(await wb.xlsx.writeBuffer() as ArrayBuffer);
}

async function readRows(file: Uint8Array, width: number, t: Translate) {
  // An xlsx is a zip that exceljs inflates whole: check it stays within limits first.
  try {
    checkArchive(file, XLSX_LIMITS);
  } catch (e) {
    if (!(e instanceof ArchiveInvalid)) throw e;
    throw new BizError("spreadsheetInvalid", { reason: t("fleet.driver.notXlsx") });
  }
  const wb = new ExcelJS.Workbook();
  try {
    await wb.xlsx.load(
      file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength) as ArrayBuffer,
    );
  } catch {
    throw new BizError("spreadsheetInvalid", { reason: t("fleet.driver.notXlsx") });
  }
  const ws = wb.worksheets[0];
  if (!ws) throw new BizError("spreadsheetInvalid", { reason: t("fleet.driver.notXlsx") });
  const out: { row: number; cells: string[] }[] = [];
  ws.eachRow((row, n) => {
    if (n === 1) return;
    const cells = Array.from({ length: width }, (_, i) => cellText(row.getCell(i + 1).value));
    if (cells.some(Boolean)) out.push({ row: n, cells });
  });
  return out;
}

function cellText(v: ExcelJS.CellValue): string {
  if (v === null || v === undefined) return "";
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  if (typeof v === "object") {
    if ("text" in v && typeof v.text === "string") return v.text.trim();
    if ("result" in v) return String(v.result ?? "").trim();
    if ("richText" in v) return v.richText.map((p) => p.text).join("").trim();
  }
  return String(v).trim();
}
