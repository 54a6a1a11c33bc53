/**
 * xlsx and pdf files are written by a worker (file_worker.ts): exceljs and pdfkit spend
 * seconds and make much garbage on a large export, none of which may reach the server's
 * thread. One worker writes the files one at a time and is kept while exports keep coming
 * (starting one and loading pdfkit and the font costs ~0.5 s); it ends after
 * FILE_WORKER_IDLE_MS without work.
 */
import { type PdfFont, pdfFont } from "./font.ts";
import type { FileMessage } from "./file_worker.ts";
import type { ExportTable } from "./table.ts";

export const PDF_TYPE = "application/pdf";
const FILE_WORKER_IDLE_MS = 120_000;
/** Table lines per message to the worker (copying 1,000 lines takes a few ms). */
const LINES_PER_MESSAGE = 1_000;

let worker: Worker | null = null;
let idleTimer: ReturnType<typeof setTimeout> | undefined;
/** Files are written one after another: each waits for the one before. */
let queue: Promise<unknown> = Promise.resolve();

/** The table as an xlsx workbook, or as a PDF with a CJK font (`pageLabel` has "{{page}}"). */
export function writeInWorker(
  format: "xlsx" | "pdf",
  table: ExportTable,
  pageLabel = "",
): Promise<Uint8Array> {
  const job = queue.then(async () =>
    render(format, table, format === "pdf" ? await pdfFont() : null, pageLabel)
  );
  queue = job.catch(() => {});
  return job;
}

/** Ends the worker now (tests, shutdown); the next file starts a new one. */
export function stopFileWorker(): void {
  clearTimeout(idleTimer);
  worker?.terminate();
  worker = null;
}

async function render(
  format: "xlsx" | "pdf",
  table: ExportTable,
  font: PdfFont | null,
  pageLabel: string,
): Promise<Uint8Array> {
  clearTimeout(idleTimer);
  const w = worker ??= new Worker(new URL("./file_worker.ts", import.meta.url).href, {
    type: "module",
  });
  const answer = new Promise<Uint8Array>((resolve, reject) => {
    w.onmessage = (e: MessageEvent<{ bytes?: Uint8Array; error?: string }>) => {
      if (e.data.bytes) resolve(e.data.bytes);
      else reject(new Error(`file worker: ${e.data.error}`));
    };
    w.onerror = (e) => {
      e.preventDefault();
      stopFileWorker(); // a crashed worker is not reused
      reject(new Error(`file worker: ${e.message}`));
    };
  });
  answer.catch(() => {}); // settled while the lines are still being sent: awaited below
  const { lines, ...rest } = table;
  const send = (m: FileMessage) => w.postMessage(m);
  send({ kind: "start", format, table: rest, font, pageLabel });
  for (let i = 0; i < lines.length; i += LINES_PER_MESSAGE) {
    send({ kind: "lines", lines: lines.slice(i, i + LINES_PER_MESSAGE) });
    await new Promise((r) => setTimeout(r, 0));
  }
  send({ kind: "end" });
  return await answer.finally(() => {
    if (worker !== w) return;
    const timer = setTimeout(stopFileWorker, FILE_WORKER_IDLE_MS);
    Deno.unrefTimer(timer as unknown as number); // an idle worker never keeps the process up
    idleTimer = timer;
  });
}
