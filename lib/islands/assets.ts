/**
 * Serves the hashed build output under /assets/*. Names carry a content hash, so responses
 * are cacheable forever; anything that isn't a plain file name inside assets/ is a 404.
 */
import { Hono } from "hono";
import { extname, join } from "node:path";

const IMMUTABLE = "public, max-age=31536000, immutable";

const CONTENT_TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".webp": "image/webp",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".woff": "font/woff",
};

// Segments of letters, digits, '_', '-', '.', not starting with '.', so no "..", no hidden
// files, no backslashes, no encoded separators survive.
const SAFE_PATH = /^[A-Za-z0-9_\-][A-Za-z0-9_.\-]*(\/[A-Za-z0-9_\-][A-Za-z0-9_.\-]*)*$/;

/** The file path under assets/ named by the request, or null if it is not a safe name. */
export function assetPath(pathname: string): string | null {
  const prefix = "/assets/";
  if (!pathname.startsWith(prefix)) return null;
  let rest: string;
  try {
    // Decode so %2e%2e / %2f tricks are seen as what they are, then validate.
    rest = decodeURIComponent(pathname.slice(prefix.length));
  } catch {
    return null;
  }
  return SAFE_PATH.test(rest) ? rest : null;
}

/** A Hono app serving `<buildDir>/assets/*` at `/assets/*`; mount with `app.route("/", ...)`. */
export function assetRoutes(buildDir: string): Hono {
  const root = join(buildDir, "assets");
  const app = new Hono();
  // Hono answers HEAD with this GET handler, minus the body.
  app.get("/assets/*", async (c) => {
    const rel = assetPath(new URL(c.req.url).pathname);
    const type = rel ? CONTENT_TYPES[extname(rel).toLowerCase()] : undefined;
    if (!rel || !type) return c.text("Not Found", 404);
    let body: Uint8Array;
    try {
      body = await Deno.readFile(join(root, rel));
    } catch (err) {
      if (err instanceof Deno.errors.NotFound || err instanceof Deno.errors.IsADirectory) {
        return c.text("Not Found", 404);
      }
      throw err;
    }
    return c.body(body as Uint8Array<ArrayBuffer>, 200, {
      "Content-Type": type,
      "Content-Length": String(body.byteLength),
      "Cache-Control": IMMUTABLE,
      "X-Content-Type-Options": "nosniff",
    });
  });
  return app;
}
