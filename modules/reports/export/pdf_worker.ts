/**
 * The PDF worker: renders one export table per message and posts the bytes back, so the
 * seconds pdfkit spends on a large report never block the server's event loop.
 * Message in: {table, font, pageLabel}; out: {bytes} or {error}.
 */
/// <reference lib="deno.worker" />
import { renderPdf } from "./pdf_layout.ts";
import type { PdfFont } from "./font.ts";
import type { ExportTable } from "./table.ts";

export interface PdfJob {
  table: ExportTable;
  font: PdfFont;
  /** The page label with "{{page}}" in place of the number. */
  pageLabel: string;
}

self.onmessage = async (e: MessageEvent<PdfJob>) => {
  try {
    const { table, font, pageLabel } = e.data;
    const bytes = await renderPdf(table, font, (n) => pageLabel.replace("{{page}}", String(n)));
    self.postMessage({ bytes }, [bytes.buffer]);
  } catch (err) {
    self.postMessage({ error: err instanceof Error ? err.stack ?? err.message : String(err) });
  }
};
