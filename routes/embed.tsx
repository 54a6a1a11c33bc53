import type { Context } from "hono";
import type { JSX } from "preact";
import type { PageKit } from "./mount.tsx";
import type { AppEnv } from "../lib/http/env.ts";
import type { PageContext } from "../app/pages/context.ts";
import type { MapSettings } from "../components/monitor/basemap.ts";
import { SettingsLayout } from "../components/Shell.tsx";
import { BizError } from "../lib/errors.ts";
import { tileTemplates } from "../modules/monitor/providers.ts";
import { frameAncestors } from "../modules/embed/model.ts";
import EmbedMap from "../islands/embed/EmbedMap.tsx";
import EmbedSettings from "../islands/embed/EmbedSettings.tsx";
import LiveDevice from "../islands/monitor/LiveDevice.tsx";

/** Tile addresses with the operator's MAP_TILE_URL_* overrides, read once. */
const TILES = tileTemplates((name) => {
  try {
    return Deno.env.get(name) || undefined;
  } catch {
    return undefined;
  }
});

/** A visitor's map: OpenStreetMap, metric units, UTC (no user to take settings from). */
function visitorMap(ctx: PageContext): MapSettings {
  return {
    provider: "OpenStreetMap",
    mapType: "standard",
    tiles: TILES,
    googleKey: "",
    lang: ctx.lang,
    distanceUnit: "km",
    speedUnit: "km/h",
    timeZone: "UTC",
    soundFlag: 0,
  };
}

/**
 * The page's answer with frame-ancestors widened to the owner's origins: every other page
 * keeps `frame-ancestors 'self'` and X-Frame-Options (app/app.ts leaves /iframe without it).
 */
function framable(res: Response, origins: readonly string[]): Response {
  const csp = res.headers.get("Content-Security-Policy") ?? "";
  res.headers.set(
    "Content-Security-Policy",
    csp.replace("frame-ancestors 'self'", frameAncestors(origins)),
  );
  res.headers.set("X-Robots-Tag", "noindex");
  return res;
}

/** The embeddable map (/iframe, spec §2) and its settings page (/embedMap). */
export function registerEmbedPages({ publicPage, privatePage, renderer, services }: PageKit) {
  publicPage("/iframe", async (c, ctx) => {
    const key = c.req.query("key") ?? "";
    const token = c.req.query("token") ?? "";
    try {
      if (key) {
        const { origins } = await services.embed.open(key);
        return framable(
          await page(
            c,
            ctx,
            <EmbedMap lang={ctx.lang} settings={visitorMap(ctx)} embedKey={key} />,
          ),
          origins,
        );
      }
      const link = await services.monitor.shares.open(token);
      const mode = {
        kind: "share" as const,
        token,
        expiresAt: new Date(link.expiresAt).toISOString(),
      };
      return framable(
        await page(c, ctx, <LiveDevice lang={ctx.lang} settings={visitorMap(ctx)} mode={mode} />),
        await services.embed.originsFor(link.createdBy),
      );
    } catch (e) {
      if (!(e instanceof BizError)) throw e;
      // Refusals stay unframable by other sites: they tell nothing worth showing there.
      const body = (
        <main class="embed-page embed-refused">
          <h1>{ctx.t("demo.embed.refusedTitle")}</h1>
          <p id="embed-refusal">{ctx.t(`errors.${e.key}`)}</p>
        </main>
      );
      const res = await renderer.html(c, ctx, ctx.t("demo.embed.pageTitle"), body, 404);
      res.headers.set("X-Robots-Tag", "noindex");
      return res;
    }
  });

  privatePage("/embedMap", (c, ctx) =>
    renderer.html(
      c,
      ctx,
      ctx.t("settings.items.embedMap"),
      <SettingsLayout ctx={ctx}>
        <EmbedSettings lang={ctx.lang} canPublish={!ctx.user!.userFictitiousFlag} />
      </SettingsLayout>,
    ));

  function page(c: Context<AppEnv>, ctx: PageContext, island: JSX.Element) {
    return renderer.html(
      c,
      ctx,
      ctx.t("demo.embed.pageTitle"),
      <main class="embed-page">{island}</main>,
    );
  }
}
