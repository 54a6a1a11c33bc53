import type { Context } from "hono";
import type { VNode } from "preact";
import type { AppEnv } from "../../lib/http/env.ts";
import { readToken } from "../../lib/http/cookies.ts";
import { renderPage } from "../../lib/islands/render.tsx";
import type { IslandManifest } from "../../lib/islands/manifest.ts";
import type { Services } from "../compose.ts";
import { currentUserInfo } from "../../modules/accounts/current.ts";
import { imageUrl } from "../../modules/domains/store.ts";
import { isMobileAgent, type PageContext } from "./context.ts";
import type { StaticFiles } from "./static_files.ts";

export interface PageRenderer {
  /** Builds the page context; `user` is null when the request has no valid session. */
  context(c: Context<AppEnv>): Promise<PageContext>;
  html(
    c: Context<AppEnv>,
    ctx: PageContext,
    title: string,
    body: VNode,
    status?: 200 | 403 | 404,
  ): Response;
}

export function createPageRenderer(
  s: Services,
  manifest: () => IslandManifest,
  files: StaticFiles,
): PageRenderer {
  return {
    async context(c) {
      const domain = await s.domains.forHost(new URL(c.req.url).host);
      const found = readToken(c);
      const session = found && await s.auth.authenticate(found.token, "cookie");
      let user = null;
      if (session) {
        const { self, owner } = await s.access.caller(session);
        const parent = owner.parentId ? await s.accountStore.get(owner.parentId) : null;
        user = currentUserInfo(self, owner, parent);
      }
      return {
        lang: c.var.lang,
        t: c.var.t,
        domain,
        mobile: isMobileAgent(c.req.header("user-agent") ?? ""),
        path: c.req.path,
        user,
      };
    },

    html(c, ctx, title, body, status = 200) {
      const nonce = crypto.randomUUID().replaceAll("-", "");
      const icon = imageUrl(ctx.domain, "siteIcon") || files.url("favicon.svg");
      const head = `<meta name="viewport" content="width=device-width, initial-scale=1">` +
        `<link rel="icon" href="${escapeAttr(icon)}">` +
        `<link rel="stylesheet" href="${files.url("app.css")}">`;
      const { themeColor, hoverColor, selectedColor } = ctx.domain;
      const doc = renderPage(body, {
        title: `${title} - ${ctx.domain.domainTitle}`,
        lang: ctx.lang === "zh" ? "zh-CN" : "en",
        head,
        manifest: manifest(),
        nonce,
        bodyAttrs: {
          class: ctx.mobile ? "mobile" : "desktop",
          // Colours are validated as #rrggbb when saved, so they are safe in a style attribute.
          style:
            `--theme:${themeColor};--theme-hover:${hoverColor};--theme-selected:${selectedColor}`,
        },
      });
      c.header(
        "Content-Security-Policy",
        `default-src 'self'; script-src 'self' 'nonce-${nonce}'; style-src 'self' 'unsafe-inline'; ` +
          `img-src 'self' data: blob: http: https:; connect-src 'self' ws: wss:; font-src 'self' data:; ` +
          // OpenLayers' WebGL layers build their buffers in a worker created from a blob.
          `worker-src 'self' blob:; ` +
          // hls.js feeds the <video> element through a MediaSource object URL (blob:).
          `media-src 'self' blob:; ` +
          `frame-ancestors 'self'; base-uri 'self'; form-action 'self'; object-src 'none'`,
      );
      c.header("Cache-Control", "no-store");
      return c.html(doc, status);
    },
  };
}

function escapeAttr(v: string): string {
  return v.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}
