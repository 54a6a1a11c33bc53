import type { Context, Hono } from "hono";
import type { AppParts } from "../app/app.ts";
import type { ApiRegistry } from "../lib/http/api.ts";
import type { AppEnv } from "../lib/http/env.ts";
import { assetRoutes } from "../lib/islands/assets.ts";
import { defaultBuildDir, loadManifest } from "../lib/islands/manifest.ts";
import type { PageContext } from "../app/pages/context.ts";
import { createPageRenderer, type PageRenderer } from "../app/pages/render.tsx";
import { loadStaticFiles } from "../app/pages/static_files.ts";
import type { Services } from "../app/compose.ts";
import { registerPublicPages } from "./public.tsx";
import { registerConsolePages } from "./console.tsx";
import { registerDevicePages } from "./devices.tsx";
import { registerCommandPages } from "./commands.tsx";
import { registerMonitorPages } from "./monitor.tsx";
import { registerAlertPages } from "./alerts.tsx";
import { registerReportPages } from "./reports.tsx";
import { registerWalletPages } from "./wallet.tsx";
import { NotFoundPage } from "./status.tsx";
import { registerApiDocs } from "./api_docs.tsx";
import { registerCreditPages } from "./credits.tsx";
import { registerDemoPages } from "./demo.tsx";
import { registerEmbedPages } from "./embed.tsx";
import { registerHelpPages } from "./help.tsx";
import { registerFleetPathPages } from "./fleet_paths.tsx";
import { registerFleetPages } from "./fleet.tsx";
import { registerVideoPages } from "./video.tsx";
import { registerOpenApiPages } from "./openapi.tsx";

export type PageHandler = (c: Context<AppEnv>, ctx: PageContext) => Response | Promise<Response>;

export interface PageKit {
  app: Hono<AppEnv>;
  renderer: PageRenderer;
  services: Services;
  /** A page that needs a logged-in user; others are sent to /login (spec §4 route guard). */
  privatePage(path: string, handler: PageHandler): void;
  publicPage(path: string, handler: PageHandler): void;
}

type Registrar = (kit: PageKit, api: ApiRegistry) => void;

/** Every page module; mountPages and pageRoutes both walk this list. */
const REGISTRARS: Registrar[] = [
  registerPublicPages,
  registerConsolePages,
  registerDevicePages,
  registerCommandPages,
  registerMonitorPages,
  registerAlertPages,
  registerReportPages,
  registerWalletPages,
  registerApiDocs,
  registerCreditPages,
  registerDemoPages,
  registerEmbedPages,
  registerHelpPages,
  registerFleetPages,
  registerFleetPathPages,
  registerVideoPages,
  registerOpenApiPages,
];

export interface PageRoute {
  path: string;
  access: "private" | "public";
}

/**
 * The page paths the registrars declare, without serving them: the phone e2e test visits
 * each, so a new page is covered as soon as it is registered. Registration only records
 * handlers, so no services, renderer or API are touched.
 */
export function pageRoutes(): PageRoute[] {
  const routes: PageRoute[] = [];
  const kit = {
    app: { get: () => {} },
    privatePage: (path: string) => routes.push({ path, access: "private" }),
    publicPage: (path: string) => routes.push({ path, access: "public" }),
  } as unknown as PageKit;
  for (const register of REGISTRARS) register(kit, null as unknown as ApiRegistry);
  return routes;
}

/** Loads the client build and static files once, then returns the page mounter for createApp. */
export async function mountPages(
  s: Services,
  buildDir = defaultBuildDir(),
): Promise<(parts: AppParts) => void> {
  let manifest = await loadManifest(buildDir);
  const files = await loadStaticFiles();
  const renderer = createPageRenderer(s, () => manifest, files);
  return ({ app, api }) => {
    app.route("/", assetRoutes(buildDir));
    app.route("/", files.routes);
    const kit: PageKit = {
      app,
      renderer,
      services: s,
      privatePage(path, handler) {
        app.get(path, async (c) => {
          const ctx = await renderer.context(c);
          if (!ctx.user) {
            const back = c.req.path + (new URL(c.req.url).search || "");
            return c.redirect(`/login?redirect=${encodeURIComponent(back)}`);
          }
          return handler(c, ctx);
        });
      },
      publicPage(path, handler) {
        app.get(path, async (c) => handler(c, await renderer.context(c)));
      },
    };
    for (const register of REGISTRARS) register(kit, api);
    app.get("/__reload-manifest", async (c) => {
      // Used by dev.ts after a rebuild; only from loopback.
      if (!["127.0.0.1", "::1"].includes(c.var.clientIp)) return c.notFound();
      manifest = await loadManifest(buildDir);
      return c.text("ok");
    });
    app.notFound(async (c) => {
      const ctx = await renderer.context(c);
      return renderer.html(c, ctx, ctx.t("pages.notFound.title"), <NotFoundPage ctx={ctx} />, 404);
    });
  };
}
