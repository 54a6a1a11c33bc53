/**
 * An export as PDF: the table goes to a worker (pdf_worker.ts) that renders it with pdfkit
 * and a CJK font. One worker serves the PDFs one at a time and is kept while PDFs keep
 * coming (loading pdfkit and the font in a fresh worker costs ~0.5 s and briefly holds the
 * main thread too); it ends after PDF_WORKER_IDLE_MS without work.
 */
import { type PdfFont, pdfFont } from "./font.ts";
import type { PdfMessage } from "./pdf_worker.ts";
import type { ExportTable } from "./table.ts";

export const PDF_TYPE = "application/pdf";
const PDF_WORKER_IDLE_MS = 120_000;
/** Table lines per message to the worker (copying 1,000 lines takes a few ms). */
const LINES_PER_MESSAGE = 1_000;

let worker: Worker | null = null;
let idleTimer: ReturnType<typeof setTimeout> | undefined;
/** PDFs are rendered one after another: each waits for the one before. */
let queue: Promise<unknown> = Promise.resolve();

export function writePdf(table: ExportTable, pageLabel: string): Promise<Uint8Array> {
  const job = queue.then(async () => render(table, await pdfFont(), pageLabel));
  queue = job.catch(() => {});
  return job;
}

/** Ends the worker now (tests, shutdown); the next PDF starts a new one. */
export function stopPdfWorker(): void {
  clearTimeout(idleTimer);
  worker?.terminate();
  worker = null;
}

async function render(table: ExportTable, font: PdfFont, pageLabel: string): Promise<Uint8Array> {
  clearTimeout(idleTimer);
  const w = worker ??= new Worker(new URL("./pdf_worker.ts", import.meta.url).href, {
    type: "module",
  });
  const answer = new Promise<Uint8Array>((resolve, reject) => {
    w.onmessage = (e: MessageEvent<{ bytes?: Uint8Array; error?: string }>) => {
      if (e.data.bytes) resolve(e.data.bytes);
      else reject(new Error(`pdf worker: ${e.data.error}`));
    };
    w.onerror = (e) => {
      e.preventDefault();
      stopPdfWorker(); // a crashed worker is not reused
      reject(new Error(`pdf worker: ${e.message}`));
    };
  });
  answer.catch(() => {}); // settled while the lines are still being sent: awaited below
  const { lines, ...rest } = table;
  const send = (m: PdfMessage) => w.postMessage(m);
  send({ kind: "start", table: rest, font, pageLabel });
  for (let i = 0; i < lines.length; i += LINES_PER_MESSAGE) {
    send({ kind: "lines", lines: lines.slice(i, i + LINES_PER_MESSAGE) });
    await new Promise((r) => setTimeout(r, 0));
  }
  send({ kind: "end" });
  return await answer.finally(() => {
    if (worker !== w) return;
    const timer = setTimeout(stopPdfWorker, PDF_WORKER_IDLE_MS);
    Deno.unrefTimer(timer as unknown as number); // an idle worker never keeps the process up
    idleTimer = timer;
  });
}
