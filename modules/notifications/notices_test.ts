import assert from "node:assert/strict";
import { type TestApp, testApp } from "../../tests/helpers/harness.ts";
import { accountWithDevices } from "../../tests/helpers/alerting.ts";
import { isoWeek, PlatformNotices, reminderPeriod } from "./notices.ts";
import { ReportCounter } from "./report_counts.ts";
import { ReportCountStore } from "./store_report_counts.ts";
import { openTestKv } from "../../tests/helpers/test_kv.ts";
import { emptyState } from "../gateway/ingest/device_state.ts";
import type { MessageType, PlatformMessage } from "./messages.ts";

const DAY = 86_400_000;
const [D1, D2, D3] = [1, 2, 3].map((i) => `35971004980000${i}`);
const today = () => new Date().toISOString().slice(0, 10);
const plusDays = (date: string, n: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + n * DAY).toISOString().slice(0, 10);

async function messages(app: TestApp, token: string, type?: MessageType) {
  const r = await app.call("/v3/new/message/list", {
    ...(type ? { type } : {}),
    pageSize: 100,
  }, token);
  assert.equal(r.json.code, 10000, JSON.stringify(r.json));
  return r.json.data as { total: number; unread: number; list: PlatformMessage[] };
}

Deno.test("message center: every platform message type is raised where its event happens", async (t) => {
  const app = await testApp({ ALERT_ENGINE: "off" });
  try {
    const a = await accountWithDevices(app, "nt_a", [D1, D2, D3]);
    const b = await accountWithDevices(app, "nt_b", []);
    const c = await accountWithDevices(app, "nt_c", []);
    const n = app.services.notices;

    await t.step("4 account move: the moved account and its new superior", async () => {
      const r = await app.call("/v3/new/account/move", { ids: [c.id], targetId: b.id }, a.admin);
      assert.equal(r.json.code, 10000, JSON.stringify(r.json));
      const mine = (await messages(app, c.token, 4)).list;
      assert.equal(mine.length, 1);
      assert.deepEqual(mine[0].params, { account: "nt_c", target: "nt_b" });
      assert.equal(mine[0].read, -1);
      assert.equal((await messages(app, b.token, 4)).total, 1);
      assert.equal((await messages(app, a.token, 4)).total, 0);
    });

    await t.step("5 device allocation: the receiving account, with the sender", async () => {
      const r = await app.call("/v3/new/newEquipment/transferEquipment", {
        imeis: [D1],
        targetUserId: b.id,
      }, a.admin);
      assert.equal(r.json.code, 10000, JSON.stringify(r.json));
      const got = (await messages(app, b.token, 5)).list;
      assert.equal(got.length, 1);
      assert.equal(got[0].params.count, 1);
      assert.equal(got[0].params.from, "admin");
      assert.equal(got[0].imei, D1);
      assert.equal((await messages(app, a.token, 5)).total, 0);
      // The administrator importing straight into nt_c's account allocates too; nt_a
      // importing into its own account (accountWithDevices above) did not.
      const imported = await app.call("/v3/new/newEquipment/importEquipment", {
        userId: c.id,
        mcType: "GT06N",
        imeis: ["359710049800007", "359710049800008"],
      }, a.admin);
      assert.equal(imported.json.data.succeeded, 2, JSON.stringify(imported.json));
      const toC = (await messages(app, c.token, 5)).list;
      assert.equal(toC.length, 1);
      assert.equal(toC[0].params.count, 2);
      assert.equal(toC[0].imei, null);
    });

    await t.step("10 card consumption: a renewal paid with a recharge card", async () => {
      const issued = await app.call("/v3/new/wallet/allocate", {
        targetUserId: a.id,
        cards: { "1y": 3 },
      }, a.admin);
      assert.equal(issued.json.code, 10000, JSON.stringify(issued.json));
      const r = await app.call("/v3/new/newEquipment/renewEquipment", {
        imeis: [D2],
        term: 12,
        payWith: "card",
      }, a.token);
      assert.equal(r.json.code, 10000, JSON.stringify(r.json));
      const got = (await messages(app, a.token, 10)).list;
      assert.equal(got.length, 1);
      assert.deepEqual(got[0].params, { cards: 1, devices: 1, left: 2 });
    });

    await t.step("1 device expired: once, from the daily check", async () => {
      const d = app.services.directory.get(D3)!;
      await app.services.devices.save([{
        before: d,
        after: { ...d, activationTime: new Date().toISOString(), expiration: today() },
      }]);
      const expired = async () => (await messages(app, a.token, 1)).total;
      await n.daily();
      assert.equal(await expired(), 0, "not expired yet today");
      const tomorrow = Date.now() + DAY;
      await n.daily(tomorrow);
      assert.equal(await expired(), 1);
      await n.daily(tomorrow + 3_600_000);
      assert.equal(await expired(), 1, "once per expiry");
      const got = (await messages(app, a.token, 1)).list;
      assert.equal(got.length, 1);
      assert.equal(got[0].params.date, today());
      assert.equal(got[0].imei, D3);
      // Long past expiries are not announced (a first run does not flood).
      await app.services.devices.save([{
        before: app.services.directory.get(D3)!,
        after: { ...app.services.directory.get(D3)!, expiration: plusDays(today(), -20) },
      }]);
      await n.daily();
      assert.equal(await expired(), 1);
    });

    await t.step("2 offline: a reminder once a silence passes 3 days", async () => {
      const last = Date.parse("2027-02-01T08:00:00Z");
      app.services.directory.rememberState({ ...emptyState(D2), hbTime: last, gpsTime: last });
      const offline = async () =>
        (await messages(app, a.token, 2)).list.filter((m) => m.params.variant === "days");
      await n.daily(last + 3 * DAY - 60_000);
      assert.equal((await offline()).length, 0, "not yet 3 days");
      await n.daily(last + 3 * DAY + 60_000);
      await n.daily(last + 5 * DAY);
      const got = await offline();
      assert.equal(got.length, 1, "once per silence");
      assert.equal(got[0].params.days, 3);
      assert.equal(got[0].params.since, "2027-02-01");
      // The device reported again and fell silent again: a new reminder.
      app.services.directory.rememberState({
        ...app.services.directory.state(D2)!,
        hbTime: last + 10 * DAY,
      });
      await n.daily(last + 14 * DAY);
      assert.equal((await offline()).length, 2);
      // Silent for longer than 3 + 7 days before any check saw it: not announced.
      app.services.directory.rememberState({
        ...app.services.directory.state(D2)!,
        hbTime: last + 20 * DAY,
      });
      await n.daily(last + 31 * DAY);
      assert.equal((await offline()).length, 2);
    });

    await t.step("7 licence, 8 insurance, 9 SIM card: 30 and 7 days ahead", async () => {
      const bad = await app.call("/v3/new/alarm/device/save", {
        imei: D2,
        licenceExpiry: "2026-02-30",
      }, a.token);
      assert.equal(bad.json.data.field, "licenceExpiry");
      const saved = await app.call("/v3/new/alarm/device/save", {
        imei: D2,
        licenceExpiry: plusDays(today(), 20),
        insuranceExpiry: plusDays(today(), 5),
        simCardExpiry: plusDays(today(), 60),
      }, a.token);
      assert.equal(saved.json.code, 10000, JSON.stringify(saved.json));
      const noon = Date.parse(`${today()}T12:00:00Z`);
      await n.daily(noon);
      assert.equal((await messages(app, a.token, 7)).total, 1);
      assert.equal((await messages(app, a.token, 8)).total, 1);
      assert.equal((await messages(app, a.token, 9)).total, 0);
      const insurance = (await messages(app, a.token, 8)).list[0];
      assert.equal(insurance.params.days, 5);
      // A fortnight later the licence is 6 days off (the 7-day reminder), the SIM card 46.
      await n.daily(noon + 14 * DAY);
      const licence = (await messages(app, a.token, 7)).list;
      assert.deepEqual(licence.map((m) => m.params.days), [6, 20]);
      assert.equal((await messages(app, a.token, 9)).total, 0);
      await n.daily(noon + 31 * DAY);
      assert.equal((await messages(app, a.token, 9)).list[0].params.days, 29);
      await n.daily(noon + 31 * DAY);
      assert.equal((await messages(app, a.token, 9)).total, 1, "once per window");
    });

    await t.step("11 fewer than 50 reports: only for a day counted from its start", async () => {
      const day = Date.parse("2026-03-10T00:00:00Z");
      const countsKv = await openTestKv();
      const noticesFrom = (startedAt: number, kv: Deno.Kv) =>
        new PlatformNotices({
          messages: app.services.messages,
          accounts: app.services.accountStore,
          directory: app.services.directory,
          deviceSettings: () => [],
          reportCounts: new ReportCounter(new ReportCountStore(kv), startedAt),
        });
      const few = async () => (await messages(app, a.token, 11)).total;
      try {
        const notices = noticesFrom(day, countsKv);
        for (let i = 0; i < 10; i++) notices.countPosition(D2, day + i * 60_000);
        for (let i = 0; i < 60; i++) notices.countPosition(D3, day + i * 60_000);
        await notices.daily(day + 20 * 3_600_000);
        assert.equal(await few(), 0, "the day is not over");
        await notices.daily(day + DAY + 10 * 3_600_000);
        assert.equal(await few(), 1);
        await notices.daily(day + DAY + 11 * 3_600_000);
        assert.equal(await few(), 1, "once per device and day");
        const got = (await messages(app, a.token, 11)).list;
        assert.equal(got.length, 1);
        assert.deepEqual(got[0].params, {
          imei: D2,
          name: "800002",
          count: 10,
          date: "2026-03-10",
        });
      } finally {
        countsKv.close();
      }
      // Started in the middle of a day, on a store that never counted: that day is not judged.
      const freshKv = await openTestKv();
      try {
        const late = noticesFrom(day + 3_600_000, freshKv);
        late.countPosition(D2, day + 2 * 3_600_000);
        await late.daily(day + DAY + 10 * 3_600_000);
        assert.equal(await few(), 1);
      } finally {
        freshKv.close();
      }
      // The app's instance counts the pipeline's positions into the store.
      const d = app.services.directory.get(D2)!;
      app.services.bus.publish({
        type: "position",
        imei: D2,
        userId: d.userId,
        position: app.services.directory.state(D2)?.position ?? {} as never,
      });
      await n.flushCounts();
      const stored = await new ReportCountStore(app.services.kv).countsOf(today());
      assert.equal(stored.get(D2), 1);
    });

    await t.step("6 balance reminder: Mondays from 10:00, once a week, while low", async () => {
      // nt_b owns a device, pays (recharge permission) and has nothing; nt_a has 2 cards.
      // A Monday no earlier check reached (the checks above ran within weeks of today).
      const monday = Date.parse("2027-06-07T00:00:00Z");
      assert.equal(new Date(monday).getUTCDay(), 1);
      // Earlier checks already reminded nt_b in their weeks: count from here.
      const base = (await messages(app, b.token, 6)).total;
      const low = async () => (await messages(app, b.token, 6)).total - base;
      await n.daily(monday + 9 * 3_600_000);
      assert.equal(await low(), 0, "before 10:00");
      await n.daily(monday + 10 * 3_600_000);
      assert.equal(await low(), 1);
      await n.daily(monday + 2 * DAY + 10 * 3_600_000);
      assert.equal(await low(), 1, "once a week");
      await n.daily(monday + 7 * DAY + 10 * 3_600_000);
      assert.equal(await low(), 2);
      assert.equal((await messages(app, a.token, 6)).total, 0);
      assert.deepEqual((await messages(app, b.token, 6)).list[0].params, { coins: 0, cards: 0 });
      assert.equal(isoWeek(monday), "2027-W23");
      assert.equal(isoWeek(Date.parse("2026-11-23T09:00:00Z")), "2026-W48");
      assert.equal(isoWeek(Date.parse("2027-01-01T12:00:00Z")), "2026-W53");
    });

    await t.step("6 balance reminder: the account's own cadence (monthly, off)", async () => {
      const prefs = (body: unknown) => app.call("/v3/new/message/prefs/save", body, b.token);
      assert.equal((await prefs({ balanceReminder: "hourly" })).json.data.field, "balanceReminder");
      assert.equal((await prefs({ balanceReminder: "monthly" })).json.code, 10000);
      const got = await app.call("/v3/new/message/prefs/get", {}, b.token);
      assert.equal(got.json.data.balanceReminder, "monthly");
      const base = (await messages(app, b.token, 6)).total;
      const first = Date.parse("2027-09-01T10:30:00Z");
      await n.daily(first);
      await n.daily(first + 6 * DAY); // a Tuesday, Monday passed: weekly would post again
      assert.equal((await messages(app, b.token, 6)).total, base + 1);
      await prefs({ balanceReminder: "off" });
      await n.daily(Date.parse("2027-10-01T10:30:00Z"));
      assert.equal((await messages(app, b.token, 6)).total, base + 1);
      // nt_a never changed it: weekly.
      assert.equal(
        (await app.call("/v3/new/message/prefs/get", {}, a.token)).json.data.balanceReminder,
        "weekly",
      );
    });

    await t.step("read state: mark one read, then all", async () => {
      const before = await messages(app, a.token);
      assert.ok(before.unread > 0);
      await app.call("/v3/new/message/mark", { ids: [before.list[0].id], read: 0 }, a.token);
      assert.equal((await messages(app, a.token)).unread, before.unread - 1);
      await app.call("/v3/new/message/mark", { read: 0 }, a.token);
      assert.equal((await messages(app, a.token)).unread, 0);
      // The other accounts' messages are untouched.
      assert.ok((await messages(app, b.token)).unread > 0);
    });
  } finally {
    await app.close();
  }
});

Deno.test("reminderPeriod: 10:00 UTC daily, on Mondays, on the 1st", () => {
  const at = (iso: string) => Date.parse(iso);
  assert.equal(reminderPeriod("daily", at("2026-11-21T09:59:00Z")), null);
  assert.equal(reminderPeriod("daily", at("2026-11-21T10:00:00Z")), "2026-11-21");
  assert.equal(reminderPeriod("weekly", at("2026-11-23T09:00:00Z")), null); // Monday 09:00
  assert.equal(reminderPeriod("weekly", at("2026-11-23T10:00:00Z")), "2026-W48");
  assert.equal(reminderPeriod("weekly", at("2026-11-29T23:00:00Z")), "2026-W48"); // Sunday
  assert.equal(reminderPeriod("monthly", at("2026-12-01T09:00:00Z")), null);
  assert.equal(reminderPeriod("monthly", at("2026-12-15T09:00:00Z")), "2026-12");
  assert.equal(reminderPeriod("off", at("2026-12-15T12:00:00Z")), null);
});
