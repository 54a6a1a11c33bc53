/**
 * Checks of a signed-in account's password (issue 14): the command password (direct and
 * batch sends, rule-attached commands) and the old password on change are counted per
 * account BEFORE the password is verified — at most 5 wrong in 15 minutes, one counter for
 * all of them — so a stolen session cannot guess the password through them.
 */
import assert from "node:assert/strict";
import { CATALOGUE } from "../../lib/errors.ts";
import { testApp } from "../../tests/helpers/harness.ts";
import { accountWithDevices, circleFence, PASSWORD } from "../../tests/helpers/alerting.ts";
import { PASSWORD_CHECK_LIMITS } from "./confirm.ts";

const MAX = PASSWORD_CHECK_LIMITS.max;
const CUT = "DYD,000000#";

type Answer = { json: { code: number; msg?: string; data?: { field?: string } } };

/** How many answers carry each catalogue code. */
function tally(answers: Answer[]) {
  const n = (name: keyof typeof CATALOGUE) =>
    answers.filter((r) => r.json.code === CATALOGUE[name]).length;
  return {
    incorrect: n("commandPasswordIncorrect"),
    wrongOld: n("wrongOldPassword"),
    tooMany: n("passwordTooManyTries"),
  };
}

Deno.test("password checks of signed-in accounts are counted before verifying", async (t) => {
  const app = await testApp({ ALERT_ENGINE: "off" });
  try {
    const IMEI = "359710049710021";
    const a = await accountWithDevices(app, "pc_owner", [IMEI]);
    const perms = await app.call("/v3/new/account/update", {
      id: a.id,
      permissions: { isBatchSendIns: 1 },
    }, a.admin);
    assert.equal(perms.json.code, 10000, JSON.stringify(perms.json));
    const key = ["auth", "passwordChecks", a.id];
    const count = async () => (await app.services.kv.get<{ count: number }>(key)).value?.count ?? 0;
    /** The window ends: the counter's record is made to have run out. */
    const endWindow = async () => {
      const e = await app.services.kv.get<{ count: number; since: number; until: number }>(key);
      assert.ok(e.value);
      await app.services.kv.set(key, { ...e.value, until: Date.now() - 1 });
    };
    const cut = (password: string) =>
      app.call("/v3/new/command/sendInstruction", {
        imei: IMEI,
        code: "engineCut",
        params: {},
        sendType: "offline",
        replace: true,
        password,
      }, a.token);
    const text = (password: string) =>
      app.call("/v3/new/command/send", {
        imei: IMEI,
        content: CUT,
        sendType: "offline",
        replace: true,
        password,
      }, a.token);
    const batch = (password: string) =>
      app.call("/v3/new/command/batchSend", {
        imeis: [IMEI],
        code: "custom",
        params: { text: CUT },
        sendType: "offline",
        replace: true,
        password,
      }, a.token);
    const fence = (password: string) =>
      app.call("/v3/new/geofence/save", {
        ...circleFence("Yard", 22.5431, 114.0579, 300),
        command: CUT,
        imeis: [IMEI],
        password,
      }, a.token);
    const change = (oldPassword: string, next = "Changed123x") =>
      app.call("/v3/new/account/changePassword", {
        oldPassword,
        newPassword: next,
        confirmPassword: next,
      }, a.token);

    await t.step(
      "10 parallel wrong command passwords: 5 verified, 5 refused unverified",
      async () => {
        const burst = await Promise.all(
          Array.from({ length: 10 }, (_, i) => [cut, text][i % 2](`Wrong${i}xyz`)),
        );
        assert.deepEqual(
          tally(burst),
          { incorrect: MAX, wrongOld: 0, tooMany: 10 - MAX },
          JSON.stringify(burst.map((r) => r.json.code)),
        );
        const refused = burst.find((r) => r.json.code === CATALOGUE.passwordTooManyTries)!;
        assert.match(refused.json.msg ?? "", /15 minutes/);
        assert.equal(await count(), MAX);
      },
    );

    await t.step("past the limit even the right password is refused, on every form", async () => {
      for (const attempt of [cut, text, batch]) {
        const r = await attempt(PASSWORD);
        assert.equal(r.json.code, CATALOGUE.passwordTooManyTries, JSON.stringify(r.json));
      }
      const f = await fence(PASSWORD);
      assert.equal(f.json.code, CATALOGUE.passwordTooManyTries, JSON.stringify(f.json));
      assert.equal(f.json.data?.field, "password");
      assert.equal((await change(PASSWORD)).json.code, CATALOGUE.passwordTooManyTries);
      // Nothing was sent or saved, and the refusals were not counted.
      assert.equal((await app.services.commandStore.listForDevice(IMEI, 1, 50)).total, 0);
      assert.equal((await app.services.geofenceStore.ofUser(a.id, "fence")).length, 0);
      assert.equal(await count(), MAX);
      // A command that needs no password is not held up.
      const where = await app.call("/v3/new/command/send", {
        imei: IMEI,
        content: "WHERE#",
        sendType: "offline",
        replace: true,
      }, a.token);
      assert.equal(where.json.code, 10000, JSON.stringify(where.json));
    });

    await t.step("when the window ends the right password works and resets the count", async () => {
      await endWindow();
      assert.equal((await batch(PASSWORD)).json.code, 10000);
      assert.equal(await count(), 0);
      // 4 wrong, then the right one: the count starts again, 5 more wrong are all verified.
      for (let i = 0; i < MAX - 1; i++) {
        assert.equal((await text(`Wrong${i}xyz`)).json.code, CATALOGUE.commandPasswordIncorrect);
      }
      const f = await fence(PASSWORD);
      assert.equal(f.json.code, 10000, JSON.stringify(f.json));
      assert.equal(await count(), 0);
      const burst = await Promise.all(
        Array.from({ length: MAX + 1 }, (_, i) => batch(`Wrong${i}xyz`)),
      );
      assert.deepEqual(tally(burst), { incorrect: MAX, wrongOld: 0, tooMany: 1 });
      await endWindow();
    });

    await t.step("change password: the old password is counted the same way", async () => {
      const burst = await Promise.all(
        Array.from({ length: 10 }, (_, i) => change(`Wrong${i}xyz`)),
      );
      assert.deepEqual(
        tally(burst),
        { incorrect: 0, wrongOld: MAX, tooMany: 10 - MAX },
        JSON.stringify(burst.map((r) => r.json.code)),
      );
      assert.equal((await change(PASSWORD)).json.code, CATALOGUE.passwordTooManyTries);
      // The command password shares the counter: no more guesses there either.
      assert.equal((await cut(PASSWORD)).json.code, CATALOGUE.passwordTooManyTries);
      await endWindow();
      const ok = await change(PASSWORD);
      assert.equal(ok.json.code, 10000, JSON.stringify(ok.json));
      assert.equal(await count(), 0);
      // The password is changed: a login with the new one works.
      await app.login("pc_owner", "Changed123x");
    });
  } finally {
    await app.close();
  }
});
