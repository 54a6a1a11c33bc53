/**
 * First-hour pages against a real server process: the API reference the README advertises
 * (/v3/new/docs) and the release notes, current and in both languages.
 */
import assert from "node:assert/strict";
import { startServer } from "../helpers/server.ts";
import { RESOURCES } from "../../lib/i18n/resources.ts";

const ADMIN_PASSWORD = "Admin12345";

Deno.test("first hour: /v3/new/docs renders the API reference; unknown /v3 paths keep the 404 envelope", async () => {
  const server = await startServer({ ADMIN_PASSWORD });
  try {
    const docs = await fetch(`${server.url}/v3/new/docs`);
    assert.equal(docs.status, 200);
    assert.match(docs.headers.get("content-type") ?? "", /text\/html/);
    const html = await docs.text();
    assert.match(html, /<h1>Tracking Platform API<\/h1>/);
    assert.ok(html.includes("/v3/new/account/login"), "lists the login operation");
    assert.ok(html.includes('href="/v3/new/openapi.json"'), "links the OpenAPI document");

    const spec = await fetch(`${server.url}/v3/new/openapi.json`);
    assert.equal(spec.status, 200);
    const doc = await spec.json();
    assert.ok(doc.paths["/v3/new/account/login"]);

    for (const method of ["GET", "POST"]) {
      const missing = await fetch(`${server.url}/v3/new/noSuchThing`, { method });
      assert.equal(missing.status, 404);
      const body = await missing.json();
      assert.equal(body.code, 49013);
      assert.equal(body.data, null);
    }
  } finally {
    await server.stop();
  }
});

Deno.test("first hour: release notes list what the product does now, in English and Chinese", async () => {
  const server = await startServer({ ADMIN_PASSWORD });
  try {
    const login = await fetch(`${server.url}/v3/new/account/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ account: "admin", password: ADMIN_PASSWORD }),
    });
    await login.body?.cancel();
    const cookie = login.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    for (const lang of ["en", "zh"] as const) {
      const res = await fetch(`${server.url}/releaseNotes`, {
        headers: { cookie: `${cookie}; locale=${lang}`, "x-locale": lang },
      });
      assert.equal(res.status, 200);
      const html = await res.text();
      const items = RESOURCES[lang].release.items as Record<string, string>;
      for (const key of ["devices", "monitor", "addresses", "geofences", "alerts", "commands"]) {
        assert.ok(items[key], `${lang} has release.items.${key}`);
        assert.ok(html.includes(escape(items[key])), `${lang} page shows ${key}`);
      }
    }
    assert.match(RESOURCES.en.release.items.addresses, /[Aa]ddresses instead of coordinates/);
  } finally {
    await server.stop();
  }
});

function escape(s: string): string {
  return s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}
