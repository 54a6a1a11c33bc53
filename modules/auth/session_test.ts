/**
 * Sessions: token claims (spec §3), Bearer and cookie transport with the CSRF check,
 * logout and forced logout, password change, throttling, the login log, login refusals,
 * the current user and the unit normalisation of spec §4.
 */
import assert from "node:assert/strict";
import { sign } from "hono/jwt";
import { CATALOGUE } from "../../lib/errors.ts";
import { RESOURCES } from "../../lib/i18n/i18n.ts";
import { testApp } from "../../tests/helpers/harness.ts";
import { normalizeUnits } from "../accounts/current.ts";
import {
  addAccount,
  addVirtual,
  assertCode,
  assertOk,
  decodeJwt,
  PASSWORD,
  request,
  type RequestOptions,
  whoAmI,
} from "../accounts/test_support.ts";
import { FAILURE_WINDOW_MS, IP_LOGINS_PER_MINUTE, MAX_FAILURES } from "./service.ts";

const LOGIN = "/v3/new/account/login";
const CURRENT = "/v3/new/account/current";

/** Parses Set-Cookie headers into name → {value, attributes}. */
function cookiesOf(res: Response) {
  const out: Record<string, { value: string; attrs: string[] }> = {};
  for (const line of res.headers.getSetCookie()) {
    const [pair, ...attrs] = line.split(";").map((p) => p.trim());
    const i = pair.indexOf("=");
    out[pair.slice(0, i)] = { value: pair.slice(i + 1), attrs: attrs.map((a) => a.toLowerCase()) };
  }
  return out;
}

