/**
 * Lays an export table out as PDF pages with pdfkit: landscape A4, a title, the header row
 * repeated on every page, group headers in bold, the totals line and the cut note, page
 * numbers. Runs inside the PDF worker (pdf_worker.ts), never on the server's main thread.
 */
import PDFDocument from "pdfkit";
import { Buffer } from "node:buffer";
import type { ExportTable } from "./table.ts";
import type { PdfFont } from "./font.ts";

const MARGIN = 28;
const FONT_SIZE = 7.5;
const ROW_H = 11;
const HEAD_H = 14;

export async function renderPdf(
  table: ExportTable,
  font: PdfFont,
  pageLabel: (page: number) => string,
): Promise<Uint8Array> {
  const doc = new PDFDocument({
    size: "A4",
    layout: "landscape",
    margin: MARGIN,
    autoFirstPage: true,
  });
  const parts: Uint8Array[] = [];
  doc.on("data", (b: Uint8Array) => parts.push(b));
  const ended = new Promise<void>((r) => doc.on("end", () => r()));
  const fontBytes = await Deno.readFile(font.path);
  if (font.face) doc.registerFont("cjk", Buffer.from(fontBytes), font.face);
  else doc.registerFont("cjk", Buffer.from(fontBytes));
  doc.font("cjk");

  const width = doc.page.width - 2 * MARGIN;
  const bottom = doc.page.height - MARGIN - ROW_H;
  const sum = table.widths.reduce((a, b) => a + b, 0);
  const xs: number[] = [], ws: number[] = [];
  let x = MARGIN;
  for (const w of table.widths) {
    xs.push(x);
    ws.push((w / sum) * width);
    x += (w / sum) * width;
  }
  // Characters that fit a column at this size (CJK counts double): clip before drawing,
  // which is much cheaper than letting pdfkit measure and wrap every cell.
  const fits = ws.map((w) => Math.max(3, Math.floor((w - 4) / (FONT_SIZE * 0.52))));

  let page = 1, y = MARGIN;
  const cell = (text: string, col: number, yy: number) =>
    doc.text(clip(text, fits[col]), xs[col] + 2, yy, { lineBreak: false });
  const header = () => {
    doc.fontSize(FONT_SIZE).fillColor("#222");
    doc.rect(MARGIN, y, width, HEAD_H).fill("#e8edf3").fillColor("#222");
    table.headers.forEach((h, i) => cell(h, i, y + 3));
    y += HEAD_H;
  };
  const footer = () => {
    doc.fontSize(7).fillColor("#777")
      .text(pageLabel(page), MARGIN, doc.page.height - MARGIN + 6, { lineBreak: false });
  };
  const room = () => {
    if (y <= bottom) return;
    footer();
    doc.addPage();
    page++;
    y = MARGIN;
    header();
  };

  doc.fontSize(13).fillColor("#111").text(table.title, MARGIN, y, { lineBreak: false });
  y += 18;
  doc.fontSize(8).fillColor("#555").text(table.subtitle, MARGIN, y, { lineBreak: false });
  y += 14;
  header();
  doc.fontSize(FONT_SIZE);
  for (const line of table.lines) {
    room();
    if (line.kind === "group") {
      doc.fillColor("#0b4f8a").text(line.label, MARGIN + 2, y + 2, { lineBreak: false });
      doc.fillColor("#222");
    } else {
      for (let i = 0; i < line.cells.length; i++) cell(String(line.cells[i]), i, y + 2);
    }
    y += ROW_H;
  }
  if (table.totals) {
    room();
    doc.fillColor("#000");
    table.totals.forEach((v, i) => cell(String(v), i, y + 2));
    y += ROW_H;
  }
  if (table.note) {
    room();
    doc.fillColor("#8a3b0b").text(table.note, MARGIN + 2, y + 2, { lineBreak: false });
  }
  footer();
  doc.end();
  await ended;
  return new Uint8Array(Buffer.concat(parts));
}

/** Cuts text to about `max` columns (CJK and other wide characters count two), with "…". */
export function clip(text: string, max: number): string {
  let cols = 0;
  for (let i = 0; i < text.length; i++) {
    cols += text.charCodeAt(i) > 0x2e7f ? 2 : 1;
    if (cols > max) return text.slice(0, Math.max(0, i - 1)) + "…";
  }
  return text;
}
