import { Hono } from "hono";
import { fileURLToPath } from "node:url";
import type { AppEnv } from "../../lib/http/env.ts";

/** Files in static/ are few and small: read once, served with a content hash for caching. */
const TYPES: Record<string, string> = {
  css: "text/css; charset=utf-8",
  svg: "image/svg+xml",
  png: "image/png",
  ico: "image/x-icon",
  txt: "text/plain; charset=utf-8",
};

export interface StaticFiles {
  routes: Hono<AppEnv>;
  /** `/static/<name>?v=<hash>` for a file in static/. */
  url(name: string): string;
}

export async function loadStaticFiles(
  dir = fileURLToPath(new URL("../../static", import.meta.url)),
): Promise<StaticFiles> {
  const files = new Map<string, { body: Uint8Array; hash: string; type: string }>();
  for await (const entry of Deno.readDir(dir)) {
    const ext = entry.name.split(".").pop() ?? "";
    if (!entry.isFile || !TYPES[ext]) continue;
    const body = await Deno.readFile(`${dir}/${entry.name}`);
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", body));
    const hash = Array.from(digest.slice(0, 5), (b) => b.toString(16).padStart(2, "0")).join("");
    files.set(entry.name, { body, hash, type: TYPES[ext] });
  }
  const routes = new Hono<AppEnv>();
  routes.get("/static/:name", (c) => {
    const file = files.get(c.req.param("name"));
    if (!file) return c.notFound();
    const versioned = c.req.query("v") === file.hash;
    return c.body(file.body as Uint8Array<ArrayBuffer>, 200, {
      "content-type": file.type,
      "cache-control": versioned ? "public, max-age=31536000, immutable" : "public, max-age=300",
    });
  });
  return {
    routes,
    url: (name) => `/static/${name}?v=${files.get(name)?.hash ?? "missing"}`,
  };
}
