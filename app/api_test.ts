/**
 * The API registry and the JSON API middleware: OpenAPI document, body parsing and
 * validation refusals, the body size limit, the envelope and unknown paths.
 */
import assert from "node:assert/strict";
import { Hono } from "hono";
import { z } from "zod";
import { createApp } from "./app.ts";
import { BizError, CATALOGUE } from "../lib/errors.ts";
import { RESOURCES, translator } from "../lib/i18n/i18n.ts";
import { testApp } from "../tests/helpers/harness.ts";
import { ApiRegistry, type RouteDef } from "../lib/http/api.ts";
import type { AppEnv } from "../lib/http/env.ts";
import { refusal } from "../lib/http/respond.ts";

const API_BODY_LIMIT = 1024 * 1024;

/** A bare app for mounting an ApiRegistry: English, refusals as envelopes, anything else 500. */
function englishApp(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use("*", async (c, next) => {
    c.set("lang", "en");
    c.set("t", translator("en"));
    await next();
  });
  app.onError((err, c) => (err instanceof BizError ? refusal(c, err) : c.text("boom", 500)));
  return app;
}

type JsonSchema = {
  type?: string;
  properties?: Record<string, unknown>;
  required?: string[];
  additionalProperties?: unknown;
};

Deno.test("API registry and middleware", async (s) => {
  const t = await testApp();
  let registry: RouteDef[] = [];
  createApp(t.services, (parts) => (registry = parts.api.routes));
  const admin = await t.adminToken();

  try {
    await s.step("openapi.json lists every registered route with its schemas", async () => {
      const r = await t.call("/v3/new/openapi.json");
      assert.equal(r.status, 200);
      const doc = r.json;
      assert.equal(doc.openapi, "3.1.0");
      assert.equal(doc.info.title, "Tracking Platform API");
      assert.ok(doc.components.schemas.Envelope);
      assert.ok(registry.length >= 20, `only ${registry.length} routes`);
      let operations = 0;
      for (const def of registry) {
        const path = def.path.replace(/:(\w+)/g, "{$1}");
        const op = doc.paths[path]?.[def.method];
        assert.ok(op, `openapi has ${def.method} ${path}`);
        operations++;
        assert.equal(op.summary, def.summary);
        assert.deepEqual(op.tags, [def.tag]);
        const isPublic = def.access === "public";
        // An Open API key's access token (issue 22) is a third way in, within the key's scope.
        const signedIn = [{ bearer: [] }, { cookie: [] }, { appKeyToken: [] }];
        assert.deepEqual(op.security, isPublic ? [] : signedIn, path);
        if (def.body) {
          const schema = op.requestBody?.content?.["application/json"]?.schema as JsonSchema;
          assert.ok(schema, `${path} request schema`);
          assert.equal(op.requestBody.required, true);
          if (def.body instanceof z.ZodObject) {
            assert.equal(schema.type, "object", path);
            assert.deepEqual(
              Object.keys(schema.properties ?? {}).sort(),
              Object.keys(def.body.shape).sort(),
              `${path} properties`,
            );
            // Strict bodies refuse unknown fields: the document says so.
            assert.equal(schema.additionalProperties, false, `${path} is strict`);
          }
        } else if (def.form) {
          assert.ok(op.requestBody?.content?.["multipart/form-data"]?.schema, `${path} form`);
        } else {
          assert.equal(op.requestBody, undefined, path);
        }
        if (def.query instanceof z.ZodObject) {
          const names = (op.parameters ?? []).map((p: { name: string; in: string }) => {
            assert.equal(p.in, "query");
            return p.name;
          });
          assert.deepEqual(names.sort(), Object.keys(def.query.shape).sort(), `${path} query`);
        }
      }
      const documented = Object.values(doc.paths as Record<string, object>)
        .reduce((n, ops) => n + Object.keys(ops).length, 0);
      assert.equal(documented, operations, "no operation without a route");

      // Spot checks of real schemas.
      const add = doc.paths["/v3/new/account/add"].post.requestBody.content["application/json"]
        .schema as JsonSchema & { properties: Record<string, JsonSchema & Record<string, number>> };
      assert.ok(add.required?.includes("account"));
      assert.equal(add.properties.account.minLength, 3);
      assert.equal(add.properties.account.maxLength, 50);
      assert.equal(add.properties.discount.minimum, 0.01);
      const detail = doc.paths["/v3/new/account/detail"].get.parameters;
      assert.deepEqual(
        detail.map((p: { name: string; required: boolean }) => [p.name, p.required]),
        [
          ["id", true],
        ],
      );
    });

    await s.step("an unknown field is refused, naming it", async () => {
      const r = await t.call("/v3/new/tools/locale", { lang: "en", theme: "dark" });
      assert.equal(r.status, 200);
      assert.equal(r.json.code, CATALOGUE.illegalParameter);
      assert.equal(r.json.data.field, "theme");
      assert.deepEqual(r.json.data.issues, [{ path: "theme", code: "unrecognized_keys" }]);
      assert.equal(r.json.msg, "Theme is not a field this request takes.");
      // Several unknown fields are all listed; nested ones carry their path.
      const many = await t.call("/v3/new/tools/locale", { lang: "en", a: 1, b: 2 });
      assert.deepEqual(many.json.data.issues.map((i: { path: string }) => i.path), ["a", "b"]);
      const nested = await t.call(
        "/v3/new/account/virtual/add",
        {
          account: "virtual1",
          nickName: "virtual1",
          password: "Passw0rd1",
          scope: { instructionsFlag: 1, updateFlag: 1, videoFlag: 1, godMode: 1 },
        },
        admin,
      );
      assert.equal(nested.json.data.field, "scope.godMode");
      const zh = await t.app.request("/v3/new/tools/locale", {
        method: "POST",
        headers: { "content-type": "application/json", "x-locale": "zh" },
        body: JSON.stringify({ lang: "en", theme: "dark" }),
      });
      assert.equal((await zh.json()).msg, "此请求不接受字段 Theme。");
    });

    await s.step("invalid JSON is refused", async () => {
      for (const raw of ["{bad", '{"lang": "en",}', "[1, 2", "undefined"]) {
        const res = await t.app.request("/v3/new/tools/locale", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: raw,
        });
        assert.equal(res.status, 200);
        const json = await res.json();
        assert.equal(json.code, CATALOGUE.illegalParameter, raw);
        assert.equal(json.data.field, "body");
        assert.equal(json.msg, "The request is not valid JSON.");
      }
      // A JSON value of the wrong shape is a validation refusal too.
      for (const body of [[], "text", 5, null]) {
        const r = await t.call("/v3/new/tools/locale", body);
        assert.equal(r.json.code, CATALOGUE.illegalParameter, JSON.stringify(body));
      }
      // Only JSON is read: a cross-site form (text/plain, urlencoded) cannot forge a call,
      // e.g. log a victim into the attacker's account.
      const forged = '{"account":"admin","password":"Admin12345="}';
      for (const type of [undefined, "text/plain", "application/x-www-form-urlencoded"]) {
        const res = await t.app.request("/v3/new/account/login", {
          method: "POST",
          headers: type ? { "content-type": type } : {},
          body: forged,
        });
        const json = await res.json();
        assert.equal(json.code, CATALOGUE.illegalParameter, String(type));
        assert.equal(json.data.field, "body");
        assert.equal(res.headers.getSetCookie().length, 0, "no session cookie");
      }
      for (
        const type of [
          "application/json; charset=utf-8",
          "Application/JSON",
          "application/vnd.api+json",
        ]
      ) {
        const res = await t.app.request("/v3/new/tools/locale", {
          method: "POST",
          headers: { "content-type": type },
          body: '{"lang":"en"}',
        });
        assert.equal((await res.json()).code, CATALOGUE.success, type);
      }
      // An empty body counts as {}: the required field is named.
      const empty = await t.app.request("/v3/new/tools/locale", { method: "POST" });
      const json = await empty.json();
      assert.equal(json.data.field, "lang");
    });

    await s.step("a body over 1 MB is refused with 413 payloadTooLarge", async () => {
      const big = JSON.stringify({ lang: "x".repeat(API_BODY_LIMIT) });
      const res = await t.app.request("/v3/new/tools/locale", {
        method: "POST",
        headers: { "content-type": "application/json", "content-length": String(big.length) },
        body: big,
      });
      assert.equal(res.status, 413);
      const json = await res.json();
      assert.equal(json.code, CATALOGUE.payloadTooLarge);
      assert.equal(json.msg, RESOURCES.en.errors.payloadTooLarge);

      // Without a Content-Length (a streamed body) the limit holds as well.
      const bytes = new TextEncoder().encode(big);
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          for (let i = 0; i < bytes.length; i += 64 * 1024) {
            controller.enqueue(bytes.slice(i, i + 64 * 1024));
          }
          controller.close();
        },
      });
      const streamed = await t.app.request("/v3/new/tools/locale", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: stream,
        // @ts-ignore: Deno's RequestInit accepts duplex for streamed bodies
        duplex: "half",
      });
      assert.equal(streamed.status, 413);
      assert.equal((await streamed.json()).code, CATALOGUE.payloadTooLarge);

      // Just under the limit is parsed normally (and refused on its content).
      const under = JSON.stringify({ lang: "x".repeat(API_BODY_LIMIT - 20) });
      assert.ok(under.length <= API_BODY_LIMIT);
      const ok = await t.app.request("/v3/new/tools/locale", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: under,
      });
      assert.equal(ok.status, 200);
      assert.equal((await ok.json()).data.field, "lang");
    });

    await s.step("query strings are validated and named", async () => {
      const r = await t.call("/v3/new/account/detail", undefined, admin);
      assert.equal(r.json.code, CATALOGUE.illegalParameter);
      assert.equal(r.json.data.field, "id");
      const bad = await t.call("/v3/new/account/detail?id=abc", undefined, admin);
      assert.equal(bad.json.data.field, "id");
      const lang = await t.call("/v3/new/tools/i18n?lang=fr");
      assert.equal(lang.json.data.field, "lang");
    });

    await s.step("unknown API paths answer 404 in the envelope; headers are set", async () => {
      const r = await t.call("/v3/new/nothing/here");
      assert.equal(r.status, 404);
      assert.deepEqual(r.json, {
        code: CATALOGUE.notFound,
        msg: RESOURCES.en.errors.notFound,
        data: null,
      });
      // A known path with another method is not served either.
      assert.equal((await t.call("/v3/new/account/add", undefined, admin)).status, 404);
      const ok = await t.call("/v3/new/tools/country/all");
      assert.deepEqual(Object.keys(ok.json).sort(), ["code", "data", "msg"]);
      assert.equal(ok.res.headers.get("x-content-type-options"), "nosniff");
      assert.equal(ok.res.headers.get("x-frame-options"), "SAMEORIGIN");
    });

    await s.step("an unexpected error is a 500 systemBusy envelope without details", async () => {
      const app = createApp(t.services, ({ app }) => {
        app.get("/boom", () => {
          throw new Error("secret internals");
        });
      });
      const original = console.error;
      console.error = () => {};
      try {
        const res = await app.request("/boom");
        assert.equal(res.status, 500);
        const json = await res.json();
        assert.equal(json.code, CATALOGUE.systemBusy);
        assert.equal(json.msg, RESOURCES.en.errors.systemBusy);
        assert.doesNotMatch(JSON.stringify(json), /secret internals/);
      } finally {
        console.error = original;
      }
    });
  } finally {
    await t.close();
  }
});

