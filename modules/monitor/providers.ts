/**
 * The four map providers (spec §7) and their tile addresses. Each address is a template with
 * {x} {y} {z}, {q} (Bing quadkey), {s} (server 0-3), {lang} and {key}; an operator without
 * internet points them at a local tile server with MAP_TILE_URL_<PROVIDER>[_<TYPE>].
 */
import type { Datum } from "./geo.ts";

export type ProviderId = "OpenStreetMap" | "Google" | "Bing" | "BMap";
export type MapType = "standard" | "simplified" | "hybrid" | "satellite";

export interface ProviderDef {
  id: ProviderId;
  /** Datum of the provider's tiles inside mainland China. */
  datum: Datum;
  /** Baidu numbers tiles from the equator with its own zoom levels. */
  grid: "xyz" | "baidu";
  types: Partial<Record<MapType, string>>;
  attribution: string;
}

export const PROVIDERS: ProviderDef[] = [
  {
    id: "OpenStreetMap",
    datum: "WGS84",
    grid: "xyz",
    types: { standard: "https://tile.openstreetmap.org/{z}/{x}/{y}.png" },
    attribution: "© OpenStreetMap contributors",
  },
  {
    id: "Google",
    datum: "GCJ02",
    grid: "xyz",
    types: {
      standard: "https://mt{s}.google.com/vt/lyrs=m&hl={lang}&x={x}&y={y}&z={z}&key={key}",
      simplified: "https://mt{s}.google.com/vt/lyrs=r&hl={lang}&x={x}&y={y}&z={z}&key={key}",
      hybrid: "https://mt{s}.google.com/vt/lyrs=y&hl={lang}&x={x}&y={y}&z={z}&key={key}",
      satellite: "https://mt{s}.google.com/vt/lyrs=s&hl={lang}&x={x}&y={y}&z={z}&key={key}",
    },
    attribution: "© Google",
  },
  {
    id: "Bing",
    datum: "GCJ02",
    grid: "xyz",
    types: {
      standard: "https://ecn.t{s}.tiles.virtualearth.net/tiles/r{q}.jpeg?g=1&mkt={lang}",
      hybrid: "https://ecn.t{s}.tiles.virtualearth.net/tiles/h{q}.jpeg?g=1&mkt={lang}",
      satellite: "https://ecn.t{s}.tiles.virtualearth.net/tiles/a{q}.jpeg?g=1",
    },
    attribution: "© Microsoft Bing",
  },
  {
    id: "BMap",
    datum: "BD09",
    grid: "baidu",
    types: {
      standard:
        "https://maponline{s}.bdimg.com/tile/?qt=vtile&x={x}&y={y}&z={z}&styles=pl&scaler=1&udt=20240101",
      simplified:
        "https://maponline{s}.bdimg.com/tile/?qt=vtile&x={x}&y={y}&z={z}&styles=sl&scaler=1&udt=20240101",
      satellite:
        "https://maponline{s}.bdimg.com/starpic/?qt=satepc&u=x={x};y={y};z={z};v=009;type=sate",
    },
    attribution: "© Baidu",
  },
];

export function provider(id: string | undefined): ProviderDef {
  return PROVIDERS.find((p) => p.id.toLowerCase() === (id ?? "").toLowerCase()) ?? PROVIDERS[0];
}

/** Tile templates with the operator's overrides from the environment applied. */
export function tileTemplates(
  env: (name: string) => string | undefined,
): Record<ProviderId, Partial<Record<MapType, string>>> {
  const out = {} as Record<ProviderId, Partial<Record<MapType, string>>>;
  for (const p of PROVIDERS) {
    const base = `MAP_TILE_URL_${p.id === "OpenStreetMap" ? "OSM" : p.id.toUpperCase()}`;
    const types: Partial<Record<MapType, string>> = {};
    for (const [type, url] of Object.entries(p.types) as [MapType, string][]) {
      types[type] = env(`${base}_${type.toUpperCase()}`) ??
        (type === "standard" ? env(base) : undefined) ??
        url;
    }
    out[p.id] = types;
  }
  return out;
}

/** Bing's quadkey of an XYZ tile. */
export function quadKey(x: number, y: number, z: number): string {
  let q = "";
  for (let i = z; i > 0; i--) {
    const mask = 1 << (i - 1);
    q += ((x & mask) ? 1 : 0) + ((y & mask) ? 2 : 0);
  }
  return q;
}

/** Fills a template for one tile. */
export function tileUrl(
  template: string,
  x: number,
  y: number,
  z: number,
  opts: { lang: string; key: string },
): string {
  return template
    .replace("{q}", quadKey(x, y, z))
    .replace("{s}", String((x + y) % 4))
    .replace("{x}", String(x))
    .replace("{y}", String(y))
    .replace("{z}", String(z))
    .replace("{lang}", opts.lang === "zh" ? "zh-CN" : "en")
    .replace("{key}", encodeURIComponent(opts.key));
}

/**
 * The Google Maps key a user's maps use: their own account's key when set, otherwise the
 * parent account's key when the parent shares it (spec: googleMapKey, parentGoogleMapKeyFlag).
 * Their own key wins because it is the one they chose (and are billed for).
 */
export function googleKeyFor(
  user: { googleMapKey?: string; parentGoogleMapKeyFlag?: number } | null,
  parent: { googleMapKey: string; shareGoogleMapKey: 0 | 1 } | null,
): string {
  const own = user?.googleMapKey?.trim() ?? "";
  if (own) return own;
  if (user?.parentGoogleMapKeyFlag !== 1 || !parent?.shareGoogleMapKey) return "";
  return parent.googleMapKey.trim();
}
