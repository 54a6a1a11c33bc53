import ExcelJS from "exceljs";
import { ArchiveInvalid, checkArchive, XLSX_LIMITS } from "../../lib/archive.ts";
import { BizError, type ErrorName } from "../../lib/errors.ts";
import type { Session } from "../../lib/http/env.ts";
import { VIN } from "./detail.ts";
import type { DeviceOperations } from "./operations.ts";
import { type DeviceService, MAX_IMPORT } from "./service.ts";
import type { filterBody } from "./schemas.ts";
import type { z } from "zod";

/** Spec export cap with one open map provider (console-shell-accounts §9). */
export const MAX_EXPORT = 30_000;
export const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

export type Translate = (key: string, params?: Record<string, unknown>) => string;

export interface RowResult {
  row: number;
  imei: string;
  ok: boolean;
  reason: string;
  /** Saved, but with a warning (e.g. a VIN that does not look like one). */
  warning?: string;
}

/** Batch-edit columns: [header key, field, max length]. The IMEI column comes first. */
const EDIT_COLUMNS = [
  ["deviceName", "deviceName", 50],
  ["sim", "sim", 20],
  ["iccid", "iccid", 22],
  ["sn", "sn", 50],
  ["reMark", "reMark", 500],
  ["driverName", "driverName", 20],
  ["driverPhone", "driverPhone", 20],
  ["vehicleNumber", "vehicleNumber", 50],
  ["carFrame", "carFrame", 50],
] as const;
const BASIC_FIELDS = new Set(["deviceName", "sim", "iccid", "sn", "reMark"]);

/**
 * Spreadsheets of the device page (exceljs): the import template and import, the list
 * export, and batch edit (download the current values, edit, upload; one result per row).
 */
export class DeviceSheets {
  constructor(private readonly devices: DeviceService, private readonly ops: DeviceOperations) {}

  async template(t: Translate): Promise<Uint8Array<ArrayBuffer>> {
    return await book(t("devices.sheet.importSheet"), [
      [t("devices.col.imei"), t("devices.col.deviceName"), t("devices.col.sim")],
      ["359710049000001", "Truck 01", "13800000000"],
    ]);
  }

  /** Reads IMEI, name and SIM columns and imports them like an IMEI list. */
  async importFile(
    session: Session,
    input: { userId: string; mcType: string; activationMode?: "auto" | "permission" },
    file: Uint8Array,
    t: Translate,
  ): Promise<{ succeeded: number; results: RowResult[] }> {
    const rows = await readRows(file, t);
    if (rows.length === 0) throw new BizError("imeiEmpty");
    if (rows.length > MAX_IMPORT) {
      throw new BizError("quantityLimitExceeded", { limit: MAX_IMPORT });
    }
    const results: RowResult[] = [];
    const good: { row: number; imei: string; deviceName?: string; sim?: string }[] = [];
    const seen = new Set<string>();
    for (const r of rows) {
      const [imei, deviceName, sim] = [r.cells[0], r.cells[1], r.cells[2]];
      const reason = deviceName.length > 50
        ? fieldError(t, "deviceName", t("validation.tooLong", { max: 50 }))
        : sim.length > 20 || !/^[0-9+]*$/.test(sim)
        ? fieldError(t, "sim", t("validation.format.regex"))
        : seen.has(imei)
        ? t("errors.imeiRepeated", { imei })
        : null;
      if (reason) results.push({ row: r.row, imei, ok: false, reason });
      else {
        seen.add(imei);
        good.push({ row: r.row, imei, deviceName: deviceName || undefined, sim });
      }
    }
    const out = good.length
      ? await this.devices.import(
        session,
        { ...input, imeis: good.map((g) => g.imei), rows: good },
        (name: ErrorName, params?: Record<string, string>) => t(`errors.${name}`, params),
      )
      : { succeeded: 0, failed: [] };
    // IMEIs are unique by now, so each failure belongs to exactly one row.
    const failures = new Map(out.failed.map((f) => [f.imei, f.reason]));
    for (const g of good) {
      const reason = failures.get(g.imei) ?? "";
      results.push({ row: g.row, imei: g.imei, ok: !reason, reason });
    }
    results.sort((a, b) => a.row - b.row);
    return { succeeded: out.succeeded, results };
  }

  /** The filtered list as a spreadsheet (at most MAX_EXPORT rows). */
  async export(session: Session, filter: z.infer<typeof filterBody>, t: Translate) {
    const rows = await this.devices.select(session, filter);
    if (rows.length > MAX_EXPORT) throw new BizError("exportTooLarge", { limit: MAX_EXPORT });
    rows.sort((a, b) => a.d.imei.localeCompare(b.d.imei));
    const list = await this.devices.present(session, rows);
    const cols = [
      "imei",
      "deviceName",
      "mcType",
      "sim",
      "userAccount",
      "status",
      "activation",
      "activationTime",
      "expiration",
      "userExpiration",
      "enabled",
      "appBindable",
      "autoRenew",
    ] as const;
    return await book(t("devices.sheet.exportSheet"), [
      cols.map((c) => t(`devices.col.${c}`)),
      ...list.map((d) =>
        cols.map((c) =>
          c === "status"
            ? t(`devices.status.${d.status}`)
            : c === "activation"
            ? t(`devices.activation.${d.activation}`)
            : c === "enabled"
            ? t(d.enabled ? "devices.enabled" : "devices.disabled")
            : c === "appBindable"
            ? t(`devices.appBindable.filter.${d.appBindable}`)
            : c === "autoRenew"
            ? t(d.autoRenew ? "devices.renew.autoOnShort" : "devices.renew.autoOff")
            : String(d[c] ?? "")
        )
      ),
    ]);
  }

