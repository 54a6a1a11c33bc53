/**
 * `deno task bench:autoreport` — an automatic report of 200 devices, run and mailed.
 *
 * 1. Generates `--devices` devices × `--days` days (ending yesterday, UTC) of positions every
 *    `--interval` s through the store API, as bench:reports does: the points go to the
 *    position store and through the motion engine (trips, stops, day summaries).
 * 2. In process, with a real SMTP server on loopback (tests/helpers/smtp.ts) as SMTP_HOST:
 *    adds a weekly trips report and a daily mileage report for all devices (the
 *    administrator, zone UTC), and times "run now" of each from the call to the mail's
 *    arrival (report through the export as the owner, xlsx written by the file worker, the
 *    task centre's file, the mail with the attachment). Target: ≤ 10 s for 200 devices.
 * 3. Times the cron's tick over `--records` auto reports none of which is due (the scan every
 *    minute costs).
 *
 * `--keep DIR` keeps the data in DIR; `--reuse DIR` skips generation.
 */
import { loadConfig } from "../../lib/config.ts";
import { compose, type Services } from "../../app/compose.ts";
import type { Session } from "../../lib/http/env.ts";
import { ensureAdministrator } from "../../modules/accounts/bootstrap.ts";
import type { StoredPosition } from "../../modules/devices/model.ts";
import { addDays, dayOf, dayStart } from "../../modules/motion/days.ts";
import { AutoReportStore } from "../../modules/autoreports/store.ts";
import { stopFileWorker } from "../../modules/reports/export/render.ts";
import { mailAttachments } from "../helpers/mail_parts.ts";
import { smtpEnv, startSmtp } from "../helpers/smtp.ts";
import { DeviceDays } from "./vehicle_days.ts";

const opt: Record<string, string | undefined> = {
  devices: "200",
  days: "8",
  interval: "60",
  concurrency: "4",
  records: "2000",
  keep: undefined,
  reuse: undefined,
};
for (let i = 0; i < Deno.args.length; i += 2) {
  const name = Deno.args[i].replace(/^--/, "");
  if (!(name in opt)) throw new Error(`unknown option --${name}`);
  opt[name] = Deno.args[i + 1];
}
const DEVICES = Number(opt.devices), DAYS = Number(opt.days), INTERVAL_S = Number(opt.interval);
const PASSWORD = "Admin12345";
const LAST_DAY = addDays(dayOf(Date.now()), -1);
const FIRST_DAY = addDays(LAST_DAY, -(DAYS - 1));
const IMEIS = Array.from({ length: DEVICES }, (_, i) => `86300${String(i).padStart(10, "0")}`);

const dir = opt.reuse ?? opt.keep ?? await Deno.makeTempDir({ prefix: "tp-bench-autoreport-" });
if (opt.keep) await Deno.mkdir(dir, { recursive: true });

async function open(env: Record<string, string> = {}) {
  const config = loadConfig({
    DATA_DIR: dir,
    ADMIN_PASSWORD: PASSWORD,
    ALERT_ENGINE: "off",
    ...env,
  });
  const kv = await Deno.openKv(`${dir}/tracking.kv`);
  const s = await compose(kv, config);
  await ensureAdministrator(s.accountStore, PASSWORD);
  const close = async () => {
    await s.ingestor.close();
    await s.motion.close();
    kv.close();
  };
  return { s, kv, close };
}

