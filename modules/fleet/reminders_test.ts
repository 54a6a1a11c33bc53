import assert from "node:assert/strict";
import { testApp } from "../../tests/helpers/harness.ts";
import { mailText, startSmtp } from "../../tests/helpers/smtp.ts";
import { addInterval, reminderStatus, usage } from "./reminders_due.ts";
import type { Reminder } from "./reminders_model.ts";
import { fleetAccount } from "./paths_test_support.ts";
import { KNOT_IN_KMH } from "../gateway/ingest/convert.ts";
import { FLUSH_MS } from "../motion/engine.ts";
import { addDays, dayOf, dayStart } from "../motion/days.ts";
import { Track } from "../motion/test_tracks.ts";
import type { Position } from "../gateway/protocols/types.ts";

const IMEI = "359710049430001";
const SIBLING_IMEI = "359710049430002";
const at = (d: string) => Date.parse(`${d}T06:00:00Z`);

const reminder = (over: Record<string, unknown> = {}) => ({
  name: "Oil change",
  type: "maintenance",
  imei: IMEI,
  intervalKind: "time",
  every: 1,
  unit: "month",
  advance: 7,
  startDate: "2026-01-10",
  email: "workshop@fleet.test",
  ...over,
});

Deno.test("reminder dates: months keep the day (clamped), weeks, years; usage from day summaries", () => {
  assert.equal(addInterval("2026-01-31", "month", 1), "2026-02-28");
  assert.equal(addInterval("2026-01-10", "month", 6), "2026-07-10");
  assert.equal(addInterval("2026-12-28", "week", 1), "2027-01-04");
  assert.equal(addInterval("2024-02-29", "year", 1), "2025-02-28");
  const day = (distance: number, drivingSeconds: number, idlingSeconds: number) => ({
    imei: IMEI,
    date: "2026-01-01",
    distance,
    drivingSeconds,
    idlingSeconds,
    maxSpeed: 0,
    avgSpeed: 0,
    firstOdometer: null,
    lastOdometer: null,
    fuelUsed: null,
    trips: 1,
  });
  const days = [day(120.4, 7200, 1800), day(80, 3600, 0)];
  assert.equal(usage({ intervalKind: "mileage" }, days), 200.4);
  assert.equal(usage({ intervalKind: "engineHours" }, days), 3.5);
  const r = { ...reminder(), intervalKind: "mileage", every: 5000, advance: 500, lastDone: "" };
  assert.equal(reminderStatus(r as Reminder, "2026-03-01", 4400).state, "ok");
  assert.equal(reminderStatus(r as Reminder, "2026-03-01", 4500).state, "dueSoon");
  assert.equal(reminderStatus(r as Reminder, "2026-03-01", 5000.1).state, "overdue");
  assert.equal(reminderStatus(r as Reminder, "2026-03-01", 4500).remaining, 500);
});

Deno.test("reminders API: enterprise-only, every validation rule, isolation", async (t) => {
  const app = await testApp();
  try {
    const ent = await fleetAccount(app, "rem_ent", 9, [IMEI]);
    const sibling = await fleetAccount(app, "rem_sib", 9, [SIBLING_IMEI]);
    const dist = await fleetAccount(app, "rem_dist", 8);

    await t.step("a distributor is refused with the spec's message", async () => {
      for (const op of ["list", "add"]) {
        const r = await app.call(
          `/v3/new/fleet/reminder/${op}`,
          op === "add" ? reminder({ imei: "" }) : {},
          dist.token,
        );
        assert.equal(r.json.code, 40019);
      }
    });

    await t.step("validation", async () => {
      const cases: [Record<string, unknown>, number][] = [
        [{ advance: 29 }, 48201], // a month is at least 28 days
        [{ unit: "week", every: 2, advance: 15 }, 48201],
        [{ intervalKind: "mileage", every: 5000, advance: 5001 }, 48201],
        [{ intervalKind: "engineHours", every: 250, imei: "" }, 48202],
        [{ imei: SIBLING_IMEI }, 45013],
        [{ every: 11, unit: "year" }, 49004],
        [{ every: 1.5 }, 49004],
        [{ lastDone: "2026-01-01" }, 49004],
      ];
      for (const [over, code] of cases) {
        const r = await app.call("/v3/new/fleet/reminder/add", reminder(over), ent.token);
        assert.equal(r.json.code, code, `${JSON.stringify(over)}: ${r.json.msg}`);
      }
      for (
        const over of [
          { startDate: "2026-02-30" },
          { startDate: "10/01/2026" },
          { type: "wash" },
          { unit: "day" },
          { email: "not-mail" },
          { name: "" },
          { extra: 1 },
        ]
      ) {
        const r = await app.call("/v3/new/fleet/reminder/add", reminder(over), ent.token);
        assert.notEqual(r.json.code, 10000, JSON.stringify(over));
      }
      const ok = await app.call("/v3/new/fleet/reminder/add", reminder({ advance: 28 }), ent.token);
      assert.equal(ok.json.code, 10000, JSON.stringify(ok.json));
    });

    await t.step("a sibling enterprise sees and changes nothing", async () => {
      const mine = (await app.call("/v3/new/fleet/reminder/list", {}, ent.token)).json.data.list;
      assert.equal(mine.length, 1);
      assert.equal(
        (await app.call("/v3/new/fleet/reminder/list", {}, sibling.token)).json.data.total,
        0,
      );
      for (
        const [op, body] of [
          ["update", { id: mine[0].id, ...reminder({ imei: "" }) }],
          ["done", { id: mine[0].id }],
          ["delete", { ids: [mine[0].id] }],
        ] as const
      ) {
        const r = await app.call(`/v3/new/fleet/reminder/${op}`, body, sibling.token);
        assert.equal(r.json.code, 49003, op);
      }
    });
  } finally {
    await app.close();
  }
});

