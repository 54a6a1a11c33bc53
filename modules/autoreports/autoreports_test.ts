/**
 * Automatic reports end to end in one process on a real KV file, with a real SMTP server
 * (tests/helpers/smtp.ts): the API's rules (one per report type, type and frequency fixed,
 * devices, recipients, period against the report's range, a sibling's ids), "run now" and a
 * due cron slot run through the job's tick with a chosen clock — each mail's xlsx is opened
 * and its rows checked (the owner's zone and language) — and a slot claimed once, whether
 * two ticks race, a later tick repeats it or a second process ticks too.
 */
import assert from "node:assert/strict";
import ExcelJS from "exceljs";
import { Buffer } from "node:buffer";
import type { Position } from "../gateway/protocols/types.ts";
import { type TestApp, testApp } from "../../tests/helpers/harness.ts";
import { mailAttachments } from "../../tests/helpers/mail_parts.ts";
import { smtpEnv, startSmtp } from "../../tests/helpers/smtp.ts";
import { addAccount, assertCode, assertOk, PASSWORD, whoAmI } from "../accounts/test_support.ts";
import { AutoReportRuns } from "./runs.ts";
import { AutoReportStore } from "./store.ts";
import zh from "../../locales/zh/reports.json" with { type: "json" };

const DEV1 = "359710049420015";
const DEV2 = "359710049420023";
const DEV_B = "359710049420031";
const DAY = 86_400_000;
const H8 = 8 * 3_600_000;
/** Today's midnight in Shanghai (UTC+8, no daylight saving), computed here apart. */
const shanghaiMidnight = (now: number) => Math.floor((now + H8) / DAY) * DAY - H8;
const shanghai = (ms: number) => new Date(ms + H8).toISOString().slice(0, 19).replace("T", " ");

const REPORT = {
  name: "Daily track",
  reportType: "trackDetails",
  frequency: "day",
  executionTime: "00:00",
  imeis: [DEV1, DEV2],
  emails: ["fleet@example.com", "Boss@Example.com"],
  includeSubAccounts: false,
};

async function sheetRows(bytes: Uint8Array): Promise<unknown[][]> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(Buffer.from(bytes) as unknown as ArrayBuffer);
  const out: unknown[][] = [];
  book.worksheets[0].eachRow((row) => out.push((row.values as unknown[]).slice(1)));
  return out;
}

/** A distributor in Shanghai writing Chinese, with two devices; a sibling with one. */
async function setup(t: TestApp) {
  const admin = await t.adminToken();
  const adminId = await whoAmI(t, admin);
  const dist = await addAccount(t, admin, { account: "arDist", accountType: 8, parentId: adminId });
  const sib = await addAccount(t, admin, { account: "arSib", accountType: 8, parentId: adminId });
  for (const [userId, imeis] of [[dist, [DEV1, DEV2]], [sib, [DEV_B]]] as const) {
    assertOk(
      await t.call(
        "/v3/new/newEquipment/importEquipment",
        { userId, mcType: "GT06N", imeis },
        admin,
      ),
    );
  }
  const token = await t.login("arDist", PASSWORD);
  assertOk(
    await t.call("/v3/new/account/updateProfile", {
      timeZones: "Asia/Shanghai",
      language: "zh",
    }, token),
  );
  return { token, sibToken: await t.login("arSib", PASSWORD), ids: { dist, sib } };
}

/** Fixes of a device at the given times, through the ingest pipeline. */
async function report(t: TestApp, imei: string, times: number[]) {
  const device = t.services.directory.get(imei)!;
  await t.services.ingestor.submit(
    device,
    times.map((time, i) => ({
      type: "position" as const,
      position: {
        time: new Date(time),
        valid: true,
        latitude: 22.5 + i * 1e-3,
        longitude: 114.05,
        altitude: 5,
        speed: 30,
        course: 0,
        posType: 1,
        satellites: 8,
        attributes: {},
      } as Position,
    })),
  );
  await t.services.ingestor.flushStates();
}

