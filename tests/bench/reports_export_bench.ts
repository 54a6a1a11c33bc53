/**
 * `deno task bench:export` — the report export's file writers on 5,000 trip rows (Chinese and
 * Latin addresses, every column filled): table layout in the user's units and zone (server
 * thread, yielding), then csv (server thread), xlsx (exceljs streaming writer) and pdf (pdfkit,
 * Noto Sans CJK) in the file worker. While each file is written a 5 ms setInterval probe
 * measures the longest event-loop stall of the server's thread. Targets (issue 17): xlsx ≤ 2 s; pdf ≤ 5 s, loop never
 * blocked over 50 ms. Each format runs 5 times: the median and every run are printed (on a
 * shared 2-core machine other processes delay timers too: the idle baseline shows how much).
 */
import type { ReportName } from "../../modules/reports/model.ts";
import { translator } from "../../lib/i18n/i18n.ts";
import { buildTable } from "../../modules/reports/export/table.ts";
import { stopFileWorker, writeInWorker } from "../../modules/reports/export/render.ts";
import { writeCsv } from "../../modules/reports/export/csv.ts";
import { pdfFont } from "../../modules/reports/export/font.ts";

const ROWS = 5_000;
const RUNS = 5;

function tripRows(n: number): Record<string, unknown>[] {
  const t0 = Date.parse("2026-10-01T00:00:00Z");
  return Array.from({ length: n }, (_, i) => ({
    imei: `35971004900${String(i % 200).padStart(4, "0")}`,
    deviceName: i % 3 ? `Truck ${i % 200}` : `货车 ${i % 200}`,
    startTime: new Date(t0 + i * 600_000).toISOString(),
    endTime: new Date(t0 + i * 600_000 + 420_000).toISOString(),
    startAddress: i % 2
      ? "广东省深圳市南山区科技园南路 18 号"
      : "12 Harbour Road, Wan Chai, Hong Kong",
    endAddress: i % 2 ? "3 km NE of Bao'an, Guangdong, CN" : "深圳湾公园",
    distance: 3.2 + (i % 50) * 0.731,
    duration: 420 + (i % 17),
    avgSpeed: 38.5 + (i % 9),
    maxSpeed: 71 + (i % 30),
    fuelUsed: i % 4 ? 0.42 + (i % 7) / 10 : null,
    harshAcceleration: i % 5,
    harshBraking: i % 3,
  }));
}

/** Longest gap between 5 ms ticks while `work` runs, less the 5 ms period. */
async function withLoopProbe<T>(work: () => Promise<T>): Promise<{ value: T; maxStallMs: number }> {
  let last = performance.now(), max = 0;
  const probe = setInterval(() => {
    const now = performance.now();
    max = Math.max(max, now - last - 5);
    last = now;
  }, 5);
  try {
    const value = await work();
    // A synchronous tail (or a wholly synchronous writer) shows only here.
    max = Math.max(max, performance.now() - last - 5);
    return { value, maxStallMs: max };
  } finally {
    clearInterval(probe);
  }
}

const report: ReportName = "trips";
const rows = tripRows(ROWS);
const t = translator("zh");
const table = () =>
  buildTable({
    report,
    params: {},
    rows,
    total: rows.length,
    prefs: {
      distance: "mi",
      speed: "mph",
      volume: "GAL",
      timeZone: "Asia/Shanghai",
      yes: "是",
      no: "否",
    },
    t: (k, p) => t(k, p ?? {}),
    subtitle: "2026-10-01 – 2026-10-31",
  });

// The same probe over an idle second: what the machine itself adds (other processes on a
// shared machine delay timers too), to read the figures below against.
const idle = await withLoopProbe(() => new Promise((r) => setTimeout(r, 1000)));
console.log(`idle baseline: longest event-loop stall ${idle.maxStallMs.toFixed(1)} ms in 1 s`);
const font = await pdfFont();
// The server keeps one PDF worker while PDFs come; its start (~0.5 s) is measured apart.
const warm = performance.now();
await writeInWorker("pdf", await table(), "{{page}}");
const warmMs = performance.now() - warm;
console.log(`${ROWS} trip rows, zh, mi/mph/GAL, Asia/Shanghai; pdf font ${font.path}`);
console.log(`first pdf (worker start, pdfkit and font load included): ${warmMs.toFixed(0)} ms`);
for (const format of ["csv", "xlsx", "pdf"] as const) {
  const times: number[] = [], stalls: number[] = [];
  let bytes = 0;
  for (let run = 0; run < RUNS; run++) {
    const start = performance.now();
    const { value, maxStallMs } = await withLoopProbe(async () => {
      const tb = await table();
      return format === "csv"
        ? await writeCsv(tb)
        : format === "xlsx"
        ? await writeInWorker("xlsx", tb)
        : await writeInWorker("pdf", tb, "第 {{page}} 页");
    });
    times.push(performance.now() - start);
    stalls.push(maxStallMs);
    bytes = value.length;
  }
  const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
  const runs = times.map((t, i) => `${t.toFixed(0)}/${stalls[i].toFixed(0)}`).join(", ");
  console.log(
    `${format.padEnd(4)} ${ROWS} rows, ${(bytes / 1024).toFixed(0)} KiB: median ` +
      `${median(times).toFixed(0)} ms, longest stall median ${median(stalls).toFixed(1)} ms ` +
      `(runs, ms/stall ms: ${runs})`,
  );
}
stopFileWorker();