async function generate(): Promise<void> {
  const { s, close } = await open();
  const adminId = (await s.accountStore.findIdByLogin("admin"))!;
  const now = new Date().toISOString();
  await s.deviceStore.insertMany(IMEIS.map((imei, i) => ({
    imei,
    mcType: "GT06N",
    userId: adminId,
    deviceName: `Truck ${i + 1}`,
    sim: "",
    enabled: true,
    createdAt: now,
    activationTime: now,
    expiration: null,
    userExpiration: null,
    timezoneOffsetMinutes: null,
  })));
  await s.directory.load();
  const engine = s.motion.engine!;
  const started = performance.now();
  let points = 0;
  const next = { i: 0 };
  const worker = async () => {
    while (next.i < IMEIS.length) {
      const i = next.i++;
      const gen = new DeviceDays(i, INTERVAL_S);
      const all: StoredPosition[] = [];
      for (let d = 0; d < DAYS; d++) {
        const day = gen.day(dayStart(addDays(FIRST_DAY, d)));
        engine.onCommitted({
          type: "positionsCommitted",
          imei: IMEIS[i],
          userId: adminId,
          points: day,
        });
        for (const p of day) all.push(p);
        points += day.length;
      }
      await s.positions.importHistory(IMEIS[i], all);
      if (i % 10 === 9) await engine.flush();
    }
  };
  await Promise.all(Array.from({ length: Number(opt.concurrency) }, worker));
  await engine.flush(true);
  console.log(
    `generated ${DEVICES} devices × ${DAYS} days at ${INTERVAL_S} s: ${
      (points / 1e6).toFixed(2)
    } M points in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  await close();
}

/** Run now of one auto report: ms from the call to the mail on the SMTP server. */
async function runMailed(
  s: Services,
  session: Session,
  smtp: Awaited<ReturnType<typeof startSmtp>>,
  body: Record<string, unknown>,
): Promise<void> {
  const { id } = await s.autoReports.add(session, body as never);
  const record = await s.autoReports.own(session, id);
  const before = smtp.mails.length;
  const started = performance.now();
  await s.autoReportRuns.runNow(session, record);
  while (smtp.mails.length === before) {
    if (performance.now() - started > 120_000) throw new Error("no mail after 120 s");
    await new Promise((r) => setTimeout(r, 20));
  }
  const ms = performance.now() - started;
  await s.autoReportRuns.idle();
  const [run] = (await s.autoReports.history(session, id)).list;
  const [file] = mailAttachments(smtp.mails.at(-1)!.raw);
  console.log(
    `${body.frequency} ${body.reportType}, ${DEVICES} devices, ${run.from.slice(0, 10)} – ${
      new Date(Date.parse(run.to) - 1).toISOString().slice(0, 10)
    }: ${run.rows} rows, xlsx ${(file.bytes.length / 1024).toFixed(0)} KiB, mailed in ${
      ms.toFixed(0)
    } ms (target ≤ 10,000 ms); status ${run.status}`,
  );
}

async function timeRuns(): Promise<void> {
  const smtp = await startSmtp();
  const { s, kv, close } = await open(smtpEnv(smtp));
  try {
    const adminId = (await s.accountStore.findIdByLogin("admin"))!;
    const session: Session = {
      accountId: adminId,
      cAccountId: adminId,
      isVirtual: false,
      jti: "bench",
      via: "bearer",
    };
    for (const old of (await s.autoReports.list(session)).list) {
      await s.autoReports.delete(session, [old.id]);
    }
    const common = { executionTime: "06:00", imeis: IMEIS, emails: ["fleet@bench.test"] };
    await runMailed(s, session, smtp, {
      ...common,
      name: "Weekly trips",
      reportType: "trips",
      frequency: "week",
      includeSubAccounts: false,
      params: {},
    });
    await runMailed(s, session, smtp, {
      ...common,
      name: "Daily mileage",
      reportType: "mileage",
      frequency: "day",
      includeSubAccounts: false,
      params: {},
    });
    // The worst case: every point of the week, cut at the export's 30,000 rows.
    await runMailed(s, session, smtp, {
      ...common,
      name: "Weekly track details",
      reportType: "trackDetails",
      frequency: "week",
      includeSubAccounts: false,
      params: {},
    });
    await timeTick(s, kv, adminId);
  } finally {
    await s.autoReportRuns.idle();
    await close();
    await smtp.close();
  }
}

/** The cron's scan over many records, none due (created now, executed at a later minute). */
async function timeTick(s: Services, kv: Deno.Kv, ownerId: string): Promise<void> {
  const store = new AutoReportStore(kv);
  const n = Number(opt.records);
  const now = Date.now();
  for (let i = 0; i < n; i++) {
    await store.insert({
      id: `bench${String(i).padStart(19, "0")}`,
      ownerId: `${ownerId}`,
      userId: ownerId,
      name: `r${i}`,
      reportType: "trips",
      frequency: "day",
      executionTime: "23:59",
      imeis: [IMEIS[0]],
      mcType: null,
      emails: ["x@bench.test"],
      includeSubAccounts: false,
      batteryThreshold: null,
      timeField: null,
      params: {},
      createdAt: now + 86_400_000,
      updatedAt: now,
    }).then(async (ok) => {
      // One per type per owner: the rest are owned by made-up accounts (skipped as unknown).
      if (!ok) {
        await store.insert({
          id: `bench${String(i).padStart(19, "0")}`,
          ownerId: `ghost${i}`,
          userId: ownerId,
          name: `r${i}`,
          reportType: "trips",
          frequency: "day",
          executionTime: "23:59",
          imeis: [IMEIS[0]],
          mcType: null,
          emails: ["x@bench.test"],
          includeSubAccounts: false,
          batteryThreshold: null,
          timeField: null,
          params: {},
          createdAt: now + 86_400_000,
          updatedAt: now,
        });
      }
    });
  }
  const times: number[] = [];
  for (let k = 0; k < 5; k++) {
    const t = performance.now();
    const started = await s.autoReportRuns.tick();
    times.push(performance.now() - t);
    if (started.length) throw new Error("nothing should be due");
  }
  times.sort((a, b) => a - b);
  console.log(
    `cron tick over ${n + 2} auto reports (none due): median ${times[2].toFixed(0)} ms, max ${
      times[4].toFixed(0)
    } ms`,
  );
}

if (!opt.reuse) await generate();
await timeRuns();
if (!opt.keep && !opt.reuse) await Deno.remove(dir, { recursive: true });
// The file worker waits two minutes for more files before it ends.
stopFileWorker();
