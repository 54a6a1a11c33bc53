/**
 * The browser tests' site: the islands (with the islands/_test fixtures) built into a temporary
 * folder and one page served at / on loopback by Hono, with the built assets beside it.
 */
import { fileURLToPath } from "node:url";
import { Hono } from "hono";
import { buildIslands } from "../../scripts/build.ts";
import { assetRoutes } from "./assets.ts";
import { type IslandManifest, loadManifest } from "./manifest.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

export interface IslandsSite {
  base: string;
  outDir: string;
  manifest: IslandManifest;
  /** Stops the server and removes the build. */
  close(): Promise<void>;
}

/** Builds the islands and serves the HTML `page(manifest)` at /. */
export async function serveIslandsPage(
  prefix: string,
  page: (manifest: IslandManifest) => string,
): Promise<IslandsSite> {
  const outDir = await Deno.makeTempDir({ prefix });
  try {
    await buildIslands({ root: ROOT, outDir, includeTest: true });
    const manifest = await loadManifest(outDir);
    const app = new Hono();
    app.route("/", assetRoutes(outDir));
    app.get("/favicon.ico", (c) => c.body(null, 204));
    app.get("/", (c) => c.html(page(manifest)));
    const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, app.fetch);
    return {
      base: `http://127.0.0.1:${server.addr.port}`,
      outDir,
      manifest,
      close: async () => {
        await server.shutdown();
        await Deno.remove(outDir, { recursive: true });
      },
    };
  } catch (e) {
    // Nothing is served yet: only the build is left to remove.
    await Deno.remove(outDir, { recursive: true });
    throw e;
  }
}
