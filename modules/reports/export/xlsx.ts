/**
 * An export as xlsx (exceljs's streaming writer: rows are committed as they are added, so a
 * 30,000-row sheet never sits in memory as cell objects). Runs in the file worker
 * (file_worker.ts); the loop still yields every few hundred rows, wherever it runs.
 */
import ExcelJS from "exceljs";
import { Buffer } from "node:buffer";
import { PassThrough } from "node:stream";
import type { ExportTable } from "./table.ts";

export const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

const YIELD_EVERY = 200;
const yieldToLoop = () => new Promise<void>((r) => setTimeout(r, 0));

export async function writeXlsx(table: ExportTable): Promise<Uint8Array> {
  const stream = new PassThrough();
  const parts: Uint8Array[] = [];
  stream.on("data", (b: Uint8Array) => parts.push(b));
  const ended = new Promise<void>((resolve, reject) => {
    stream.on("end", resolve);
    stream.on("error", reject);
  });
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream,
    useStyles: true,
    useSharedStrings: false,
  });
  // Sheet names: at most 31 characters, none of []:*?/\.
  const sheet = book.addWorksheet(
    table.title.replace(/[[\]:*?/\\]/g, " ").slice(0, 31) || "Report",
    {
      views: [{ state: "frozen", ySplit: 1 }],
    },
  );
  sheet.columns = table.headers.map((h, i) => ({
    header: h,
    width: Math.min(60, Math.max(10, Math.round(table.widths[i] * 9), h.length + 2)),
  }));
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();
  let n = 0;
  for (const line of table.lines) {
    if (line.kind === "group") {
      const row = sheet.addRow([line.label]);
      row.font = { bold: true };
      row.commit();
    } else sheet.addRow(line.cells).commit();
    if (++n % YIELD_EVERY === 0) await yieldToLoop();
  }
  if (table.totals) {
    const row = sheet.addRow(table.totals);
    row.font = { bold: true };
    row.commit();
  }
  if (table.note) {
    const row = sheet.addRow([table.note]);
    row.font = { italic: true };
    row.commit();
  }
  sheet.commit();
  await book.commit();
  await ended;
  return new Uint8Array(Buffer.concat(parts));
}
