/**
 * `deno run -A tests/bench/report_queries_bench.ts --reuse DIR` — every report query of
 * modules/reports timed in process (ReportService, as the API route calls it) over the data
 * `deno task bench:reports --keep DIR` generated: 200 devices × 31 days at 30 s, three months
 * of day summaries. Each report over all devices at its longest range (trackDetails: 7 days),
 * first page of 20 with its total, and the last page; the cold run and the median of the rest.
 */
import { loadConfig } from "../../lib/config.ts";
import { compose } from "../../app/compose.ts";
import type { Session } from "../../lib/http/env.ts";
import { addDays, DAY_MS, dayOf, dayStart } from "../../modules/motion/days.ts";
import type { ReportName } from "../../modules/reports/model.ts";
import { REPORT_BODIES } from "../../modules/reports/schemas.ts";

const args = Object.fromEntries(
  Deno.args.flatMap((a, i) => (a.startsWith("--") ? [[a.slice(2), Deno.args[i + 1]]] : [])),
);
if (!args.reuse) throw new Error("--reuse DIR (data of deno task bench:reports --keep DIR)");
const RUNS = Number(args.runs ?? 5);
const config = loadConfig({
  DATA_DIR: args.reuse,
  ADMIN_PASSWORD: "Admin12345",
  ALERT_ENGINE: "off",
  // The stored analysis alone: what a report reads once the engine has flushed.
  MOTION_ANALYSIS: "off",
});
const kv = await Deno.openKv(`${args.reuse}/tracking.kv`);
const s = await compose(kv, config);
const adminId = (await s.accountStore.findIdByLogin("admin"))!;
const session: Session = {
  accountId: adminId,
  cAccountId: adminId,
  isVirtual: false,
  jti: "bench",
  via: "bearer",
};
const imeis = s.directory.ownedBy(adminId).map((d) => d.imei).slice(0, 200);
const lastDay = addDays(dayOf(Date.now()), -1);
const to = dayStart(lastDay) + DAY_MS - 1;
const iso = (ms: number) => new Date(ms).toISOString();

async function time(label: string, name: ReportName, days: number, extra = {}) {
  const body = REPORT_BODIES[name].parse({
    imeis,
    startTime: iso(to + 1 - days * DAY_MS),
    endTime: iso(to),
    pageSize: 20,
    ...extra,
  });
  const runs: number[] = [];
  let total = 0;
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    total = (await s.reports.run(session, "en", name, body)).total;
    runs.push(performance.now() - t);
  }
  const lastPage = Math.max(1, Math.ceil(total / 20));
  const t = performance.now();
  await s.reports.run(session, "en", name, { ...body, pageNum: lastPage });
  const last = performance.now() - t;
  const median = runs.slice(1).sort((a, b) => a - b)[Math.floor((runs.length - 1) / 2)] ?? runs[0];
  console.log(
    `${label.padEnd(40)} total ${String(total).padStart(8)}  page 1: cold ${
      runs[0].toFixed(0).padStart(5)
    } ms, median ${median.toFixed(0).padStart(5)} ms; last page ${last.toFixed(0)} ms`,
  );
}

console.log(`${imeis.length} devices, ranges ending ${lastDay}`);
try {
  await time("trips, 31 days", "trips", 31);
  await time("parking, 31 days", "parking", 31);
  await time("idling, 31 days", "idling", 31);
  await time("mileage day view, 92 days", "mileage", 92, { view: "day" });
  await time("mileage segment view, 31 days", "mileage", 31, { view: "segment" });
  await time("overspeed (precomputed), 31 days", "overspeed", 31);
  // Below the usual speeds (the generated drives go 40-80 km/h): nearly every trip is read.
  await time("overspeed speedLimit 75, 7 days", "overspeed", 7, { speedLimit: 75 });
  await time("overspeed speedLimit 90, 7 days", "overspeed", 7, { speedLimit: 90 });
  await time("ignition, 31 days", "ignition", 31);
  await time("trackDetails, 7 days", "trackDetails", 7);
  await time("vehicleStatus, 31 days", "vehicleStatus", 31);
  for (
    const [label, run] of [
      ["overview moving, 31 days", () =>
        s.reportOverviews.moving(session, {
          imeis,
          startTime: iso(to + 1 - 31 * DAY_MS),
          endTime: iso(to),
        })],
      ["overview device", () => s.reportOverviews.device(session)],
    ] as const
  ) {
    const t = performance.now();
    await run();
    console.log(`${label.padEnd(40)} ${(performance.now() - t).toFixed(0)} ms`);
  }
} finally {
  await s.ingestor.close();
  await s.motion.close();
  kv.close();
}
