import type { Context } from "hono";
import type { JSX } from "preact";
import type { PageKit } from "./mount.tsx";
import type { AppEnv } from "../lib/http/env.ts";
import { Shell } from "../components/Shell.tsx";
import type { PageContext } from "../app/pages/context.ts";
import type { MapSettings } from "../components/monitor/basemap.ts";
import {
  googleKeyFor,
  type MapType,
  provider,
  tileTemplates,
} from "../modules/monitor/providers.ts";
import Objects from "../islands/monitor/Objects.tsx";
import Playback from "../islands/monitor/Playback.tsx";
import Events from "../islands/monitor/Events.tsx";
import LiveDevice from "../islands/monitor/LiveDevice.tsx";
import { BizError } from "../lib/errors.ts";
import { imageUrl } from "../modules/domains/store.ts";
import { alarmFromQuery } from "../modules/monitor/alarm_link.ts";

/** Tile addresses with the operator's MAP_TILE_URL_* overrides, read once. */
const TILES = tileTemplates((name) => {
  try {
    return Deno.env.get(name) || undefined;
  } catch {
    return undefined;
  }
});

/** The map settings of the user (spec §3 current user, §9 map defaults). */
function mapSettings(ctx: PageContext, googleKey = ""): MapSettings {
  const u = ctx.user;
  const p = provider(u?.userMapType);
  return {
    provider: p.id,
    mapType: "standard" as MapType,
    tiles: TILES,
    googleKey,
    lang: ctx.lang,
    distanceUnit: u?.showUnit ?? "km",
    speedUnit: u?.speed ?? "km/h",
    timeZone: u?.timeZones || "UTC",
    soundFlag: u?.soundFlag === 1 ? 1 : 0,
  };
}

const imeiParam = (v: string | undefined) => (v && /^\d{15}$/.test(v) ? v : "");

/** A playback range from the query's startTime/endTime (ISO-8601), when both are valid. */
function rangeParam(from: string | undefined, to: string | undefined) {
  const a = Date.parse(from ?? ""), b = Date.parse(to ?? "");
  return Number.isFinite(a) && Number.isFinite(b) && a <= b ? { from: a, to: b } : null;
}

/** Monitor pages (spec §2): objects, alerts, playback, tracking, and the public share page. */
export function registerMonitorPages({ privatePage, publicPage, renderer, services }: PageKit) {
  /** The logged-in user's map settings, with the Google key they may use. */
  const userSettings = async (ctx: PageContext) => {
    const u = ctx.user;
    const parent = u?.parentGoogleMapKeyFlag && u.parentId
      ? await services.accountStore.get(u.parentId)
      : null;
    return mapSettings(ctx, googleKeyFor(u, parent));
  };
  /** A logged-in monitor page: the console shell around one island. */
  const inShell = (
    tab: string,
    body: (c: Context<AppEnv>, ctx: PageContext, settings: MapSettings) => JSX.Element,
  ) =>
  async (c: Context<AppEnv>, ctx: PageContext) => {
    const settings = await userSettings(ctx);
    return renderer.html(
      c,
      ctx,
      ctx.t(`monitor.tabs.${tab}`),
      <Shell ctx={ctx}>{body(c, ctx, settings)}</Shell>,
    );
  };

  privatePage(
    "/monitorObject",
    inShell("object", (c, ctx, settings) => (
      <>
        {/* The objects answer is fetched while the scripts load, not after hydration. */}
        <link rel="preload" href="/v3/new/monitor/objects" as="fetch" crossorigin="anonymous" />
        <Objects
          lang={ctx.lang}
          settings={settings}
          focus={imeiParam(c.req.query("imei"))}
          canCommand={ctx.user?.instructionsFlag === 1}
          alarm={alarmFromQuery(new URL(c.req.url).searchParams)}
        />
      </>
    )),
  );

  privatePage(
    "/monitorPlayback",
    inShell(
      "playback",
      (c, ctx, settings) => (
        <Playback
          lang={ctx.lang}
          settings={settings}
          imei={imeiParam(c.req.query("imei"))}
          range={rangeParam(c.req.query("startTime"), c.req.query("endTime"))}
        />
      ),
    ),
  );

  privatePage(
    "/monitorEvent",
    inShell(
      "event",
      (_c, ctx, settings) => <Events lang={ctx.lang} settings={settings} />,
    ),
  );

  privatePage("/monitorTracking", (c, ctx) => {
    const imei = imeiParam(c.req.query("imei"));
    if (!imei) return c.redirect("/monitorObject");
    return inShell("tracking", (_c, _ctx, settings) => (
      <div class="mon-live-shell">
        <LiveDevice lang={ctx.lang} settings={settings} mode={{ kind: "tracking", imei }} />
      </div>
    ))(c, ctx);
  });

  // Public (spec §2): the shared device live, without login, until the link expires.
  publicPage("/monitorShare", async (c, ctx) => {
    const token = c.req.query("token") ?? "";
    let refusal = "";
    let status: 200 | 403 | 404 = 200;
    let expiresAt = "";
    try {
      const link = await services.monitor.shares.open(token);
      expiresAt = new Date(link.expiresAt).toISOString();
    } catch (e) {
      if (!(e instanceof BizError)) throw e;
      refusal = ctx.t(`errors.${e.key}`);
      status = e.key === "shareLinkExpired" ? 403 : 404;
    }
    const logo = imageUrl(ctx.domain, "domainLogin");
    c.header("X-Robots-Tag", "noindex");
    return renderer.html(
      c,
      ctx,
      ctx.t("monitor.share.pageTitle"),
      <div class="mon-share-page">
        <header class="topbar">
          <span class="brand">
            {logo ? <img src={logo} alt="" /> : <span class="logo-dot" aria-hidden="true">◎</span>}
            <span>{ctx.domain.domainTitle}</span>
          </span>
          <span class="mon-share-head">{ctx.t("monitor.share.pageTitle")}</span>
        </header>
        {refusal
          ? (
            <main class="mon-share-refused">
              <div class="panel">
                <div class="empty">
                  <span class="empty-icon" aria-hidden="true">
                    <svg viewBox="0 0 24 24" width="40" height="40">
                      <circle
                        cx="12"
                        cy="12"
                        r="9"
                        fill="none"
                        stroke="currentColor"
                        stroke-width="1.8"
                      />
                      <path
                        d="M12 7v5l3 2"
                        fill="none"
                        stroke="currentColor"
                        stroke-width="1.8"
                        stroke-linecap="round"
                      />
                    </svg>
                  </span>
                  <h1>{ctx.t("monitor.share.expiredTitle")}</h1>
                  <p id="share-refusal">{refusal}</p>
                </div>
              </div>
            </main>
          )
          : (
            <main class="mon-share-main">
              <LiveDevice
                lang={ctx.lang}
                settings={{ ...mapSettings(ctx), provider: "OpenStreetMap" }}
                mode={{ kind: "share", token, expiresAt }}
              />
            </main>
          )}
      </div>,
      status,
    );
  });
}
