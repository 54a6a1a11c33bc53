/**
 * An export as PDF: the table goes to a worker (pdf_worker.ts) that renders it with pdfkit
 * and a CJK font, one worker per file, ended when it answers.
 */
import { pdfFont } from "./font.ts";
import type { PdfJob } from "./pdf_worker.ts";
import type { ExportTable } from "./table.ts";

export const PDF_TYPE = "application/pdf";

export async function writePdf(table: ExportTable, pageLabel: string): Promise<Uint8Array> {
  const font = await pdfFont();
  const worker = new Worker(new URL("./pdf_worker.ts", import.meta.url).href, { type: "module" });
  try {
    return await new Promise<Uint8Array>((resolve, reject) => {
      worker.onmessage = (e: MessageEvent<{ bytes?: Uint8Array; error?: string }>) =>
        e.data.bytes ? resolve(e.data.bytes) : reject(new Error(`pdf worker: ${e.data.error}`));
      worker.onerror = (e) => {
        e.preventDefault();
        reject(new Error(`pdf worker: ${e.message}`));
      };
      const job: PdfJob = { table, font, pageLabel };
      worker.postMessage(job);
    });
  } finally {
    worker.terminate();
  }
}
