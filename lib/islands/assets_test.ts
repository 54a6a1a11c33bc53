import assert from "node:assert/strict";
import { join } from "node:path";
import { assetPath, assetRoutes } from "./assets.ts";

async function withAssets(fn: (fetch: (path: string) => Promise<Response>) => Promise<void>) {
  const dir = await Deno.makeTempDir({ prefix: "tp-assets-" });
  try {
    await Deno.mkdir(join(dir, "assets", "sub"), { recursive: true });
    await Deno.writeTextFile(join(dir, "assets", "app-1234abcd.js"), "export{};");
    await Deno.writeTextFile(join(dir, "assets", "app.css"), "a{}");
    await Deno.writeTextFile(join(dir, "assets", "sub", "icon.svg"), "<svg/>");
    await Deno.writeFile(join(dir, "assets", "f.woff2"), new Uint8Array([1, 2]));
    await Deno.writeTextFile(join(dir, "assets", "x.js.map"), "{}");
    await Deno.writeTextFile(join(dir, "assets", "i.png"), "png");
    await Deno.writeTextFile(join(dir, "manifest.json"), "{}");
    await Deno.writeTextFile(join(dir, "secret.txt"), "secret");
    const app = assetRoutes(dir);
    await fn((path) => Promise.resolve(app.request(path)));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("assetRoutes: serves files immutable with the right content type", async () => {
  await withAssets(async (fetch) => {
    const cases: [string, string][] = [
      ["/assets/app-1234abcd.js", "text/javascript; charset=utf-8"],
      ["/assets/app.css", "text/css; charset=utf-8"],
      ["/assets/sub/icon.svg", "image/svg+xml"],
      ["/assets/f.woff2", "font/woff2"],
      ["/assets/x.js.map", "application/json; charset=utf-8"],
      ["/assets/i.png", "image/png"],
    ];
    for (const [path, type] of cases) {
      const res = await fetch(path);
      assert.equal(res.status, 200, path);
      assert.equal(res.headers.get("content-type"), type, path);
      assert.equal(res.headers.get("cache-control"), "public, max-age=31536000, immutable");
      await res.arrayBuffer();
    }
    assert.equal(await (await fetch("/assets/app-1234abcd.js")).text(), "export{};");
  });
});

Deno.test("assetRoutes: HEAD has headers and no body", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.mkdir(join(dir, "assets"));
    await Deno.writeTextFile(join(dir, "assets", "a.js"), "1;");
    const res = await assetRoutes(dir).request("/assets/a.js", { method: "HEAD" });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "text/javascript; charset=utf-8");
    assert.equal(await res.text(), "");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("assetRoutes: 404 for missing, directories, unknown types, traversal", async () => {
  await withAssets(async (fetch) => {
    for (
      const path of [
        "/assets/missing.js",
        "/assets/sub",
        "/assets/sub/",
        "/assets/../manifest.json",
        "/assets/..%2fmanifest.json",
        "/assets/..%2Fsecret.txt",
        "/assets/%2e%2e/secret.txt",
        "/assets/%2e%2e%2fsecret.txt",
        "/assets/sub/..%2f..%2fsecret.txt",
        "/assets/..%5csecret.txt",
        "/assets/%2fetc%2fpasswd",
        "/assets/.hidden.js",
        "/assets/%zz.js",
        "/assets/app.js%00.js",
        "/assets/",
      ]
    ) {
      const res = await fetch(path);
      assert.equal(res.status, 404, path);
      assert.notEqual(res.headers.get("cache-control"), "public, max-age=31536000, immutable");
      const body = await res.text();
      assert.ok(!body.includes("secret") && body !== "{}", path);
    }
  });
});

Deno.test("assetPath: accepts only plain relative names", () => {
  assert.equal(assetPath("/assets/a-1.js"), "a-1.js");
  assert.equal(assetPath("/assets/sub/a.svg"), "sub/a.svg");
  assert.equal(assetPath("/assets/..%2fa.js"), null);
  assert.equal(assetPath("/assets/a//b.js"), null);
  assert.equal(assetPath("/other/a.js"), null);
});