Deno.test("sessions and login", async (s) => {
  const t = await testApp();
  /** Logs in from a fresh address so the per-address limit never interferes. */
  const loginRaw = (account: string, password: string, ip = t.nextIp(), ua = "TestAgent/1.0") =>
    request(t, LOGIN, { body: { account, password }, ip, headers: { "user-agent": ua } });
  const login = async (account: string, password = PASSWORD) => {
    const r = await loginRaw(account, password);
    assertOk(r);
    return r.json.data.token as string;
  };
  const current = (token: string) => request(t, CURRENT, { token });

  const admin = await login("admin", "Admin12345");
  const adminId = await whoAmI(t, admin);
  const distA = await addAccount(t, admin, { account: "distA", accountType: 8, parentId: adminId });
  const entA = await addAccount(t, admin, { account: "entA", accountType: 9, parentId: distA });
  const distAToken = await login("distA");
  const vA = await addVirtual(t, distAToken, "virtA1", {
    scope: { instructionsFlag: 0, updateFlag: 1, videoFlag: 0 },
  });

  try {
    await s.step("login returns a JWT with the spec claims and sets the cookies", async () => {
      const before = Math.floor(Date.now() / 1000);
      const r = await loginRaw("distA", PASSWORD);
      assertOk(r);
      const { token, expiresAt } = r.json.data;
      const claims = decodeJwt(token);
      assert.equal(claims.accountId, distA);
      assert.equal(claims.isUserFictitious, "false");
      assert.equal(claims.userFictitiousParentId, "");
      assert.equal(claims.cAccountId, distA);
      assert.equal(typeof claims.jti, "string");
      assert.ok((claims.jti as string).length >= 16);
      assert.ok(typeof claims.iat === "number" && claims.iat >= before - 1);
      assert.equal(claims.exp, (claims.iat as number) + t.services.config.SESSION_HOURS * 3600);
      assert.equal(expiresAt, (claims.exp as number) * 1000);

      const cookies = cookiesOf(r.res);
      assert.equal(cookies.tp_token.value, token);
      assert.ok(cookies.tp_token.attrs.includes("httponly"));
      assert.ok(cookies.tp_token.attrs.includes("samesite=lax"));
      assert.ok(cookies.tp_token.attrs.includes("path=/"));
      assert.ok(cookies.tp_csrf.value.length >= 32);
      assert.ok(!cookies.tp_csrf.attrs.includes("httponly"), "scripts must read the CSRF cookie");

      // A second login is a second session with its own jti.
      const again = decodeJwt(await login("distA"));
      assert.notEqual(again.jti, claims.jti);

      const v = decodeJwt(await login("virtA1"));
      assert.equal(v.accountId, vA);
      assert.equal(v.isUserFictitious, "true");
      assert.equal(v.userFictitiousParentId, distA);
      assert.equal(v.cAccountId, distA);
    });

    await s.step("the token works as Bearer and as cookie; cookie changes need CSRF", async () => {
      const r = await loginRaw("distA", PASSWORD);
      const token = r.json.data.token;
      const csrf = cookiesOf(r.res).tp_csrf.value;
      assertOk(await current(token));
      const viaCookie = await request(t, CURRENT, { cookies: { tp_token: token } });
      assertOk(viaCookie);
      assert.equal(viaCookie.json.data.id, distA);

      const change = { body: { contact: "via cookie" } };
      const path = "/v3/new/account/updateProfile";
      const attempts: RequestOptions[] = [
        { cookies: { tp_token: token, tp_csrf: csrf } }, // no header
        { cookies: { tp_token: token, tp_csrf: csrf }, headers: { "x-csrf-token": "x" + csrf } },
        { cookies: { tp_token: token, tp_csrf: csrf }, headers: { "x-csrf-token": "nope" } },
        { cookies: { tp_token: token }, headers: { "x-csrf-token": csrf } }, // no cookie
        { cookies: { tp_token: token } },
      ];
      for (const attempt of attempts) {
        const refused = await request(t, path, { ...change, ...attempt });
        assertCode(refused, "csrfRejected", 403);
      }
      assert.equal((await t.services.accountStore.get(distA))?.contact, "");
      assertOk(
        await request(t, path, {
          ...change,
          cookies: { tp_token: token, tp_csrf: csrf },
          headers: { "x-csrf-token": csrf },
        }),
      );
      assert.equal((await t.services.accountStore.get(distA))?.contact, "via cookie");
      // Bearer is not subject to CSRF (a browser cannot add the header cross-site).
      assertOk(await request(t, path, { body: { contact: "via bearer" }, token }));
      assert.equal((await t.services.accountStore.get(distA))?.contact, "via bearer");
    });

    await s.step("missing, malformed, forged or expired tokens get HTTP 401", async () => {
      const secret = await t.services.authStore.signingSecret();
      const real = decodeJwt(distAToken);
      const now = Math.floor(Date.now() / 1000);
      const forged = await sign({ ...real }, "not-the-secret-of-this-install", "HS256");
      const expired = await sign({ ...real, iat: now - 7200, exp: now - 3600 }, secret, "HS256");
      const unknownJti = await sign({ ...real, jti: crypto.randomUUID() }, secret, "HS256");
      const otherVersion = await sign({ ...real, sv: 99 }, secret, "HS256");
      const [h, p] = distAToken.split(".");
      const none = `${btoa(JSON.stringify({ alg: "none", typ: "JWT" })).replace(/=/g, "")}.${p}.`;
      const tampered = `${h}.${p.slice(0, -2)}${p.at(-2) === "A" ? "B" : "A"}${p.at(-1)}.${
        distAToken.split(".")[2]
      }`;
      for (const token of [forged, expired, unknownJti, otherVersion, none, tampered, "garbage"]) {
        const r = await current(token);
        assertCode(r, "tokenInvalid", 401);
      }
      assertCode(await request(t, CURRENT), "tokenInvalid", 401);
      assertCode(
        await request(t, CURRENT, { headers: { authorization: "Bearer undefined" } }),
        "tokenInvalid",
        401,
      );
      assertCode(
        await request(t, CURRENT, { cookies: { tp_token: "garbage" } }),
        "tokenInvalid",
        401,
      );
      assertOk(await current(distAToken));
    });

    await s.step("logout revokes the token and clears the cookies", async () => {
      const token = await login("distA");
      const other = await login("distA");
      const r = await request(t, "/v3/new/account/logout", { body: {}, token });
      assertOk(r);
      const cleared = cookiesOf(r.res);
      assert.equal(cleared.tp_token.value, "");
      assert.ok(cleared.tp_token.attrs.includes("max-age=0"));
      assertCode(await current(token), "tokenInvalid", 401);
      assertOk(await current(other)); // only that session
    });

    await s.step("forced logout ends every session of the account", async () => {
      const one = await login("entA");
      const two = await login("entA");
      const r = await request(t, "/v3/new/account/forceLogout", {
        body: { id: entA },
        token: distAToken,
      });
      assertOk(r);
      assert.equal(r.json.data.sessions, 2);
      assertCode(await current(one), "tokenInvalid", 401);
      assertCode(await current(two), "tokenInvalid", 401);
      assertOk(await current(await login("entA"))); // logging in again works
    });

    await s.step("changing the password revokes the old tokens", async () => {
      const old = await login("entA");
      const other = await login("entA");
      const r = await request(t, "/v3/new/account/changePassword", {
        body: { oldPassword: PASSWORD, newPassword: "Changed123", confirmPassword: "Changed123" },
        token: old,
      });
      assertOk(r);
      assertCode(await current(old), "tokenInvalid", 401);
      assertCode(await current(other), "tokenInvalid", 401);
      assertCode(await loginRaw("entA", PASSWORD), "wrongCredentials");
      assertOk(await current(await login("entA", "Changed123")));
    });

    await s.step("virtual accounts cannot change their password", async () => {
      const token = await login("virtA1");
      const r = await request(t, "/v3/new/account/changePassword", {
        body: { oldPassword: PASSWORD, newPassword: "Changed123", confirmPassword: "Changed123" },
        token,
      });
      assertCode(r, "virtualCannotChangePassword");
      assert.equal(r.json.code, 40016);
      assertOk(await current(token));
    });

    await s.step("five wrong passwords from one address demand a captcha there", async () => {
      await addAccount(t, admin, { account: "throttled", accountType: 12, parentId: entA });
      const ip = "10.98.0.1";
      for (let i = 1; i <= MAX_FAILURES; i++) {
        // Case does not matter: it is the same login.
        const r = await loginRaw(i % 2 ? "throttled" : "THROTTLED", `Wrong${i}xyz`, ip);
        assertCode(r, "wrongCredentials");
      }
      // Not a lock: the right password is refused only until a captcha is solved.
      const demanded = await loginRaw("throttled", PASSWORD, ip);
      assertCode(demanded, "loginTooFrequent");
      assert.equal(demanded.json.code, 40007);
      assert.deepEqual(demanded.json.data, { captchaRequired: true });
      const { captchaId, code } = await t.services.captcha.issue();
      assertOk(
        await request(t, LOGIN, {
          body: { account: "throttled", password: PASSWORD, captchaId, captchaCode: code },
          ip,
        }),
      );
      // Other accounts and other addresses are not affected.
      await login("distA");
      await login("throttled");
      // Once the window has passed, the address needs no captcha either.
      for (let i = 1; i <= MAX_FAILURES; i++) {
        assertCode(await loginRaw("throttled", `Wrong${i}xyz`, ip), "wrongCredentials");
      }
      assertCode(await loginRaw("throttled", PASSWORD, ip), "loginTooFrequent");
      const key = ["auth", "loginFailuresFrom", "throttled", ip];
      const entry = await t.services.kv.get<{ count: number; until: number }>(key);
      assert.equal(entry.value?.count, MAX_FAILURES);
      assert.ok(entry.value!.until >= Date.now() + FAILURE_WINDOW_MS - 60_000);
      await t.services.kv.set(key, { ...entry.value!, until: Date.now() - 1 });
      assertOk(await loginRaw("throttled", PASSWORD, ip));
      assert.equal((await t.services.kv.get(key)).value, null);
    });

    await s.step("too many logins from one address: requestTooOften", async () => {
      // The limiter counts per wall-clock minute: stay clear of a minute boundary.
      const left = 60_000 - Date.now() % 60_000;
      if (left < 8_000) await new Promise((r) => setTimeout(r, left + 50));
      const ip = "10.99.0.1";
      const codes: number[] = [];
      for (let i = 0; i < IP_LOGINS_PER_MINUTE; i++) {
        // After MAX_FAILURES a captcha is demanded, which answers without hashing.
        codes.push((await loginRaw("ghost_user", "Wrong1234", ip)).json.code);
      }
      assert.ok(!codes.includes(CATALOGUE.requestTooOften), String(codes));
      assert.equal(codes.at(-1), CATALOGUE.loginTooFrequent);
      const r = await loginRaw("distA", PASSWORD, ip);
      assertCode(r, "requestTooOften");
      assert.equal(r.json.code, 40008);
      for (let i = 0; i < 5; i++) {
        assertCode(await loginRaw("distA", PASSWORD, ip), "requestTooOften");
      }
      // Another address is not limited.
      const other = await loginRaw("distA", PASSWORD, "10.99.0.2");
      assertOk(other);
      // The refusal is in distA's log, once: a flood does not write one entry per request.
      const log = await request(t, "/v3/new/account/loginLogs", {
        body: { pageSize: 100 },
        token: other.json.data.token,
      });
      const flood = log.json.data.items.filter((e: { reason: string; ip: string }) =>
        e.reason === "requestTooOften" && e.ip === ip
      );
      assert.equal(flood.length, 1);
    });

    await s.step("the login log records successes and failures with address and time", async () => {
      const started = new Date().toISOString();
      assertCode(
        await loginRaw("entA", "Wrong12345", "192.0.2.10", "Agent-Fail"),
        "wrongCredentials",
      );
      assertOk(await loginRaw("entA", "Changed123", "192.0.2.11", "Agent-Ok"));
      const token = await login("entA", "Changed123");
      const r = await request(t, "/v3/new/account/loginLogs", { body: { pageSize: 3 }, token });
      assertOk(r);
      const [latest, ok, failed] = r.json.data.items;
      assert.equal(latest.success, true); // the login just above, newest first
      assert.equal(ok.success, true);
      assert.equal(ok.ip, "192.0.2.11");
      assert.equal(ok.userAgent, "Agent-Ok");
      assert.equal(ok.reason, "success");
      assert.equal(ok.accountId, entA);
      assert.equal(failed.success, false);
      assert.equal(failed.ip, "192.0.2.10");
      assert.equal(failed.reason, "wrongCredentials");
      assert.equal(failed.account, "entA");
      for (const e of [ok, failed]) {
        assert.ok(e.time >= started && e.time <= new Date().toISOString(), e.time);
      }
      assert.equal(r.json.data.items.length, 3);
      assert.ok(r.json.data.cursor, "more pages");
      const next = await request(t, "/v3/new/account/loginLogs", {
        body: { pageSize: 3, cursor: r.json.data.cursor },
        token,
      });
      assertOk(next);
      assert.ok(next.json.data.items.length > 0);
      assert.ok(next.json.data.items.every((e: { time: string }) => e.time <= failed.time));
      // No password ever lands in the log.
      assert.doesNotMatch(JSON.stringify(r.json.data), /Wrong12345|Changed123/);
    });

    await s.step(
      "webLogin = 0 refuses login and live tokens; virtual users follow",
      async () => {
        const live = await login("entA", "Changed123");
        const entV = await addVirtual(t, live, "virtEntA");
        assertOk(
          await request(t, "/v3/new/account/update", {
            body: { id: entA, permissions: { webLogin: 0 } },
            token: admin,
          }),
        );
        const r = await loginRaw("entA", "Changed123");
        assertCode(r, "loginDenied");
        assert.equal(r.json.code, 40006);
        assertCode(await loginRaw("virtEntA", PASSWORD), "loginDenied");
        assertCode(await current(live), "tokenInvalid", 401);
        assertOk(
          await request(t, "/v3/new/account/update", {
            body: { id: entA, permissions: { webLogin: 1 } },
            token: admin,
          }),
        );
        assertOk(await loginRaw("virtEntA", PASSWORD));
        assert.ok(entV);
      },
    );

    await s.step("an expired account (or virtual account) cannot log in", async () => {
      const live = await login("entA", "Changed123");
      const store = t.services.accountStore;
      // The API refuses an expiry before activation, so age the records directly.
      const setExpiry = async (id: string, expiration: string | null) => {
        const a = (await store.get(id))!;
        await store.update({
          ...a,
          expiration,
          virtual: a.virtual ? { ...a.virtual, expiration } : null,
        });
      };
      await setExpiry(entA, "2000-01-01");
      const r = await loginRaw("entA", "Changed123");
      assertCode(r, "accountExpired");
      assert.equal(r.json.code, 40015);
      assertCode(await current(live), "tokenInvalid", 401);
      assertCode(await loginRaw("virtEntA", PASSWORD), "accountExpired"); // its master expired
      const today = new Date().toISOString().slice(0, 10);
      assertOk(
        await request(t, "/v3/new/account/update", {
          body: { id: entA, expiration: today },
          token: admin,
        }),
      ); // still valid on its last day
      const entToken = await login("entA", "Changed123");
      await setExpiry(entA, null);

      const vId = (await store.findIdByLogin("virtEntA"))!;
      await setExpiry(vId, "2000-01-01");
      assertCode(await loginRaw("virtEntA", PASSWORD), "accountExpired");
      assertOk(await current(entToken)); // the master is unaffected
    });

    await s.step("/account/current has the spec §3 fields", async () => {
      const r = await current(distAToken);
      assertOk(r);
      const d = r.json.data;
      for (
        const f of [
          "id",
          "parentId",
          "fullParentId",
          "nodeId",
          "nickName",
          "account",
          "accountType",
          "isBatchSendIns",
          "isBatchSendFm",
          "updateDevFlag",
          "appUpdateDevFlag",
          "webLogin",
          "appLogin",
          "language",
          "userFictitiousFlag",
          "instructionsFlag",
          "updateFlag",
          "viewReportFlag",
          "capacity",
          "showUnit",
          "speed",
          "temperature",
          "googleMapKey",
          "userMapType",
          "parentGoogleMapKeyFlag",
          "timeZones",
          "userId",
          "coinNumber",
          "soundFlag",
        ]
      ) {
        assert.ok(f in d, `current.${f}`);
      }
      assert.equal(d.id, distA);
      assert.equal(d.userId, distA);
      assert.equal(d.parentId, adminId);
      assert.equal(d.fullParentId, `,${adminId},`);
      assert.equal(d.account, "distA");
      assert.equal(d.accountType, 8);
      assert.equal(d.nodeId, 1);
      assert.equal(d.userFictitiousFlag, false);
      assert.equal(d.instructionsFlag, 1);
      assert.equal(d.updateFlag, 1);
      assert.equal(d.isBatchSendIns, 1);
      assert.equal(d.webLogin, 1);
      assert.deepEqual(
        [d.capacity, d.showUnit, d.speed, d.temperature],
        ["L", "km", "km/h", "°C"],
      );
      assert.equal(d.userMapType, "OpenStreetMap");
      assert.equal(d.parentGoogleMapKeyFlag, 0);
      assert.equal(d.coinNumber, 0);
      assert.equal(d.soundFlag, 1, "the alert settings' sound, on by default");
      assert.equal(d.passwordHash, undefined);
      assert.equal(d.sessionVersion, undefined);
      // The timestamp query of the console is accepted.
      assertOk(await request(t, `${CURRENT}?timestamp=${Date.now()}`, { token: distAToken }));

      // A virtual user: its own id and name, the master's subtree and flags, its scope.
      const v = (await current(await login("virtA1"))).json.data;
      assert.equal(v.id, vA);
      assert.equal(v.userId, distA);
      assert.equal(v.account, "virtA1");
      assert.equal(v.parentId, adminId);
      assert.equal(v.accountType, 8);
      assert.equal(v.userFictitiousFlag, true);
      assert.equal(v.instructionsFlag, 0);
      assert.equal(v.updateFlag, 1);
      assert.equal(v.isBatchSendIns, 1);

      // Units set in the profile come back normalised.
      assertOk(
        await request(t, "/v3/new/account/updateProfile", {
          body: { showUnit: "nmi", capacity: "GAL", temperature: "°F" },
          token: distAToken,
        }),
      );
      const u = (await current(distAToken)).json.data;
      assert.deepEqual([u.capacity, u.showUnit, u.speed, u.temperature], [
        "GAL",
        "nmi",
        "knot",
        "°F",
      ]);
      assertOk(
        await request(t, "/v3/new/account/updateProfile", {
          body: { showUnit: "mi" },
          token: distAToken,
        }),
      );
      const m = (await current(distAToken)).json.data;
      assert.deepEqual([m.showUnit, m.speed], ["mi", "mph"]);

      // A parent sharing its maps key (in its profile) sets parentGoogleMapKeyFlag.
      const adminToken = admin;
      const share = (shareGoogleMapKey: 0 | 1) =>
        request(t, "/v3/new/account/updateProfile", {
          body: { googleMapKey: "AIza-test", shareGoogleMapKey },
          token: adminToken,
        });
      assertOk(await share(0));
      assert.equal((await current(distAToken)).json.data.parentGoogleMapKeyFlag, 0);
      assertOk(await share(1));
      assert.equal((await current(adminToken)).json.data.shareGoogleMapKey, 1);
      assert.equal((await current(distAToken)).json.data.parentGoogleMapKeyFlag, 1);
      const zh = await request(t, CURRENT, { token: distAToken, headers: { "x-locale": "zh" } });
      assertOk(zh);
      assert.equal(zh.json.msg, RESOURCES.zh.common.success);
    });
  } finally {
    await t.close();
  }
});

