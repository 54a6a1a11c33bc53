/**
 * The export's file worker: writes xlsx (exceljs) and pdf (pdfkit, CJK font) files of export
 * tables and posts the bytes back, so neither the seconds of work nor the garbage of a large
 * file ever holds the server's event loop or its heap. A table arrives in parts (its lines
 * in slices, so no single copy between threads is long): "start" with everything but the
 * lines, "lines" any number of times, then "end"; the answer is {bytes} or {error}.
 */
/// <reference lib="deno.worker" />
import { renderPdf } from "./pdf_layout.ts";
import { writeXlsx } from "./xlsx.ts";
import type { PdfFont } from "./font.ts";
import type { ExportTable, TableLine } from "./table.ts";

export type FileMessage =
  | {
    kind: "start";
    format: "xlsx" | "pdf";
    table: Omit<ExportTable, "lines">;
    /** PDF only: the font, and the page label with "{{page}}" in place of the number. */
    font: PdfFont | null;
    pageLabel: string;
  }
  | { kind: "lines"; lines: TableLine[] }
  | { kind: "end" };

let job: Extract<FileMessage, { kind: "start" }> | null = null;
let lines: TableLine[] = [];

self.onmessage = async (e: MessageEvent<FileMessage>) => {
  const m = e.data;
  if (m.kind === "start") [job, lines] = [m, []];
  else if (m.kind === "lines") lines.push(...m.lines);
  else if (job) {
    const { format, table, font, pageLabel } = job;
    job = null;
    try {
      const full = { ...table, lines };
      const bytes = format === "xlsx"
        ? await writeXlsx(full)
        : await renderPdf(full, font!, (n) => pageLabel.replace("{{page}}", String(n)));
      self.postMessage({ bytes }, [bytes.buffer]);
    } catch (err) {
      self.postMessage({ error: err instanceof Error ? err.stack ?? err.message : String(err) });
    } finally {
      lines = [];
    }
  }
};
