/**
 * Fleet licence and insurance reminders (issue 19, spec §4 "expiring soon, expired"; console §6
 * message types 7 and 8): the existing daily check raises each once per state, in the message
 * centre and by mail (a real SMTP server), and a device bound to a vehicle no longer raises its
 * own device-level insurance date (the vehicle's replaces it).
 */
import assert from "node:assert/strict";
import { testApp } from "../../tests/helpers/harness.ts";
import { mailText, startSmtp } from "../../tests/helpers/smtp.ts";
import { addAccount, assertOk, PASSWORD, whoAmI } from "../accounts/test_support.ts";

const IMEI = "359710049330016";
const DAY = 86_400_000;
const plus = (days: number, from = Date.now()) =>
  new Date(from + days * DAY).toISOString().slice(0, 10);

Deno.test("fleet expiry: types 7 and 8 once per state, mailed; vehicle dates replace the device's", async () => {
  const smtp = await startSmtp();
  const t = await testApp({ SMTP_HOST: "127.0.0.1", SMTP_PORT: String(smtp.port) });
  try {
    const admin = await t.adminToken();
    const ent = await addAccount(t, admin, {
      account: "expent",
      accountType: 9,
      parentId: await whoAmI(t, admin),
      email: "fleet@ent.test",
    });
    assertOk(
      await t.call("/v3/new/newEquipment/importEquipment", {
        userId: ent,
        mcType: "GT06N",
        imeis: [IMEI],
      }, admin),
    );
    const tok = await t.login("expent", PASSWORD);
    const messages = async (type: number) =>
      (await t.call("/v3/new/message/list", { type, pageNum: 1, pageSize: 50 }, tok)).json.data;
    // The device's own insurance date would be announced too, were it not bound to a vehicle.
    assertOk(
      await t.call("/v3/new/alarm/device/save", { imei: IMEI, insuranceExpiry: plus(3) }, tok),
    );
    assertOk(
      await t.call("/v3/new/fleet/driver/add", {
        name: "Soon",
        registerDate: plus(-400),
        expiredDate: plus(10),
      }, tok),
    );
    assertOk(
      await t.call("/v3/new/fleet/driver/add", { name: "Later", expiredDate: plus(90) }, tok),
    );
    const v = await t.call("/v3/new/fleet/vehicle/add", {
      plate: "粤B-EXP1",
      imei: IMEI,
      insuranceExpire: plus(-1),
    }, tok);
    assertOk(v);

    const noon = Date.parse(`${plus(0)}T12:00:00Z`);
    await t.services.notices.daily(noon);
    const licence = await messages(7);
    assert.equal(licence.total, 1, JSON.stringify(licence));
    assert.equal(licence.list[0].params.name, "Soon");
    assert.equal(licence.list[0].params.variant, "driver");
    const insurance = await messages(8);
    assert.equal(insurance.total, 1, JSON.stringify(insurance));
    assert.equal(insurance.list[0].params.variant, "vehicleExpired");
    assert.equal(insurance.list[0].params.name, "粤B-EXP1");
    assert.equal(insurance.list[0].imei, IMEI);
    // (Other mails, e.g. a balance reminder, may go to the same address.)
    const mails = (await smtp.waitFor(2)).filter((m) => /soon expires/.test(m.subject));
    assert.deepEqual(mails.map((m) => [m.to[0], m.subject]).sort(), [
      ["fleet@ent.test", "Insurance soon expires"],
      ["fleet@ent.test", "Licence soon expires"],
    ]);
    const texts = mails.map((m) => mailText(m.raw)).join("\n");
    assert.match(texts, /Driver Soon's licence expires on/);
    assert.match(texts, /The insurance of vehicle .+ expired on /);
    assert.doesNotMatch(texts, /Credits page/);

    // Again the same day and the next: nothing new.
    await t.services.notices.daily(noon);
    await t.services.notices.daily(noon + DAY);
    assert.equal((await messages(7)).total, 1);
    assert.equal((await messages(8)).total, 1);
    // "Soon" then expires: its second state is announced once.
    await t.services.notices.daily(noon + 11 * DAY);
    await t.services.notices.daily(noon + 12 * DAY);
    const after = await messages(7);
    assert.equal(after.total, 2);
    assert.equal(after.list[0].params.variant, "driverExpired");
    // A renewed insurance date starts over ("expiring soon" of the new date).
    assertOk(
      await t.call("/v3/new/fleet/vehicle/update", {
        id: v.json.data.id,
        insuranceExpire: plus(20, noon + 12 * DAY),
      }, tok),
    );
    await t.services.notices.daily(noon + 12 * DAY);
    const renewed = await messages(8);
    assert.equal(renewed.total, 2);
    assert.equal(renewed.list[0].params.variant, "vehicle");
  } finally {
    await t.close();
    await smtp.close();
  }
});
