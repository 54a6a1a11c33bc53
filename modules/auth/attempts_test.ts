/**
 * Login attempt limits (issue 14 items 5 and 6): attempts are counted atomically before the
 * password is checked, per account+address (5) and per account (20 in 15 minutes); past a
 * limit a captcha is demanded — also with CAPTCHA=off — and never a lock: the right
 * password with a solved captcha always logs in.
 */
import assert from "node:assert/strict";
import { CATALOGUE } from "../../lib/errors.ts";
import { testApp } from "../../tests/helpers/harness.ts";
import { addAccount, assertCode, assertOk, PASSWORD, request } from "../accounts/test_support.ts";
import {
  FAILURE_WINDOW_MS,
  IP_LOGINS_PER_MINUTE,
  MAX_ACCOUNT_FAILURES,
  MAX_FAILURES,
} from "./service.ts";

const LOGIN = "/v3/new/account/login";

type Answer = Awaited<ReturnType<typeof request>>;

/** The per-address limiter counts per wall-clock minute: stay clear of a minute boundary. */
async function awayFromMinuteEdge(need = 10_000) {
  const left = 60_000 - Date.now() % 60_000;
  if (left < need) await new Promise((r) => setTimeout(r, left + 50));
}

function codesOf(answers: Answer[]) {
  const count = (name: keyof typeof CATALOGUE) =>
    answers.filter((r) => r.json?.code === CATALOGUE[name]).length;
  return { wrong: count("wrongCredentials"), demanded: count("loginTooFrequent") };
}

/** A refusal that tells the console to show a captcha. */
function assertCaptchaDemanded(r: Answer, name: "loginTooFrequent" | "captchaIncorrect") {
  assertCode(r, name);
  assert.deepEqual(r.json?.data, { captchaRequired: true });
}

