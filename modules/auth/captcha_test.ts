/**
 * Login captcha (spec §5 "captcha required at login"): single use, two-minute expiry,
 * refused with captchaIncorrect (40009); the HTTP route never hands out the code.
 */
import assert from "node:assert/strict";
import { CATALOGUE } from "../../lib/errors.ts";
import { ADMIN_PASSWORD, testApp } from "../../tests/helpers/harness.ts";
import { assertCode, assertOk, request } from "../accounts/test_support.ts";
import { CaptchaService, renderCaptchaSvg } from "./captcha.ts";
import { CaptchaStore } from "./captcha_store.ts";
import { CAPTCHAS_PER_MINUTE } from "./routes.ts";
import { openTestKv } from "../../tests/helpers/test_kv.ts";

const LOGIN = "/v3/new/account/login";
const ALPHABET = /^[ABCDEFGHJKLMNPQRSTUVWXYZ23456789]{4}$/;

/** The SVG shows the code only as drawn strokes: no text nodes a script could read. */
function assertNoReadableText(svg: string) {
  assert.ok(svg.startsWith("<svg"), svg.slice(0, 40));
  assert.ok(svg.endsWith("</svg>"));
  assert.doesNotMatch(svg, /<text|<tspan|<foreignObject|<title|<desc/i);
  assert.equal(svg.replace(/<[^>]*>/g, "").trim(), "", "no character data between tags");
  assert.ok((svg.match(/<path /g) ?? []).length >= 4, "one path per character");
}

