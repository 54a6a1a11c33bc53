/**
 * The target after login (issue 14 item 4): `/login?redirect=…` may only lead to a path of
 * our own origin, in the island that navigates after login and in the page that renders it
 * (and redirects a user who is already logged in).
 */
import assert from "node:assert/strict";
import { startServer } from "../../tests/helpers/server.ts";
import { AFTER_LOGIN, safeRedirect } from "./redirect.ts";

const ORIGIN = "http://127.0.0.1:8000";

/** Each of these leaves the site when followed as `location.href = target`. */
const OFF_SITE = [
  "/\t/evil.example/", // %2F%09%2Fevil.example%2F: the parser drops the tab
  "/\n/evil.example/", // %0A
  "/\r/evil.example/", // %0D
  "/\\evil.example/", // %5C: read as "/"
  "\\\\evil.example/",
  "/\\/evil.example/",
  "\\/evil.example/",
  "//evil.example",
  "//evil",
  "///evil.example",
  "/\\evil",
  " //evil.example",
  "\t//evil.example",
  "/.//evil.example/", // pathname "//evil.example/"
  "/x/..//evil.example",
  "https://evil",
  "https://evil.example/login",
  "HTTPS://evil.example",
  "https:evil.example",
  "http://127.0.0.1:8001/", // another port is another origin
  "http://user@evil.example",
  "javascript:alert(1)",
  "data:text/html,<script>alert(1)</script>",
  "",
];

Deno.test("safeRedirect: every off-site form falls back to the console", () => {
  for (const target of OFF_SITE) {
    const got = safeRedirect(target, ORIGIN);
    assert.equal(got, AFTER_LOGIN, JSON.stringify(target));
    // Whatever comes back, the browser resolves it on our origin.
    assert.equal(new URL(got, ORIGIN).origin, ORIGIN);
  }
  assert.equal(safeRedirect(null, ORIGIN), AFTER_LOGIN);
  assert.equal(safeRedirect(undefined, ORIGIN), AFTER_LOGIN);
});

Deno.test("safeRedirect: same-origin paths keep path, query and hash", () => {
  const cases: [string, string][] = [
    ["/devices", "/devices"],
    ["/devices?imei=123&x=%2F%2Fevil#top", "/devices?imei=123&x=%2F%2Fevil#top"],
    ["/monitor/playback?imei=1", "/monitor/playback?imei=1"],
    [`${ORIGIN}/account`, "/account"],
    ["account", "/account"],
    ["/%2F%2Fevil.example", "/%2F%2Fevil.example"], // an encoded slash is a path segment here
    ["/a/../devices", "/devices"],
  ];
  for (const [target, want] of cases) assert.equal(safeRedirect(target, ORIGIN), want, target);
});

Deno.test({
  name: "login page: the redirect is sanitised where it is rendered and where it is issued",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const server = await startServer({ ADMIN_PASSWORD: "Admin12345" });
    try {
      const page = async (query: string, cookie?: string) => {
        const res = await fetch(`${server.url}/login?redirect=${query}`, {
          redirect: "manual",
          headers: cookie ? { cookie } : {},
        });
        return { res, html: await res.text() };
      };
      /** The LoginForm island's serialised props in the page. */
      const islandProps = (html: string) => {
        const scripts = [...html.matchAll(/<script[^>]*application\/json[^>]*>([^<]*)<\/script>/g)]
          .map((m) => m[1]);
        const props = scripts.find((s) => s.includes('"captchaEnabled"'));
        assert.ok(props, "LoginForm props in the page");
        return JSON.parse(props);
      };
      const redirectProp = (html: string): string => {
        const found = JSON.stringify(islandProps(html)).match(/"redirect":("(?:[^"\\]|\\.)*")/);
        assert.ok(found, "redirect prop");
        return JSON.parse(found[1]);
      };

      for (const target of OFF_SITE.filter(Boolean)) {
        const { res, html } = await page(encodeURIComponent(target));
        assert.equal(res.status, 200, target);
        assert.equal(redirectProp(html), AFTER_LOGIN, JSON.stringify(target));
      }
      // The exact form, as typed in the address bar.
      assert.equal(redirectProp((await page("%2F%09%2Fevil.example%2F")).html), AFTER_LOGIN);
      const kept = "/devices?imei=1#x";
      assert.equal(redirectProp((await page(encodeURIComponent(kept))).html), kept);

      // Logged in, /login sends the user on at once: to the same sanitised target.
      const login = await fetch(`${server.url}/v3/new/account/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ account: "admin", password: "Admin12345" }),
      });
      const token = (await login.json()).data.token;
      const cookie = `tp_token=${token}`;
      for (const target of OFF_SITE.filter(Boolean)) {
        const { res } = await page(encodeURIComponent(target), cookie);
        assert.equal(res.status, 302, target);
        assert.equal(res.headers.get("location"), AFTER_LOGIN, JSON.stringify(target));
      }
      const { res } = await page(encodeURIComponent(kept), cookie);
      assert.equal(res.headers.get("location"), kept);
    } finally {
      await server.stop();
    }
  },
});
