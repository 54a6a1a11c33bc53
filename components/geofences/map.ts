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
import PointGeom from "ol/geom/Point.js";
import PolygonGeom from "ol/geom/Polygon.js";
import { Circle as CircleStyle, Fill, Icon, Stroke, Style, Text } from "ol/style.js";
import { fromLonLat, toLonLat } from "ol/proj.js";
import { boundingExtent, buffer, getCenter } from "ol/extent.js";
import type { FeatureLike } from "ol/Feature.js";
import type { LatLng, Shape } from "../../modules/geofences/geometry.ts";
import { compassBucket } from "../../modules/monitor/geo.ts";
import { vehicleSprite } from "../monitor/icons.ts";

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

/** A vehicle at its latest position (WGS-84; the editor's OSM tiles need no datum shift). */
export interface VehicleView {
  imei: string;
  name: string;
  lat: number;
  lng: number;
  /** Index into the monitor's STATUSES. */
  status: number;
  /** Index into APPLICATION_TYPES (the icon). */
  appType: number;
  course: number;
}

/** Names under vehicle markers appear from this zoom on (fewer, further apart below). */
const LABEL_ZOOM = 12;

/** A marker per vehicle in the monitor's look; its name shows when zoomed in. */
function vehicleStyle(map: OlMap) {
  const icons = new Map<string, Style>();
  return (f: FeatureLike) => {
    const v = f.get("vehicle") as VehicleView;
    const ratio = map.getPixelRatio?.() ?? globalThis.devicePixelRatio ?? 1;
    const key = `${v.appType}/${v.status}/${compassBucket(v.course)}/${ratio}`;
    let icon = icons.get(key);
    if (!icon) {
      const sprite = vehicleSprite(
        v.appType,
        v.status,
        compassBucket(v.course),
        false,
        false,
        ratio,
      );
      icon = new Style({ image: new Icon({ img: sprite.canvas, scale: 1 / ratio }) });
      icons.set(key, icon);
    }
    if ((map.getView().getZoom() ?? 0) < LABEL_ZOOM) return icon;
    return [
      icon,
      new Style({
        text: new Text({
          text: v.name || v.imei,
          offsetY: 24,
          font: "600 11px sans-serif",
          fill: new Fill({ color: "#1f2733" }),
          stroke: new Stroke({ color: "#fff", width: 3 }),
        }),
      }),
    ];
  };
}

/** The pin of a place found by the search. */
const PLACE_STYLE = new Style({
  image: new CircleStyle({
    radius: 7,
    fill: new Fill({ color: "#e5484d" }),
    stroke: new Stroke({ color: "#fff", width: 3 }),
  }),
});

export interface FenceMap {
  setZones(zones: ZoneView[], selectedId: string | null): void;
  focus(zone: ZoneView): void;
  /** Shows vehicles at their latest positions (replacing the previous ones). */
  setVehicles(vehicles: VehicleView[]): void;
  /** Fits the view to the vehicles shown (one alone is centred at street level). */
  fitVehicles(): boolean;
  /** Centres on a found place and marks it with a pin. */
  showPlace(at: LatLng, zoom?: number): void;
  /** Where the view is centred (for tests and diagnostics). */
  viewCenter(): LatLng;
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
  const vehicles = new VectorSource();
  const place = new VectorSource();
  const zoneLayer = new VectorLayer({ source: zones });
  const map = new OlMap({
    target,
    layers: [
      new Graticule({
        strokeStyle: new Stroke({ color: "rgba(90,110,140,0.15)", width: 1 }),
        showLabels: false,
      }),
      new TileLayer({ source: new XYZ({ url: TILE_URL, crossOrigin: "anonymous" }) }),
      zoneLayer,
      new VectorLayer({ source: place, style: PLACE_STYLE }),
      new VectorLayer({ source: sketch }),
    ],
    view: new View({ center: fromLonLat([center.lng, center.lat]), zoom: 14, maxZoom: 19 }),
  });
  // Vehicles sit under the zones' sketch but above their fill; they never take clicks.
  const vehicleLayer = new VectorLayer({ source: vehicles, style: vehicleStyle(map) });
  map.getLayers().insertAt(3, vehicleLayer);
  let drawing: Draw | null = null;
  let editing: (Modify | Translate)[] = [];
  let select: (id: string) => void = () => {};
  map.on("singleclick", (e) => {
    if (drawing || editing.length) return;
    const hit = map.forEachFeatureAtPixel(e.pixel, (f) => f, {
      hitTolerance: 4,
      layerFilter: (l) => l === zoneLayer,
    });
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
    setVehicles(list) {
      vehicles.clear();
      vehicles.addFeatures(
        list.map((v) =>
          new Feature({ geometry: new PointGeom(fromLonLat([v.lng, v.lat])), vehicle: v })
        ),
      );
    },
    fitVehicles() {
      const points = vehicles.getFeatures().map((f) =>
        (f.getGeometry() as PointGeom).getCoordinates()
      );
      if (!points.length) return false;
      // A lone vehicle (or a fleet parked in one yard) still shows its streets around it.
      const extent = buffer(boundingExtent(points), 300);
      map.getView().fit(extent, { padding: [70, 70, 70, 70], maxZoom: 15 });
      return true;
    },
    viewCenter() {
      const [lng, lat] = toLonLat(map.getView().getCenter() ?? [0, 0]);
      return { lat, lng };
    },
    showPlace(at, zoom = 14) {
      place.clear();
      const point = fromLonLat([at.lng, at.lat]);
      place.addFeature(new Feature({ geometry: new PointGeom(point) }));
      map.getView().animate({ center: point, zoom, duration: 250 });
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