Deno.test("login attempts: counted before the password, captcha instead of lockout", async (s) => {
  const t = await testApp(); // CAPTCHA=off: the demanded captcha must hold anyway
  const admin = await t.adminToken();
  const root = (await t.services.accountStore.findIdByLogin("admin"))!;
  const ent = await addAccount(t, admin, { account: "entLimits", accountType: 9, parentId: root });
  const login = (account: string, password: string, ip: string, extra = {}) =>
    request(t, LOGIN, { body: { account, password, ...extra }, ip });
  const solved = async () => {
    const { captchaId, code } = await t.services.captcha.issue();
    return { captchaId, captchaCode: code };
  };
  /** Wrong-password answers among the failures stored for a login, from the counters. */
  const counters = async (account: string, ip: string) => {
    const [from, all] = await t.services.kv.getMany<{ count: number }[]>([
      ["auth", "loginFailuresFrom", account, ip],
      ["auth", "loginFailures", account],
    ]);
    return { from: from.value?.count ?? 0, all: all.value?.count ?? 0 };
  };

  try {
    await s.step("25 parallel wrong passwords: 5 verified, the rest demand a captcha", async () => {
      await addAccount(t, admin, { account: "victim1", accountType: 12, parentId: ent });
      await awayFromMinuteEdge();
      const ip = "10.50.0.1";
      const burst = await Promise.all(
        Array.from({ length: 25 }, (_, i) => login("victim1", `Wrong${i}xyz`, ip)),
      );
      const { wrong, demanded } = codesOf(burst);
      assert.equal(wrong, MAX_FAILURES, JSON.stringify(burst.map((r) => r.json?.code)));
      assert.equal(demanded, 25 - MAX_FAILURES);
      for (const r of burst.filter((r) => r.json?.code === CATALOGUE.loginTooFrequent)) {
        assert.deepEqual(r.json.data, { captchaRequired: true });
      }
      // Only the verified ones were counted as failures.
      assert.deepEqual(await counters("victim1", ip), { from: MAX_FAILURES, all: MAX_FAILURES });
      const log = await t.services.authStore.loginLog(
        (await t.services.accountStore.findIdByLogin("victim1"))!,
        100,
      );
      const reasons = log.items.map((e) => e.reason);
      assert.equal(reasons.filter((r) => r === "wrongCredentials").length, MAX_FAILURES);
      assert.equal(reasons.filter((r) => r === "loginTooFrequent").length, 25 - MAX_FAILURES);

      // The right password from that address: a captcha first, then it logs in.
      assertCaptchaDemanded(await login("victim1", PASSWORD, ip), "loginTooFrequent");
      const wrongCaptcha = { captchaId: (await solved()).captchaId, captchaCode: "0000" };
      assertCaptchaDemanded(await login("victim1", PASSWORD, ip, wrongCaptcha), "captchaIncorrect");
      assertOk(await login("victim1", PASSWORD, ip, await solved()));
      // Logging in cleared that address's counter; the account keeps the failures it had.
      assert.deepEqual(await counters("victim1", ip), { from: 0, all: MAX_FAILURES });
      assertOk(await login("victim1", PASSWORD, ip));
    });

    await s.step("the owner at another address is not held up by an attacker's", async () => {
      await addAccount(t, admin, { account: "victim2", accountType: 12, parentId: ent });
      await awayFromMinuteEdge();
      const attacker = "10.51.0.1";
      for (let i = 0; i < MAX_FAILURES; i++) {
        assertCode(await login("victim2", `Wrong${i}xyz`, attacker), "wrongCredentials");
      }
      assertCaptchaDemanded(await login("victim2", PASSWORD, attacker), "loginTooFrequent");
      // The owner needs no captcha and is logged in; a mistyped password is just wrong.
      assertCode(await login("victim2", "Typo12345", "10.51.0.2"), "wrongCredentials");
      assertOk(await login("victim2", PASSWORD, "10.51.0.2"));
      // The attacker keeps guessing only by solving a captcha per guess, and each still counts.
      assertCode(await login("victim2", "Wrong9xyz", attacker, await solved()), "wrongCredentials");
      assert.equal((await counters("victim2", attacker)).from, MAX_FAILURES + 1);
      assertCaptchaDemanded(await login("victim2", "Wrong8xyz", attacker), "loginTooFrequent");
    });

    await s.step("20 failures from many addresses demand a captcha from everyone", async () => {
      await addAccount(t, admin, { account: "victim3", accountType: 12, parentId: ent });
      // 40 addresses at once, one guess each: exactly 20 are verified.
      const burst = await Promise.all(
        Array.from({ length: 40 }, (_, i) => login("victim3", `Wrong${i}xyz`, `10.52.0.${i + 1}`)),
      );
      const { wrong, demanded } = codesOf(burst);
      assert.equal(wrong, MAX_ACCOUNT_FAILURES, JSON.stringify(burst.map((r) => r.json?.code)));
      assert.equal(demanded, 40 - MAX_ACCOUNT_FAILURES);
      // Now even the owner at a fresh address needs the captcha, and with it logs in.
      const owner = "10.52.1.1";
      assertCaptchaDemanded(await login("victim3", PASSWORD, owner), "loginTooFrequent");
      assertOk(await login("victim3", PASSWORD, owner, await solved()));
      // Other accounts are not affected.
      assertOk(await login("admin", "Admin12345", "10.52.1.2"));
    });

    await s.step("sequential failures from 4 addresses reach the account limit too", async () => {
      await addAccount(t, admin, { account: "victim4", accountType: 12, parentId: ent });
      const perAddress = MAX_ACCOUNT_FAILURES / 4;
      assert.ok(perAddress <= MAX_FAILURES);
      for (let a = 1; a <= 4; a++) {
        for (let i = 0; i < perAddress; i++) {
          assertCode(await login("victim4", `Wrong${i}xyz`, `10.53.0.${a}`), "wrongCredentials");
        }
      }
      assertCaptchaDemanded(await login("victim4", PASSWORD, "10.53.0.9"), "loginTooFrequent");
    });

    await s.step("the demand ends with its window", async () => {
      const age = async (key: Deno.KvKey) => {
        const e = await t.services.kv.get<{ count: number; since: number; until: number }>(key);
        assert.ok(e.value, String(key));
        await t.services.kv.set(key, {
          ...e.value,
          since: e.value.since - FAILURE_WINDOW_MS - 1,
          until: Date.now() - 1,
        });
      };
      await age(["auth", "loginFailures", "victim4"]);
      for (let a = 1; a <= 4; a++) {
        await age(["auth", "loginFailuresFrom", "victim4", `10.53.0.${a}`]);
      }
      assertOk(await login("victim4", PASSWORD, "10.53.0.9"));
      assertOk(await login("victim4", PASSWORD, "10.53.0.1"));
    });

    await s.step("logins of accounts that do not exist are limited alike", async () => {
      await awayFromMinuteEdge();
      const ip = "10.54.0.1";
      const burst = await Promise.all(
        Array.from({ length: 10 }, () => login("nobody_here", "Wrong1234", ip)),
      );
      assert.deepEqual(codesOf(burst), { wrong: MAX_FAILURES, demanded: 10 - MAX_FAILURES });
    });

    await s.step("the per-address limit of 30 a minute still holds", async () => {
      await awayFromMinuteEdge();
      const ip = "10.55.0.1";
      const burst = await Promise.all(
        Array.from(
          { length: IP_LOGINS_PER_MINUTE + 5 },
          (_, i) => login(`ghost${i}`, "Wrong1234", ip),
        ),
      );
      const tooOften = burst.filter((r) => r.json?.code === CATALOGUE.requestTooOften).length;
      assert.equal(tooOften, 5);
    });
  } finally {
    await t.close();
  }
});
