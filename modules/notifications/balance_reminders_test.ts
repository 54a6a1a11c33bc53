/**
 * Balance reminders (spec §9: 10:00 daily, Mondays weekly, the 1st monthly) when a balance the
 * user watches falls under the level set: the daily job's check driven with a given clock, the
 * message center's type 6 and a mail on a real SMTP server.
 */
import assert from "node:assert/strict";
import { testApp } from "../../tests/helpers/harness.ts";
import { mailText, startSmtp } from "../../tests/helpers/smtp.ts";
import { asAdmin, ok, PASSWORD } from "../devices/test_support.ts";

const at = (iso: string) => Date.parse(iso);

Deno.test("balance reminders at their cadence under the user's thresholds", async (t) => {
  const smtp = await startSmtp();
  const app = await testApp({ SMTP_HOST: "127.0.0.1", SMTP_PORT: String(smtp.port) });
  try {
    const { adminId, add } = await asAdmin(app);
    const id = await add("remind_a", adminId, 8);
    const acc = (await app.services.accountStore.get(id))!;
    await app.services.accountStore.update({ ...acc, email: "owner@fleet.test" });
    const token = await app.login("remind_a", PASSWORD);
    const prefs = async (body: unknown) =>
      ok(await app.call("/v3/new/message/prefs/save", body, token));
    const reminders = async () =>
      ok(await app.call("/v3/new/message/list", { type: 6, pageNum: 1, pageSize: 50 }, token))
        .total as number;
    const run = (iso: string) => app.services.notices.daily(at(iso));

    await t.step("weekly: on Monday from 10:00, once a week", async () => {
      // 50 free credits are under the 60 watched; coins are not watched.
      const saved = await prefs({
        balanceReminder: "weekly",
        balanceThresholds: { coins: null, cards: null, credits: 60 },
      });
      assert.deepEqual(saved.balanceThresholds, { coins: null, cards: null, credits: 60 });
      await run("2026-11-23T09:59:00Z"); // Monday, before 10:00
      assert.equal(await reminders(), 0);
      await run("2026-11-23T10:00:00Z");
      assert.equal(await reminders(), 1);
      const [mail] = await smtp.waitFor(1);
      assert.deepEqual(mail.to, ["owner@fleet.test"]);
      assert.equal(mail.subject, "Balance reminder");
      assert.match(mailText(mail.raw), /50 credits/);
      await run("2026-11-25T10:00:00Z"); // Wednesday of the same week
      assert.equal(await reminders(), 1);
      await run("2026-11-30T10:00:00Z"); // the next Monday
      assert.equal(await reminders(), 2);
      const list = ok(
        await app.call("/v3/new/message/list", { type: 6, pageNum: 1, pageSize: 10 }, token),
      ).list;
      assert.equal(list[0].params.variant, "thresholds");
      assert.equal(list[0].params.credits, 50);
    });

    await t.step(
      "daily: every day from 10:00; saving the cadence keeps the thresholds",
      async () => {
        await prefs({ balanceReminder: "daily" });
        const kept = ok(await app.call("/v3/new/message/prefs/get", {}, token));
        assert.deepEqual(kept.balanceThresholds, { coins: null, cards: null, credits: 60 });
        await run("2026-12-01T09:30:00Z");
        assert.equal(await reminders(), 2);
        await run("2026-12-01T10:00:00Z");
        await run("2026-12-01T15:00:00Z");
        assert.equal(await reminders(), 3);
        await run("2026-12-02T10:00:00Z");
        assert.equal(await reminders(), 4);
      },
    );

    await t.step("monthly: on the 1st from 10:00", async () => {
      await prefs({ balanceReminder: "monthly" });
      await run("2026-12-15T10:00:00Z"); // December's reminder: not yet sent this month
      assert.equal(await reminders(), 5);
      await run("2026-12-31T10:00:00Z");
      assert.equal(await reminders(), 5);
      await run("2027-01-01T09:00:00Z");
      assert.equal(await reminders(), 5);
      await run("2027-01-01T10:00:00Z");
      assert.equal(await reminders(), 6);
    });

    await t.step("balances at or above every threshold: no reminder", async () => {
      await prefs({
        balanceReminder: "daily",
        balanceThresholds: { coins: null, cards: null, credits: 50 },
      });
      await run("2027-01-02T10:00:00Z");
      assert.equal(await reminders(), 6);
      // Mi coins watched: none held, under 1.
      await prefs({ balanceThresholds: { coins: 1, cards: null, credits: null } });
      await run("2027-01-03T10:00:00Z");
      assert.equal(await reminders(), 7);
      await prefs({ balanceReminder: "off" });
      await run("2027-01-04T10:00:00Z");
      assert.equal(await reminders(), 7);
    });
  } finally {
    await app.close();
    await smtp.close();
  }
});