Deno.test("ApiRegistry.mount: envelope, null data, Response pass-through, session gate", async () => {
  const app = englishApp();
  const api = new ApiRegistry();
  api.add({
    method: "post",
    path: "/echo",
    tag: "Test",
    summary: "echo",
    access: "public",
    need: "public",
    body: z.object({ n: z.number().int().min(1) }).strict(),
    handler: ({ body }) => ({ doubled: body.n * 2 }),
  });
  api.add({
    method: "get",
    path: "/nothing",
    tag: "Test",
    summary: "no data",
    access: "public",
    need: "public",
    handler: () => undefined,
  });
  api.add({
    method: "get",
    path: "/file",
    tag: "Test",
    summary: "a file",
    access: "public",
    need: "public",
    handler: () => new Response("a,b\n", { headers: { "content-type": "text/csv" } }),
  });
  api.add({
    method: "get",
    path: "/private",
    tag: "Test",
    summary: "needs a session",
    need: "read",
    handler: () => "secret",
  });
  let gateCalls = 0;
  api.mount(
    app,
    () => {
      gateCalls++;
      return Promise.reject(new BizError("tokenInvalid", {}, null, 401));
    },
    () => Promise.reject(new Error("the need guard runs only after the session gate")),
  );

  const json = { "content-type": "application/json" };
  const echo = await app.request("/echo", {
    method: "POST",
    headers: json,
    body: JSON.stringify({ n: 21 }),
  });
  assert.deepEqual(await echo.json(), { code: 10000, msg: "Success", data: { doubled: 42 } });
  const small =
    await (await app.request("/echo", { method: "POST", headers: json, body: '{"n":0}' }))
      .json();
  assert.equal(small.code, CATALOGUE.illegalParameter);
  assert.equal(small.data.field, "n");
  assert.equal((await (await app.request("/nothing")).json()).data, null);
  const file = await app.request("/file");
  assert.equal(file.headers.get("content-type"), "text/csv");
  assert.equal(await file.text(), "a,b\n");
  assert.equal(gateCalls, 0, "public routes skip the session gate");
  const priv = await app.request("/private");
  assert.equal(priv.status, 401);
  assert.equal(gateCalls, 1);
  assert.doesNotMatch(await priv.text(), /secret/);
});

