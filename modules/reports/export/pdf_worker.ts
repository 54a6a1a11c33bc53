/**
 * The PDF worker: renders export tables and posts the bytes back, so the seconds pdfkit
 * spends on a large report never block the server's event loop. A table arrives in parts
 * (its lines in slices, so no single copy between threads is long): "start" with everything
 * but the lines, "lines" any number of times, then "end"; the answer is {bytes} or {error}.
 */
/// <reference lib="deno.worker" />
import { renderPdf } from "./pdf_layout.ts";
import type { PdfFont } from "./font.ts";
import type { ExportTable, TableLine } from "./table.ts";

export type PdfMessage =
  | {
    kind: "start";
    table: Omit<ExportTable, "lines">;
    font: PdfFont;
    /** The page label with "{{page}}" in place of the number. */
    pageLabel: string;
  }
  | { kind: "lines"; lines: TableLine[] }
  | { kind: "end" };

let job: Extract<PdfMessage, { kind: "start" }> | null = null;
let lines: TableLine[] = [];

self.onmessage = async (e: MessageEvent<PdfMessage>) => {
  const m = e.data;
  if (m.kind === "start") [job, lines] = [m, []];
  else if (m.kind === "lines") lines.push(...m.lines);
  else if (job) {
    const { table, font, pageLabel } = job;
    job = null;
    try {
      const bytes = await renderPdf(
        { ...table, lines },
        font,
        (n) => pageLabel.replace("{{page}}", String(n)),
      );
      self.postMessage({ bytes }, [bytes.buffer]);
    } catch (err) {
      self.postMessage({ error: err instanceof Error ? err.stack ?? err.message : String(err) });
    } finally {
      lines = [];
    }
  }
};