Deno.test("normalizeUnits follows spec §4", () => {
  const cases: [Parameters<typeof normalizeUnits>[0], ReturnType<typeof normalizeUnits>][] = [
    [{}, { capacity: "L", showUnit: "km", speed: "km/h", temperature: "°C" }],
    [
      { capacity: "g", showUnit: "mi", temperature: "f" },
      { capacity: "GAL", showUnit: "mi", speed: "mph", temperature: "°F" },
    ],
    [
      { capacity: "GAL", showUnit: "knot", temperature: "°F" },
      { capacity: "GAL", showUnit: "nmi", speed: "knot", temperature: "°F" },
    ],
    [
      { capacity: "L", showUnit: "nmi", temperature: "c" },
      { capacity: "L", showUnit: "nmi", speed: "knot", temperature: "°C" },
    ],
    [
      { capacity: "gallon", showUnit: "miles", temperature: "fahrenheit" },
      { capacity: "L", showUnit: "km", speed: "km/h", temperature: "°C" },
    ],
    [
      { capacity: "", showUnit: "km", temperature: "°C" },
      { capacity: "L", showUnit: "km", speed: "km/h", temperature: "°C" },
    ],
    [
      { capacity: "gal", showUnit: "MI", temperature: "F" },
      { capacity: "GAL", showUnit: "mi", speed: "mph", temperature: "°F" },
    ],
  ];
  for (const [input, expected] of cases) {
    assert.deepEqual(normalizeUnits(input), expected, JSON.stringify(input));
  }
});