Deno.test("ApiRegistry: every route declares a need; the guard sees it before parsing", async () => {
  const api = new ApiRegistry();
  const base = { method: "post" as const, path: "/x", tag: "Test", summary: "x", handler: () => 1 };
  // A JavaScript caller (or a cast) without a need is refused at registration.
  assert.throws(() => api.add({ ...base } as unknown as RouteDef), /declares no valid need/);
  assert.throws(() => api.add({ ...base, need: "everything" } as unknown as RouteDef));
  // "public" and access: "public" go together.
  assert.throws(() => api.add({ ...base, need: "public" }), /access "public"/);
  assert.throws(() => api.add({ ...base, access: "public", need: "read" }), /access "public"/);
  assert.equal(api.routes.length, 0);

  api.add({
    ...base,
    path: "/edit",
    need: "editData",
    body: z.object({ n: z.number() }).strict(),
    handler: () => "changed",
  });
  const app = englishApp();
  const asked: string[] = [];
  api.mount(app, () => Promise.resolve(), (_c, need) => {
    asked.push(need);
    return Promise.reject(new BizError("permissionDenied"));
  });
  // Refused by the guard even with a body that would not parse: nothing reaches the handler.
  const r = await app.request("/edit", { method: "POST", body: "not json" });
  assert.equal((await r.json()).code, CATALOGUE.permissionDenied);
  assert.deepEqual(asked, ["editData"]);
  const doc = api.openapi({ title: "t", version: "1" }) as {
    paths: Record<string, Record<string, { "x-need": string }>>;
  };
  assert.equal(doc.paths["/edit"].post["x-need"], "editData");
});
