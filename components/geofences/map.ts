/**
 * The geofence editor's map: OpenLayers with OSM-style tiles (a graticule stays visible
 * when tiles cannot load), a layer of the account's zones and draw tools for circles and
 * polygons. Browser-only: call from an effect.
 */
import OlMap from "ol/Map.js";
import View from "ol/View.js";
import Feature from "ol/Feature.js";
import TileLayer from "ol/layer/Tile.js";
import VectorLayer from "ol/layer/Vector.js";
import Graticule from "ol/layer/Graticule.js";
import XYZ from "ol/source/XYZ.js";
import VectorSource from "ol/source/Vector.js";
import Draw from "ol/interaction/Draw.js";
import Modify from "ol/interaction/Modify.js";
import Translate from "ol/interaction/Translate.js";
import Collection from "ol/Collection.js";
import CircleGeom from "ol/geom/Circle.js";
import PolygonGeom from "ol/geom/Polygon.js";
import { Fill, Stroke, Style, Text } from "ol/style.js";
import { fromLonLat, toLonLat } from "ol/proj.js";
import { getCenter } from "ol/extent.js";
import type { LatLng, Shape } from "../../modules/geofences/geometry.ts";

export interface ZoneView {
  id: string;
  name: string;
  color: string;
  shape: Shape;
}

const TILE_URL = "https://tile.openstreetmap.org/{z}/{x}/{y}.png";

/** Web-Mercator stretches distances by 1/cos(lat): a ground radius needs scaling. */
const mercatorScale = (lat: number) => 1 / Math.cos((lat * Math.PI) / 180);

function toGeometry(shape: Shape) {
  if (shape.kind === "circle") {
    return new CircleGeom(
      fromLonLat([shape.center.lng, shape.center.lat]),
      shape.radius * mercatorScale(shape.center.lat),
    );
  }
  return new PolygonGeom([shape.points.map((p) => fromLonLat([p.lng, p.lat]))]);
}

/** A drawn geometry as the API's shape (radius in whole metres, closed ring). */
export function toShape(geom: CircleGeom | PolygonGeom): Shape {
  if (geom instanceof CircleGeom) {
    const [lng, lat] = toLonLat(geom.getCenter());
    return {
      kind: "circle",
      center: { lat: round(lat), lng: round(lng) },
      radius: Math.round(geom.getRadius() / mercatorScale(lat)),
    };
  }
  const ring = geom.getCoordinates()[0].map((c) => {
    const [lng, lat] = toLonLat(c);
    return { lat: round(lat), lng: round(lng) } as LatLng;
  });
  const [a, b] = [ring[0], ring[ring.length - 1]];
  if (a.lat !== b.lat || a.lng !== b.lng) ring.push({ ...a });
  return { kind: "polygon", points: ring };
}

const round = (v: number) => Math.round(v * 1e6) / 1e6;

function style(color: string, name: string, selected: boolean) {
  return new Style({
    fill: new Fill({ color: `${color}${selected ? "55" : "33"}` }),
    stroke: new Stroke({ color, width: selected ? 3 : 2 }),
    text: new Text({
      text: name,
      font: "600 12px sans-serif",
      fill: new Fill({ color: "#1f2733" }),
      stroke: new Stroke({ color: "#fff", width: 3 }),
      overflow: true,
    }),
  });
}

export interface FenceMap {
  setZones(zones: ZoneView[], selectedId: string | null): void;
  focus(zone: ZoneView): void;
  /** Starts drawing; the callback receives the finished shape (or nothing on cancel). */
  draw(kind: "circle" | "polygon", done: (shape: Shape) => void): void;
  cancelDraw(): void;
  /**
   * Makes a zone's shape editable in place: drag corners, edges or the circle's rim, drag
   * the inside to move it. `changed` receives the shape after every gesture.
   */
  editShape(zone: ZoneView, changed: (shape: Shape) => void): void;
  stopEdit(): void;
  onSelect(fn: (id: string) => void): void;
  dispose(): void;
}

export function createFenceMap(target: HTMLElement, center: LatLng): FenceMap {
  const zones = new VectorSource();
  const sketch = new VectorSource();
  const map = new OlMap({
    target,
    layers: [
      new Graticule({
        strokeStyle: new Stroke({ color: "rgba(90,110,140,0.15)", width: 1 }),
        showLabels: false,
      }),
      new TileLayer({ source: new XYZ({ url: TILE_URL, crossOrigin: "anonymous" }) }),
      new VectorLayer({ source: zones }),
      new VectorLayer({ source: sketch }),
    ],
    view: new View({ center: fromLonLat([center.lng, center.lat]), zoom: 14, maxZoom: 19 }),
  });
  let drawing: Draw | null = null;
  let editing: (Modify | Translate)[] = [];
  let select: (id: string) => void = () => {};
  map.on("singleclick", (e) => {
    if (drawing || editing.length) return;
    const hit = map.forEachFeatureAtPixel(e.pixel, (f) => f, { hitTolerance: 4 });
    const id = hit?.get("zoneId");
    if (id) select(String(id));
  });
  const cancelDraw = () => {
    if (drawing) map.removeInteraction(drawing);
    drawing = null;
    sketch.clear();
  };
  const stopEdit = () => {
    editing.forEach((i) => map.removeInteraction(i));
    editing = [];
    sketch.clear();
  };
  return {
    setZones(list, selectedId) {
      zones.clear();
      zones.addFeatures(list.map((z) => {
        const f = new Feature({ geometry: toGeometry(z.shape), zoneId: z.id });
        f.setStyle(style(z.color, z.name, z.id === selectedId));
        return f;
      }));
    },
    focus(z) {
      const extent = toGeometry(z.shape).getExtent();
      map.getView().fit(extent, { padding: [60, 60, 60, 60], maxZoom: 17, duration: 250 });
      void getCenter(extent);
    },
    draw(kind, done) {
      cancelDraw();
      stopEdit();
      drawing = new Draw({ source: sketch, type: kind === "circle" ? "Circle" : "Polygon" });
      drawing.on("drawend", (e) => {
        const geom = e.feature.getGeometry() as CircleGeom | PolygonGeom;
        const shape = toShape(geom);
        setTimeout(() => {
          cancelDraw();
          done(shape);
        });
      });
      map.addInteraction(drawing);
    },
    cancelDraw,
    editShape(zone, changed) {
      cancelDraw();
      stopEdit();
      const f = new Feature({ geometry: toGeometry(zone.shape) });
      f.setStyle(style(zone.color, zone.name, true));
      sketch.addFeature(f);
      const features = new Collection([f]);
      // Translate first: a press inside moves the shape; Modify wins on edges and corners.
      const translate = new Translate({ features });
      const modify = new Modify({ features, pixelTolerance: 12 });
      const report = () => changed(toShape(f.getGeometry() as CircleGeom | PolygonGeom));
      translate.on("translateend", report);
      modify.on("modifyend", report);
      editing = [translate, modify];
      editing.forEach((i) => map.addInteraction(i));
    },
    stopEdit,
    onSelect(fn) {
      select = fn;
    },
    dispose() {
      cancelDraw();
      stopEdit();
      map.setTarget(undefined);
    },
  };
}