Deno.test("auto report API: rules, refusals and a sibling's ids", async () => {
  const t = await testApp();
  try {
    const { token, sibToken } = await setup(t);
    const add = (body: unknown, as = token) => t.call("/v3/new/autoReport/add", body, as);
    const added = await add(REPORT);
    assertOk(added);
    const id = added.json.data.id as string;

    assertCode(await add({ ...REPORT, name: "Again" }), "autoReportTypeExists");
    assertCode(
      await add({ ...REPORT, reportType: "trips", imeis: [] }),
      "autoReportDevicesMissing",
    );
    assertCode(
      await add({ ...REPORT, reportType: "trips", imeis: [DEV_B] }),
      "deviceNoPermission",
    );
    assertCode(
      await add({ ...REPORT, frequency: "month" }),
      "autoReportPeriodTooLong",
    );
    assertCode(
      await add({ ...REPORT, reportType: "trips", emails: ["not-mail"] }),
      "illegalParameter",
    );
    const many = Array.from({ length: 201 }, (_, i) => String(359710049500000 + i));
    assertCode(await add({ ...REPORT, reportType: "trips", imeis: many }), "illegalParameter");
    assertCode(
      await add({ ...REPORT, reportType: "trips", executionTime: "24:00" }),
      "illegalParameter",
    );
    // The report's own filters are checked by its schema.
    assertCode(
      await add({ ...REPORT, reportType: "overspeed", params: { speedLimit: 0 } }),
      "illegalParameter",
    );
    assertOk(await add({ ...REPORT, reportType: "overspeed", params: { speedLimit: 90 } }));
    // A device model instead of devices: the account's GT06N devices.
    const byModel = await add({ ...REPORT, reportType: "mileage", imeis: [], mcType: "GT06N" });
    assertOk(byModel);

    const update = (body: Record<string, unknown>) =>
      t.call("/v3/new/autoReport/update", { ...REPORT, id, ...body }, token);
    assertCode(await update({ frequency: "week" }), "autoReportFixed");
    assertCode(await update({ reportType: "trips" }), "autoReportFixed");
    assertOk(await update({ name: "Track, daily", executionTime: "06:30" }));

    const list = await t.call("/v3/new/autoReport/list", {}, token);
    assertOk(list);
    assert.equal(list.json.data.total, 3);
    const row = list.json.data.list.find((r: { id: string }) => r.id === id);
    assert.equal(row.name, "Track, daily");
    assert.equal(row.executionTime, "06:30");
    assert.deepEqual(row.emails, ["fleet@example.com", "boss@example.com"]);
    assert.equal(row.account, "arDist");
    assert.equal(row.lastRunAt, null);
    const model = list.json.data.list.find((r: { reportType: string }) =>
      r.reportType === "mileage"
    );
    assert.equal(model.mcType, "GT06N");
    assert.deepEqual(model.imeis, []);

    // The sibling sees none of it; its calls on the id answer like an unknown id.
    assert.equal((await t.call("/v3/new/autoReport/list", {}, sibToken)).json.data.total, 0);
    for (const path of ["history", "runNow"]) {
      assertCode(await t.call(`/v3/new/autoReport/${path}`, { id }, sibToken), "dataNotExists");
    }
    assertCode(
      await t.call("/v3/new/autoReport/update", { ...REPORT, id }, sibToken),
      "dataNotExists",
    );
    assertCode(await t.call("/v3/new/autoReport/delete", { id }, sibToken), "dataNotExists");
    // Its own auto report of the same type is its own business (one per type per account).
    assertOk(await add({ ...REPORT, imeis: [DEV_B] }, sibToken));

    assertOk(await t.call("/v3/new/autoReport/delete", { id }, token));
    assertCode(await t.call("/v3/new/autoReport/history", { id }, token), "dataNotExists");
    assertOk(await add(REPORT)); // the type is free again
  } finally {
    await t.close();
  }
});

