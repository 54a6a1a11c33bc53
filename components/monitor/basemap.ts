/**
 * The base map of every monitor page: OpenLayers view, the chosen provider's tiles and the
 * standard controls. Browser-only: call from an effect.
 *
 * Without internet the tiles fail; the map then shows a neutral background with a light
 * graticule, and `onTilesFailing` lets the page say so once instead of drawing broken images.
 */
import OlMap from "ol/Map.js";
import View from "ol/View.js";
import TileLayer from "ol/layer/Tile.js";
import XYZ from "ol/source/XYZ.js";
import TileGrid from "ol/tilegrid/TileGrid.js";
import Graticule from "ol/layer/Graticule.js";
import Stroke from "ol/style/Stroke.js";
import { defaults as defaultControls } from "ol/control/defaults.js";
import ScaleLine from "ol/control/ScaleLine.js";
import { fromLonLat, toLonLat } from "ol/proj.js";
import type { Coordinate } from "ol/coordinate.js";
import { type Datum, fromDatum, mercatorInto, toDatum } from "../../modules/monitor/geo.ts";
import {
  type MapType,
  provider,
  type ProviderDef,
  type ProviderId,
  tileUrl,
} from "../../modules/monitor/providers.ts";

/** What the server hands every map island (spec §9 map defaults + the user's settings). */
export interface MapSettings {
  provider: ProviderId;
  mapType: MapType;
  /** Tile templates per provider and type (with the operator's overrides). */
  tiles: Record<ProviderId, Partial<Record<MapType, string>>>;
  googleKey: string;
  lang: string;
  /** "km" | "mi" | "nmi" */
  distanceUnit: string;
  /** "km/h" | "mph" | "knot" */
  speedUnit: string;
  timeZone: string;
  soundFlag: 0 | 1;
}

/** Spec §9: default centre about 106.16 E, 29.06 N; zoom limits 0-23. */
export const DEFAULT_CENTER: [number, number] = [106.16, 29.06];
const BAIDU_RESOLUTIONS = Array.from({ length: 20 }, (_, z) => 2 ** (18 - z));

export interface BaseMap {
  map: OlMap;
  datum(): Datum;
  /** WGS-84 lng/lat → view coordinates in the current provider's datum. */
  project(lng: number, lat: number): Coordinate;
  /** `project` for whole tracks, into typed arrays (no array per point: 268,000 points). */
  projectInto(
    lng: ArrayLike<number>,
    lat: ArrayLike<number>,
    xs: Float64Array,
    ys: Float64Array,
  ): void;
  /** View coordinates → WGS-84 [lng, lat]. */
  unproject(c: Coordinate): [number, number];
  setProvider(id: ProviderId, type: MapType): void;
  /** Called after the provider changed so layers can re-project their points. */
  onDatumChange(fn: () => void): void;
}

export function createBaseMap(
  target: HTMLElement,
  settings: MapSettings,
  opts: { zoom?: number; center?: [number, number]; onTilesFailing?: (failing: boolean) => void } =
    {},
): BaseMap {
  let def: ProviderDef = provider(settings.provider);
  const tiles = new TileLayer({ className: "ol-layer tiles", preload: 1 });
  const graticule = new Graticule({
    strokeStyle: new Stroke({ color: "rgba(90,110,140,0.12)", width: 1 }),
    showLabels: false,
    wrapX: true,
  });
  const map = new OlMap({
    target,
    layers: [graticule, tiles],
    controls: defaultControls({ attributionOptions: { collapsible: true, collapsed: true } })
      .extend([
        new ScaleLine({
          units: settings.distanceUnit === "mi"
            ? "us"
            : settings.distanceUnit === "nmi"
            ? "nautical"
            : "metric",
        }),
      ]),
    view: new View({
      center: fromLonLat(opts.center ?? DEFAULT_CENTER),
      zoom: opts.zoom ?? 4,
      minZoom: 1,
      maxZoom: 19,
    }),
  });
  const listeners: (() => void)[] = [];
  let failures = 0, loads = 0;
  const report = () => opts.onTilesFailing?.(failures > 0 && loads === 0);

  const setProvider = (id: ProviderId, type: MapType) => {
    const before = def.datum;
    def = provider(id);
    const template = settings.tiles[def.id]?.[type] ?? settings.tiles[def.id]?.standard ??
      def.types.standard!;
    const fill = (x: number, y: number, z: number) =>
      tileUrl(template, x, y, z, { lang: settings.lang, key: settings.googleKey });
    const source = new XYZ({
      attributions: def.attribution,
      crossOrigin: "anonymous",
      maxZoom: 19,
      ...(def.grid === "baidu"
        ? {
          tileGrid: new TileGrid({ origin: [0, 0], resolutions: BAIDU_RESOLUTIONS }),
          tileUrlFunction: (c) => fill(c[1], -c[2] - 1, c[0]),
        }
        : { tileUrlFunction: (c) => fill(c[1], c[2], c[0]) }),
    });
    failures = 0;
    loads = 0;
    source.on("tileloaderror", () => {
      failures++;
      report();
    });
    source.on("tileloadend", () => {
      loads++;
      report();
    });
    tiles.setSource(source);
    if (before !== def.datum) listeners.forEach((fn) => fn());
  };
  setProvider(settings.provider, settings.mapType);

  return {
    map,
    datum: () => def.datum,
    project: (lng, lat) => fromLonLat(toDatum(def.datum, lng, lat)),
    projectInto: (lng, lat, xs, ys) => mercatorInto(def.datum, lng, lat, xs, ys),
    unproject: (c) => {
      const [lng, lat] = toLonLat(c);
      return fromDatum(def.datum, lng, lat);
    },
    setProvider,
    onDatumChange: (fn) => listeners.push(fn),
  };
}