Deno.test("reminders: the daily job posts a due reminder and mails it once per period", async () => {
  const smtp = await startSmtp();
  const app = await testApp({ SMTP_HOST: "127.0.0.1", SMTP_PORT: String(smtp.port) });
  try {
    const ent = await fleetAccount(app, "rem_mail", 9, [IMEI]);
    const add = await app.call("/v3/new/fleet/reminder/add", reminder(), ent.token);
    assert.equal(add.json.code, 10000, JSON.stringify(add.json));
    const id = add.json.data.id;
    const job = app.services.fleetReminders;

    // Due 2026-02-10, reminded from 2026-02-03.
    assert.deepEqual(await job.runDue(at("2026-02-02")), { noticed: 0 });
    assert.deepEqual(await job.runDue(at("2026-02-03")), { noticed: 1 });
    assert.deepEqual(await job.runDue(at("2026-02-04")), { noticed: 0 }, "once per period");
    assert.deepEqual(await job.runDue(at("2026-02-11")), { noticed: 0 }, "overdue: still once");
    const [mail] = await smtp.waitFor(1);
    assert.deepEqual(mail.to, ["workshop@fleet.test"]);
    assert.match(mail.subject, /^\[Reminder\] Oil change — /);
    assert.match(mailText(mail.raw), /"Oil change" \(Maintenance\) is due soon: due 2026-02-10/);
    const messages = await app.call(
      "/v3/new/message/list",
      { pageNum: 1, pageSize: 10 },
      ent.token,
    );
    const posted = messages.json.data.list.filter((m: { type: number }) => m.type === 12);
    assert.equal(posted.length, 1);
    assert.equal(posted[0].params.name, "Oil change");
    assert.equal(posted[0].imei, IMEI);

    // Done on 2026-02-12: the next period runs to 2026-03-12, reminded from 2026-03-05.
    const done = await app.call("/v3/new/fleet/reminder/done", {
      id,
      date: "2026-02-12",
      note: "5W-30",
    }, ent.token);
    assert.equal(done.json.code, 10000, JSON.stringify(done.json));
    assert.equal(done.json.data.lastDone, "2026-02-12");
    assert.equal(done.json.data.status.dueDate, "2026-03-12");
    assert.deepEqual(done.json.data.history.map((h: { note: string }) => h.note), ["5W-30"]);
    assert.deepEqual(await job.runDue(at("2026-03-04")), { noticed: 0 });
    assert.deepEqual(await job.runDue(at("2026-03-05")), { noticed: 1 });
    assert.equal((await smtp.waitFor(2)).length, 2);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(smtp.mails.length, 2, "no third mail");
  } finally {
    await app.close();
    await smtp.close();
  }
});

Deno.test("reminders: a mileage reminder counts the km the motion engine summed per day", async () => {
  const smtp = await startSmtp();
  const app = await testApp({ SMTP_HOST: "127.0.0.1", SMTP_PORT: String(smtp.port) });
  try {
    const ent = await fleetAccount(app, "rem_km", 9, [IMEI]);
    const s = app.services;
    // Five days ago: park, 20 km, park, 10 km, park (30 km through the real ingest).
    const D = addDays(dayOf(Date.now()), -5);
    const track = new Track(dayStart(D) + 6 * 3_600_000, 22.5, 114).here().stay(600)
      .drive(1200, 60).stay(900).drive(600, 60).stay(900);
    const device = s.directory.get(IMEI)!;
    for (let i = 0; i < track.points.length; i += 50) {
      const positions = track.points.slice(i, i + 50).map((p): Position => ({
        time: new Date(p.time),
        valid: p.valid,
        latitude: p.lat,
        longitude: p.lng,
        altitude: 0,
        speed: p.speed / KNOT_IN_KMH,
        course: 0,
        posType: 1,
        acc: p.acc ?? undefined,
        attributes: {},
      }));
      await s.ingestor.submit(device, [{ type: "positions", positions }]);
    }
    const fed = Date.now();
    const from = dayStart(D);
    let km = 0;
    while (km < 29 && Date.now() - fed < FLUSH_MS + 3000) {
      await new Promise((r) => setTimeout(r, 200));
      km = (await s.motion.reader.days(IMEI, from, Date.now())).reduce((a, d) => a + d.distance, 0);
    }
    assert.ok(km > 29, `${km} km summed`);

    const add = await app.call(
      "/v3/new/fleet/reminder/add",
      reminder({
        name: "Tyres",
        intervalKind: "mileage",
        every: 40,
        advance: 15,
        startDate: addDays(D, -1),
      }),
      ent.token,
    );
    assert.equal(add.json.code, 10000, JSON.stringify(add.json));
    const [row] = (await app.call("/v3/new/fleet/reminder/list", {}, ent.token)).json.data.list;
    assert.equal(row.status.state, "dueSoon");
    assert.ok(Math.abs(row.status.remaining - 10) < 0.6, String(row.status.remaining));
    assert.deepEqual(await s.fleetReminders.runDue(), { noticed: 1 });
    const [mail] = await smtp.waitFor(1);
    assert.match(mailText(mail.raw), /"Tyres" \(Maintenance\) is due soon: \d+(\.\d)? km left/);
  } finally {
    await app.close();
    await smtp.close();
  }
});
