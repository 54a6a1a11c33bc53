/** File downloads answered by API routes (exports, templates). */

export const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/** An xlsx workbook the browser saves under `filename`. */
export function xlsxAttachment(bytes: BodyInit, filename: string): Response {
  return new Response(bytes, {
    headers: {
      "content-type": XLSX_TYPE,
      "content-disposition": `attachment; filename="${filename}"`,
    },
  });
}
