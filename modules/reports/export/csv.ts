/** An export as CSV: UTF-8 with a BOM (so Excel reads Chinese), RFC 4180 quoting, CRLF. */
import type { Cell } from "./cells.ts";
import type { ExportTable } from "./table.ts";

export const CSV_TYPE = "text/csv; charset=utf-8";

function field(value: Cell): string {
  const s = String(value);
  // Formula-looking text is prefixed so a spreadsheet shows it instead of running it.
  const safe = /^[=+\-@\t\r]/.test(s) && typeof value === "string" && !/^-?\d/.test(s)
    ? `'${s}`
    : s;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** Lines joined between two yields to the event loop. */
const LINES_PER_SLICE = 500;

export async function writeCsv(table: ExportTable): Promise<Uint8Array> {
  const out: string[] = ["\uFEFF" + table.headers.map(field).join(",")];
  for (const line of table.lines) {
    out.push(line.kind === "group" ? field(line.label) : line.cells.map(field).join(","));
    if (out.length % LINES_PER_SLICE === 0) await new Promise((r) => setTimeout(r, 0));
  }
  if (table.totals) out.push(table.totals.map(field).join(","));
  if (table.note) out.push(field(table.note));
  return new TextEncoder().encode(out.join("\r\n") + "\r\n");
}
