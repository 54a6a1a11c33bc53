import type { PageKit } from "./mount.tsx";
import { Shell } from "../components/Shell.tsx";
import type { PageContext } from "../lib/pages/context.ts";
import type { MapSettings } from "../components/monitor/basemap.ts";
import { type MapType, provider, tileTemplates } from "../modules/monitor/providers.ts";
import Objects from "../islands/monitor/Objects.tsx";

/** Tile addresses with the operator's MAP_TILE_URL_* overrides, read once. */
const TILES = tileTemplates((name) => {
  try {
    return Deno.env.get(name) || undefined;
  } catch {
    return undefined;
  }
});

/** The map settings of the user (spec §3 current user, §9 map defaults). */
function mapSettings(ctx: PageContext): MapSettings {
  const u = ctx.user;
  const p = provider(u?.userMapType);
  return {
    provider: p.id,
    mapType: "standard" as MapType,
    tiles: TILES,
    googleKey: u?.googleMapKey ?? "",
    lang: ctx.lang,
    distanceUnit: u?.showUnit ?? "km",
    speedUnit: u?.speed ?? "km/h",
    timeZone: u?.timeZones || "UTC",
    soundFlag: u?.soundFlag === 1 ? 1 : 0,
  };
}

const imeiParam = (v: string | undefined) => (v && /^\d{15}$/.test(v) ? v : "");

/** Monitor pages (spec §2): objects, alerts, playback, tracking, and the public share page. */
export function registerMonitorPages({ privatePage, renderer }: PageKit) {
  privatePage("/monitorObject", (c, ctx) =>
    renderer.html(
      c,
      ctx,
      ctx.t("monitor.tabs.object"),
      <Shell ctx={ctx}>
        <Objects
          lang={ctx.lang}
          settings={mapSettings(ctx)}
          focus={imeiParam(c.req.query("imei"))}
        />
      </Shell>,
    ));
}
