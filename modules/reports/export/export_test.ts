import assert from "node:assert/strict";
import { BizError } from "../../../lib/errors.ts";
import { translator } from "../../../lib/i18n/i18n.ts";
import { cellConverter, type ExportPrefs, formatDuration, timeFormatter } from "./cells.ts";
import { writeCsv } from "./csv.ts";
import { findFont, NPM_FONT_PACKAGE } from "./font.ts";
import { renderPdf } from "./pdf_layout.ts";
import { buildTable } from "./table.ts";

const prefs: ExportPrefs = {
  distance: "mi",
  speed: "knot",
  volume: "GAL",
  timeZone: "America/New_York",
  yes: "Yes",
  no: "No",
};
const en = translator("en");
const t = (k: string, p?: Record<string, unknown>) => en(k, p ?? {});

Deno.test("cells: the user's units, zone (daylight saving included) and H:MM:SS durations", () => {
  const cell = cellConverter(prefs);
  assert.equal(cell("distance", 16.09344), 10);
  assert.equal(cell("speed", 18.52), 10);
  assert.equal(cell("volume", 37.85411784), 10);
  assert.equal(cell("time", "2026-07-01T16:00:00Z"), "2026-07-01 12:00:00"); // EDT, UTC-4
  assert.equal(cell("time", "2026-12-01T16:00:00Z"), "2026-12-01 11:00:00"); // EST, UTC-5
  assert.equal(cell("boolean", true), "Yes");
  assert.equal(cell("boolean", 0), "No");
  assert.equal(cell("coordinate", 22.5412345678), 22.541235);
  assert.equal(cell("text", null), "");
  assert.equal(formatDuration(90_061), "25:01:01");
  // The day of the switch back to EST: 01:30 happens twice.
  const ny = timeFormatter("America/New_York");
  assert.equal(ny("2026-11-01T05:30:00Z"), "2026-11-01 01:30:00");
  assert.equal(ny("2026-11-01T06:30:00Z"), "2026-11-01 01:30:00");
  assert.equal(ny("2026-11-01T07:30:00Z"), "2026-11-01 02:30:00");
});

const rows = [
  { imei: "359710049000001", deviceName: 'Van "7", north', startTime: "2026-11-02T08:00:00Z" },
  { imei: "359710049000002", deviceName: "=HYPERLINK(1)", startTime: "2026-11-02T09:00:00Z" },
].map((r) => ({ ...r, endTime: r.startTime, duration: 3600, address: "Line 1\nLine 2" }));

Deno.test("csv: BOM, quoted commas, quotes and line breaks, formulas neutralised, cut note", async () => {
  const table = await buildTable({
    report: "parking",
    params: {},
    rows,
    total: 7,
    prefs,
    t,
    subtitle: "",
  });
  const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(await writeCsv(table));
  assert.ok(text.startsWith("\uFEFFDevice name,IMEI,Start time,End time,Duration,Address\r\n"));
  assert.ok(text.includes(`"Van ""7"", north",359710049000001,2026-11-02 03:00:00,`));
  assert.ok(text.includes(`'=HYPERLINK(1),`));
  assert.ok(text.includes(`"Line 1\nLine 2"`));
  assert.ok(text.includes("\r\nTotal,,,,2:00:00,\r\n"));
  assert.ok(text.endsWith("\r\n… first 2 rows of 7: an export holds at most 2 rows.\r\n"));
});

Deno.test("grouped tables: one header per account with its row count, accounts sorted", async () => {
  const table = await buildTable({
    report: "parking",
    params: {},
    rows: [...rows, { ...rows[0], imei: "359710049000003" }],
    total: 3,
    prefs,
    t,
    accountOf: (imei) => (imei.endsWith("2") ? "alpha" : "beta"),
    subtitle: "",
  });
  assert.deepEqual(
    table.lines.map((l) => (l.kind === "group" ? l.label : l.cells[1])),
    [
      "Account: alpha (1 rows)",
      "359710049000002",
      "Account: beta (2 rows)",
      "359710049000001",
      "359710049000003",
    ],
  );
  assert.equal(table.note, null);
});

Deno.test("the pdf font: a clear catalogue refusal when no font can be had", async () => {
  await assert.rejects(
    findFont(
      [{ path: "/nonexistent/NotoSansCJK-Regular.ttc", face: "NotoSansCJKsc-Regular" }],
      null,
    ),
    (e) => e instanceof BizError && e.key === "pdfFontMissing",
  );
  assert.match(
    translator("en")("errors.pdfFontMissing"),
    /install fonts-noto-cjk/,
  );
});

Deno.test({
  name: "the pdf font: without Debian's font, Noto Sans SC from npm renders Chinese",
  sanitizeResources: false,
  fn: async () => {
    const font = await findFont([{ path: "/nonexistent/x.ttc", face: "x" }], NPM_FONT_PACKAGE);
    assert.match(font.path, /NotoSansSC_400Regular\.ttf$/);
    assert.equal(font.face, null);
    const table = await buildTable({
      report: "parking",
      params: {},
      rows,
      total: 2,
      prefs,
      t: (k, p) => translator("zh")(k, p ?? {}),
      subtitle: "停车",
    });
    const pdf = new TextDecoder("latin1").decode(await renderPdf(table, font, (n) => `${n}`));
    assert.ok(pdf.startsWith("%PDF-"));
    assert.match(pdf, /\/BaseFont \/[A-Z]{6}\+NotoSansSC-Regular/);
  },
});