Deno.test({
  name: "auto report runs: run now and a due slot mailed with the xlsx, each slot once",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async (s) => {
    const smtp = await startSmtp();
    const t = await testApp(smtpEnv(smtp));
    try {
      const { token } = await setup(t);
      const now = Date.now();
      const today = shanghaiMidnight(now);
      // Yesterday (Shanghai) for DEV1: what "run now" of a daily report covers.
      const yesterday = [0, 1, 2, 3, 4].map((k) => today - DAY + 12 * 3_600_000 + k * 60_000);
      await report(t, DEV1, yesterday);
      // Today for DEV2: what tomorrow's slot covers.
      const todays = [30, 20, 10].map((k) => now - k * 1000);
      await report(t, DEV2, todays);
      const added = await t.call("/v3/new/autoReport/add", REPORT, token);
      assertOk(added);
      const id = added.json.data.id as string;
      const runs = t.services.autoReportRuns;

      await s.step("run now: yesterday's rows mailed in Chinese and Shanghai time", async () => {
        const r = await t.call("/v3/new/autoReport/runNow", { id }, token);
        assertOk(r);
        const taskId = r.json.data.taskId as string;
        // A second click while it runs is refused (one run of an auto report at a time).
        assertCode(await t.call("/v3/new/autoReport/runNow", { id }, token), "autoReportRunning");
        await runs.idle();
        const [mail] = await smtp.waitFor(1);
        assert.deepEqual(mail.to.sort(), ["boss@example.com", "fleet@example.com"]);
        assert.ok(mail.subject.includes(zh.names.trackDetails), mail.subject);
        assert.ok(mail.subject.includes(shanghai(today - DAY).slice(0, 10)), mail.subject);
        const [file] = mailAttachments(mail.raw);
        assert.match(file.fileName, /\.xlsx$/);
        assert.match(file.contentType, /spreadsheetml/);
        const rows = await sheetRows(file.bytes);
        const header = rows.find((row) => row.includes(zh.columns.imei))!;
        assert.ok(header, JSON.stringify(rows.slice(0, 4)));
        const imeiCol = header.indexOf(zh.columns.imei), timeCol = header.indexOf(zh.columns.time);
        const data = rows.filter((row) => row[imeiCol] === DEV1 || row[imeiCol] === DEV2);
        assert.deepEqual(data.map((row) => row[imeiCol]), yesterday.map(() => DEV1));
        assert.deepEqual(data.map((row) => row[timeCol]), yesterday.map(shanghai));

        await runs.idle();
        const history = await t.call("/v3/new/autoReport/history", { id }, token);
        assertOk(history);
        const [run] = history.json.data.list;
        assert.equal(run.status, "done");
        assert.equal(run.taskId, taskId);
        assert.equal(run.fileName, file.fileName);
        assert.equal(run.trigger, "manual");
        assert.equal(run.rows, 5);
        assert.equal(run.mailed, 2);
        const download = await t.app.request(`/v3/new/task/download?id=${taskId}`, {
          headers: { authorization: `Bearer ${token}` },
        });
        assert.equal(download.status, 200);
        assert.deepEqual(new Uint8Array(await download.arrayBuffer()), file.bytes);
        const list = await t.call("/v3/new/autoReport/list", {}, token);
        assert.equal(list.json.data.list[0].lastStatus, "done");
      });

      await s.step("the cron's tick at tomorrow's slot mails today's rows, once", async () => {
        const clock = today + DAY + 30_000; // 00:00:30 tomorrow, Shanghai
        assert.deepEqual(await runs.tick(clock - 60_000), [], "before the slot: nothing");
        // Two ticks racing in this process and a second process ticking: one run.
        const other = new AutoReportRuns({
          store: new AutoReportStore(t.services.kv),
          access: t.services.access,
          devices: t.services.devices,
          directory: t.services.directory,
          accounts: t.services.accountStore,
          reportExport: t.services.reportExport,
          tasks: t.services.tasks,
          mailer: t.services.mailer,
        });
        const started = (await Promise.all([
          runs.tick(clock),
          runs.tick(clock),
          other.tick(clock),
        ])).flat();
        assert.equal(started.length, 1);
        await Promise.all([runs.idle(), other.idle()]);
        const mails = await smtp.waitFor(2);
        const rows = await sheetRows(mailAttachments(mails[1].raw)[0].bytes);
        const header = rows.find((row) => row.includes(zh.columns.imei))!;
        const imeiCol = header.indexOf(zh.columns.imei);
        const data = rows.filter((row) => row[imeiCol] === DEV1 || row[imeiCol] === DEV2);
        assert.deepEqual(data.map((row) => row[imeiCol]), todays.map(() => DEV2));
        await Promise.all([runs.idle(), other.idle()]);
        // Later ticks within the catch-up window, and a restarted process: nothing more.
        assert.deepEqual(await runs.tick(clock + 60_000), []);
        assert.deepEqual(await other.tick(clock + 3_600_000), []);
        await new Promise((r) => setTimeout(r, 300));
        assert.equal(smtp.mails.length, 2);
        const history = (await t.call("/v3/new/autoReport/history", { id }, token)).json.data;
        assert.deepEqual(history.list.map((r: { trigger: string }) => r.trigger), [
          "schedule",
          "manual",
        ]);
        assert.equal(history.list[0].status, "done");
        assert.equal(history.list[0].from, new Date(today).toISOString());
        assert.equal(history.list[0].to, new Date(today + DAY).toISOString());
      });

      await s.step(
        "no mail server: the run fails with the mail's reason, the file stays",
        async () => {
          await smtp.close();
          const r = await t.call("/v3/new/autoReport/runNow", { id }, token);
          assertOk(r);
          await runs.idle();
          const { list } = (await t.call("/v3/new/autoReport/history", { id }, token)).json.data;
          // Newest first by start time (the tick above ran on tomorrow's clock).
          const run = list.filter((r: { trigger: string }) => r.trigger === "manual")[0];
          assert.equal(run.status, "failed");
          assert.equal(run.error, "mailServerUnavailable");
          assert.ok(run.fileName);
        },
      );
    } finally {
      await t.services.autoReportRuns.idle();
      await t.services.tasks.idle();
      await t.close();
      await smtp.close().catch(() => {});
    }
  },
});