  /** Current values of the chosen devices, in the batch-edit layout. */
  async editSheet(session: Session, imeis: string[], t: Translate) {
    const devices = await this.devices.visibleDevices(session, imeis);
    const lines: string[][] = [];
    for (const d of devices) {
      const { customer } = await this.ops.loadDetail(d.imei);
      const values: Record<string, string> = {
        ...customer,
        deviceName: d.deviceName,
        sim: d.sim,
        iccid: d.iccid ?? "",
        sn: d.sn ?? "",
        reMark: d.reMark ?? "",
      } as unknown as Record<string, string>;
      lines.push([d.imei, ...EDIT_COLUMNS.map(([, f]) => String(values[f] ?? ""))]);
    }
    return await book(t("devices.sheet.editSheet"), [
      [t("devices.col.imei"), ...EDIT_COLUMNS.map(([k]) => t(`devices.col.${k}`))],
      ...lines,
    ]);
  }

  /** Applies an edited batch sheet row by row; a bad row does not stop the others. */
  async applyEdit(session: Session, file: Uint8Array, t: Translate): Promise<RowResult[]> {
    await this.devices.assertCanEdit(session);
    const rows = await readRows(file, t);
    if (rows.length > MAX_IMPORT) {
      throw new BizError("quantityLimitExceeded", { limit: MAX_IMPORT });
    }
    const results: RowResult[] = [];
    for (const r of rows) {
      const imei = r.cells[0];
      const result: RowResult = { row: r.row, imei, ok: false, reason: "" };
      results.push(result);
      const values = Object.fromEntries(EDIT_COLUMNS.map(([, f], i) => [f, r.cells[i + 1]]));
      const tooLong = EDIT_COLUMNS.find(([, f, max]) => values[f].length > max);
      if (tooLong) {
        result.reason = fieldError(t, tooLong[0], t("validation.tooLong", { max: tooLong[2] }));
        continue;
      }
      if (!values.deviceName) {
        result.reason = fieldError(t, "deviceName", t("validation.required"));
        continue;
      }
      if (!/^[0-9+]*$/.test(values.sim)) {
        result.reason = fieldError(t, "sim", t("validation.format.regex"));
        continue;
      }
      try {
        const [d] = await this.devices.visibleDevices(session, [imei]);
        const detail = await this.ops.loadDetail(imei);
        const basic = Object.fromEntries(
          Object.entries(values).filter(([k]) => BASIC_FIELDS.has(k)),
        );
        const customer = { ...detail.customer };
        for (const [k, v] of Object.entries(values)) {
          if (!BASIC_FIELDS.has(k)) (customer as Record<string, unknown>)[k] = v;
        }
        customer.carFrame = customer.carFrame.toUpperCase();
        // In a sheet the upload itself is the "save anyway": keep the row, say why.
        if (customer.carFrame && !VIN.test(customer.carFrame)) {
          result.warning = t("errors.vinFormatWarning");
        }
        await this.devices.save([{ before: d, after: { ...d, ...basic } }]);
        await this.ops.saveCustomer(imei, customer);
        result.ok = true;
      } catch (e) {
        result.reason = e instanceof BizError
          ? t(`errors.${e.key}`, { ...e.params, imei })
          : String(e);
      }
    }
    return results;
  }
}

const fieldError = (t: Translate, column: string, reason: string) =>
  t("errors.illegalParameter", { field: t(`devices.col.${column}`), reason });

/** A one-sheet workbook: bold header row, IMEIs (first column) kept as text. */
export async function book(sheet: string, rows: string[][]): Promise<Uint8Array<ArrayBuffer>> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet(sheet);
  for (const r of rows) ws.addRow(r);
  ws.getRow(1).font = { bold: true };
  ws.columns.forEach((c) => (c.width = 20));
  // IMEIs are text: keep Excel from turning 15 digits into a rounded number.
  ws.getColumn(1).numFmt = "@";
  return new Uint8Array(await wb.xlsx.writeBuffer() as ArrayBuffer);
}

/** Data rows (header skipped) as trimmed strings; empty rows dropped. */
async function readRows(file: Uint8Array, t: Translate) {
  // An xlsx is a zip and exceljs inflates it whole: check it within limits first.
  try {
    checkArchive(file, XLSX_LIMITS);
  } catch (e) {
    if (!(e instanceof ArchiveInvalid)) throw e;
    throw new BizError("spreadsheetInvalid", { reason: t("devices.sheet.notXlsx") });
  }
  const wb = new ExcelJS.Workbook();
  try {
    await wb.xlsx.load(
      file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength) as ArrayBuffer,
    );
  } catch (e) {
    throw new BizError("spreadsheetInvalid", { reason: (e as Error).message.slice(0, 100) });
  }
  const ws = wb.worksheets[0];
  if (!ws) throw new BizError("spreadsheetInvalid", { reason: t("devices.sheet.noSheet") });
  const out: { row: number; cells: string[] }[] = [];
  ws.eachRow((row, n) => {
    if (n === 1) return;
    const cells = Array.from(
      { length: EDIT_COLUMNS.length + 1 },
      (_, i) => cellText(row.getCell(i + 1).value),
    );
    if (cells.some(Boolean)) out.push({ row: n, cells });
  });
  return out;
}

function cellText(v: ExcelJS.CellValue): string {
  if (v === null || v === undefined) return "";
  if (typeof v === "object") {
    if ("text" in v && typeof v.text === "string") return v.text.trim();
    if ("result" in v) return String(v.result ?? "").trim();
    if ("richText" in v) return v.richText.map((p) => p.text).join("").trim();
    if (v instanceof Date) return v.toISOString().slice(0, 10);
  }
  // Large numbers: Excel stores typed IMEIs as numbers; print them without exponent.
  return typeof v === "number" ? BigInt(Math.round(v)).toString() : String(v).trim();
}