Deno.test("captcha at login (CAPTCHA=on)", async (s) => {
  const t = await testApp({ CAPTCHA: "on" });
  let ip = 0;
  const login = (body: Record<string, unknown>) =>
    request(t, LOGIN, {
      body: { account: "admin", password: ADMIN_PASSWORD, ...body },
      ip: `10.20.0.${++ip}`,
    });
  try {
    await s.step("the route returns an SVG and an id, never the code", async () => {
      const r = await t.call("/v3/new/account/captcha");
      assertOk(r);
      const data = r.json.data;
      assert.deepEqual(Object.keys(data).sort(), ["captchaId", "enabled", "image"]);
      assert.equal(data.enabled, true);
      assert.match(data.captchaId, /^[0-9a-f-]{36}$/);
      assertNoReadableText(data.image);
      assert.doesNotMatch(JSON.stringify(r.json), /"code"\s*:\s*"/);
      // Each challenge is new.
      const again = (await t.call("/v3/new/account/captcha")).json.data;
      assert.notEqual(again.captchaId, data.captchaId);
      assert.notEqual(again.image, data.image);
    });

    await s.step("one address cannot issue captchas without limit", async () => {
      // The limiter counts per wall-clock minute: stay clear of a minute boundary.
      const left = 60_000 - Date.now() % 60_000;
      if (left < 5_000) await new Promise((r) => setTimeout(r, left + 50));
      const ip = "10.30.0.1";
      for (let i = 0; i < CAPTCHAS_PER_MINUTE; i++) {
        assertOk(await request(t, "/v3/new/account/captcha", { ip }));
      }
      const r = await request(t, "/v3/new/account/captcha", { ip });
      assertCode(r, "requestTooOften");
      assertOk(await request(t, "/v3/new/account/captcha", { ip: "10.30.0.2" }));
    });

    await s.step("no captcha, or an unknown id: refused", async () => {
      for (
        const body of [
          {},
          { captchaId: crypto.randomUUID(), captchaCode: "ABCD" },
          { captchaId: (await t.services.captcha.issue()).captchaId },
        ]
      ) {
        const r = await login(body);
        assertCode(r, "captchaIncorrect");
        assert.equal(r.json.code, 40009);
      }
    });

    await s.step("a wrong code is refused and uses the challenge up", async () => {
      const { captchaId, code } = await t.services.captcha.issue();
      assert.match(code, ALPHABET);
      const wrong = code === "AAAA" ? "BBBB" : "AAAA";
      assertCode(await login({ captchaId, captchaCode: wrong }), "captchaIncorrect");
      // The right code for the same challenge no longer helps.
      assertCode(await login({ captchaId, captchaCode: code }), "captchaIncorrect");
    });

    await s.step("an expired code is refused", async () => {
      // A challenge issued three minutes ago (TTL two minutes) by a service on a fake clock.
      const past = new CaptchaService(
        new CaptchaStore(t.services.kv),
        () => Date.now() - 3 * 60_000,
      );
      const { captchaId, code } = await past.issue();
      assertCode(await login({ captchaId, captchaCode: code }), "captchaIncorrect");
    });

    await s.step("the right code logs in once; reusing it is refused", async () => {
      const { captchaId, code } = await t.services.captcha.issue();
      // Case and surrounding spaces do not matter.
      const r = await login({ captchaId, captchaCode: ` ${code.toLowerCase()} ` });
      assertOk(r);
      assert.ok(r.json.data.token);
      assertCode(await login({ captchaId, captchaCode: code }), "captchaIncorrect");
    });

    await s.step("a captcha refusal does not count as a wrong password", async () => {
      for (let i = 0; i < 6; i++) assertCode(await login({}), "captchaIncorrect");
      const { captchaId, code } = await t.services.captcha.issue();
      assertOk(await login({ captchaId, captchaCode: code }));
    });

    await s.step("the refusal is logged", async () => {
      const { captchaId, code } = await t.services.captcha.issue();
      const token = (await login({ captchaId, captchaCode: code })).json.data.token;
      const r = await request(t, "/v3/new/account/loginLogs", { body: { pageSize: 100 }, token });
      const reasons = r.json.data.items.map((e: { reason: string }) => e.reason);
      assert.ok(reasons.includes("captchaIncorrect"), String(reasons));
    });
  } finally {
    await t.close();
  }
});

Deno.test("CaptchaService: single use, expiry on an injected clock", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tp-captcha-" });
  const kv = await openTestKv(`${dir}/c.kv`);
  try {
    let now = 1_000_000;
    const svc = new CaptchaService(new CaptchaStore(kv), () => now);
    const a = await svc.issue();
    const b = await svc.issue();
    const c = await svc.issue();
    assert.match(a.code, ALPHABET);
    assertNoReadableText(a.image);
    now += 2 * 60_000 - 1; // still valid at the last millisecond
    assert.equal(await svc.consume(a.captchaId, a.code), true);
    assert.equal(await svc.consume(a.captchaId, a.code), false, "single use");
    now += 2; // now past the two minutes
    assert.equal(await svc.consume(b.captchaId, b.code), false, "expired");
    assert.equal(await svc.consume(b.captchaId, b.code), false);
    now = 1_000_000;
    assert.equal(await svc.consume(c.captchaId, "ZZZZ" === c.code ? "YYYY" : "ZZZZ"), false);
    assert.equal(await svc.consume(c.captchaId, c.code), false, "consumed by the wrong try");
    assert.equal(await svc.consume("missing", "ABCD"), false);
  } finally {
    kv.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("captcha SVG draws every character of the alphabet as strokes", () => {
  for (const ch of "ABCDEFGHJKLMNPQRSTUVWXYZ23456789") {
    const svg = renderCaptchaSvg(ch.repeat(4));
    const paths = [...svg.matchAll(/<path [^>]*d="([^"]*)"/g)].map((m) => m[1]);
    assert.equal(paths.length, 4, ch);
    for (const d of paths) assert.match(d, /^M[-\d. ]+(L[-\d. ]+)+(M[-\d. ]+(L[-\d. ]+)+)*$/, ch);
    assert.doesNotMatch(svg, /<text/);
  }
});

Deno.test("captcha off: the route says so and login needs none", async () => {
  const t = await testApp();
  try {
    const r = await t.call("/v3/new/account/captcha");
    assert.equal(r.json.data.enabled, false);
    assert.equal(
      (await t.call(LOGIN, { account: "admin", password: ADMIN_PASSWORD })).json.code,
      CATALOGUE.success,
    );
  } finally {
    await t.close();
  }
});
