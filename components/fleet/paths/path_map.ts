/**
 * The route editor's map (OpenLayers, browser-only: call from an effect): click to add the
 * start, via points and the end, drag a point to move it; the line between the points (or the
 * road line the server made) is drawn with the corridor around it at its real ground width.
 */
import OlMap from "ol/Map.js";
import View from "ol/View.js";
import Feature from "ol/Feature.js";
import TileLayer from "ol/layer/Tile.js";
import VectorLayer from "ol/layer/Vector.js";
import Graticule from "ol/layer/Graticule.js";
import XYZ from "ol/source/XYZ.js";
import VectorSource from "ol/source/Vector.js";
import Modify from "ol/interaction/Modify.js";
import LineString from "ol/geom/LineString.js";
import PointGeom from "ol/geom/Point.js";
import { Circle as CircleStyle, Fill, Stroke, Style, Text } from "ol/style.js";
import { fromLonLat, toLonLat } from "ol/proj.js";
import { boundingExtent, buffer } from "ol/extent.js";
import type { RoutePoint } from "../../../modules/fleet/paths_model.ts";

const TILE_URL = "https://tile.openstreetmap.org/{z}/{x}/{y}.png";
const round = (v: number) => Math.round(v * 1e6) / 1e6;

export interface PathMap {
  /** Draws the points (start, via…, end), the line and the corridor of `offset` metres. */
  draw(points: RoutePoint[], line: RoutePoint[] | null, offset: number): void;
  /** Shows the whole route, or the given vehicles' area when there is no route yet. */
  fit(points: RoutePoint[]): void;
  dispose(): void;
}

export interface PathMapEvents {
  /** A click on the map: a new point there (the editor decides where it goes). */
  onAdd(p: RoutePoint): void;
  /** A point dragged to a new place. */
  onMove(index: number, p: RoutePoint): void;
}

function pointStyle(label: string, kind: "start" | "via" | "end") {
  const color = kind === "start" ? "#1f9d55" : kind === "end" ? "#e5484d" : "#3b7aff";
  return new Style({
    image: new CircleStyle({
      radius: kind === "via" ? 9 : 11,
      fill: new Fill({ color }),
      stroke: new Stroke({ color: "#fff", width: 2 }),
    }),
    text: new Text({
      text: label,
      font: "700 11px sans-serif",
      fill: new Fill({ color: "#fff" }),
    }),
    zIndex: 3,
  });
}

export function createPathMap(
  target: HTMLElement,
  center: RoutePoint,
  events: PathMapEvents,
): PathMap {
  const pts = new VectorSource<Feature<PointGeom>>();
  const lines = new VectorSource();
  let offsetM = 100;
  const view = new View({ center: fromLonLat([center.lng, center.lat]), zoom: 12, maxZoom: 19 });
  // The corridor: the line stroked twice the offset wide, in pixels at the current zoom
  // (Web-Mercator stretches ground distances by 1/cos(lat)).
  const corridorStyle = (f: unknown, resolution: number) => {
    const lat = (f as Feature).get("lat") as number;
    const px = (2 * offsetM) / (resolution * Math.cos((lat * Math.PI) / 180));
    return [
      new Style({
        stroke: new Stroke({ color: "rgba(59,122,255,0.18)", width: Math.max(px, 4) }),
      }),
      new Style({ stroke: new Stroke({ color: "#3b7aff", width: 3 }) }),
    ];
  };
  const map = new OlMap({
    target,
    layers: [
      new Graticule({
        strokeStyle: new Stroke({ color: "rgba(90,110,140,0.15)", width: 1 }),
        showLabels: false,
      }),
      new TileLayer({ source: new XYZ({ url: TILE_URL, crossOrigin: "anonymous" }) }),
      new VectorLayer({ source: lines, style: corridorStyle }),
      new VectorLayer({ source: pts }),
    ],
    view,
  });
  const modify = new Modify({ source: pts, pixelTolerance: 12 });
  let dragging = false;
  modify.on("modifystart", () => (dragging = true));
  modify.on("modifyend", (e) => {
    dragging = false;
    for (const f of e.features.getArray()) {
      const [lng, lat] = toLonLat((f.getGeometry() as PointGeom).getCoordinates());
      events.onMove(f.get("index") as number, { lat: round(lat), lng: round(lng) });
    }
  });
  map.addInteraction(modify);
  map.on("singleclick", (e) => {
    if (dragging) return;
    // A click on a point is the start of a drag, not a new point.
    if (map.forEachFeatureAtPixel(e.pixel, () => true, { hitTolerance: 6 })) return;
    const [lng, lat] = toLonLat(e.coordinate);
    events.onAdd({ lat: round(lat), lng: round(lng) });
  });

  return {
    draw(points, line, offset) {
      offsetM = offset;
      pts.clear();
      lines.clear();
      points.forEach((p, i) => {
        const kind = i === 0 ? "start" : i === points.length - 1 ? "end" : "via";
        const f = new Feature(new PointGeom(fromLonLat([p.lng, p.lat])));
        f.set("index", i);
        f.setStyle(pointStyle(kind === "start" ? "S" : kind === "end" ? "E" : String(i), kind));
        pts.addFeature(f);
      });
      const drawn = line && line.length > 1 ? line : points;
      if (drawn.length > 1) {
        const f = new Feature(new LineString(drawn.map((p) => fromLonLat([p.lng, p.lat]))));
        f.set("lat", drawn[0].lat);
        lines.addFeature(f);
      }
    },
    fit(points) {
      if (!points.length) return;
      const ext = boundingExtent(points.map((p) => fromLonLat([p.lng, p.lat])));
      view.fit(buffer(ext, 300), { padding: [40, 40, 40, 40], maxZoom: 15, duration: 0 });
    },
    dispose() {
      map.setTarget(undefined);
    },
  };
}
