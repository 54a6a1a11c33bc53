/**
 * Lays an export table out as PDF pages with pdfkit: landscape A4, a title, the header row
 * repeated on every page, group headers in bold, the totals line and the cut note, page
 * numbers. Runs inside the file worker (file_worker.ts), never on the server's main thread.
 */
import PDFDocument from "pdfkit";
import { Buffer } from "node:buffer";
import type { ExportTable } from "./table.ts";
import type { PdfFont } from "./font.ts";

const MARGIN = 28;
const FONT_SIZE = 7.5;
const ROW_H = 11;
/** Two lines: a header wraps inside its column instead of being cut. */
const HEAD_H = 24;

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
  const fontBytes = await fontFile(font.path);
  if (font.face) doc.registerFont("cjk", fontBytes, font.face);
  else doc.registerFont("cjk", fontBytes);
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
  // Cells are clipped to their column before drawing, with each character's width measured
  // once: much cheaper than pdfkit measuring and wrapping every cell.
  doc.fontSize(FONT_SIZE);
  const widths = new Map<number, number>();
  const charWidth = (code: number): number => {
    const known = widths.get(code);
    if (known !== undefined) return known;
    const w = doc.widthOfString(String.fromCharCode(code));
    widths.set(code, w);
    return w;
  };
  const fits = ws.map((w) => w - 4);

  let page = 1, y = MARGIN;
  const cell = (text: string, col: number, yy: number) =>
    doc.text(clip(text, fits[col], charWidth), xs[col] + 2, yy, { lineBreak: false });
  const header = () => {
    doc.fontSize(FONT_SIZE).fillColor("#222");
    doc.rect(MARGIN, y, width, HEAD_H).fill("#e8edf3").fillColor("#222");
    table.headers.forEach((h, i) =>
      doc.text(h, xs[i] + 2, y + 1, { width: ws[i] - 4, height: HEAD_H, ellipsis: true })
    );
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

/** Font files read once per worker (the CJK collection is ~20 MB: not re-read per PDF). */
const fontFiles = new Map<string, Promise<Buffer>>();
function fontFile(path: string): Promise<Buffer> {
  let file = fontFiles.get(path);
  if (!file) {
    file = Deno.readFile(path).then((b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength));
    fontFiles.set(path, file);
    file.catch(() => fontFiles.delete(path));
  }
  return file;
}

/** Cuts text to fit `max` points (character widths from `charWidth`), ending it with "…". */
export function clip(text: string, max: number, charWidth: (code: number) => number): string {
  let width = 0;
  for (let i = 0; i < text.length; i++) {
    width += charWidth(text.charCodeAt(i));
    if (width > max) return text.slice(0, Math.max(0, i - 1)) + "…";
  }
  return text;
}
