/**
 * The caller's landmarks (POI: circles and polygons from the geofence editor) on a monitor
 * map, under the vehicles, with a small map button to hide or show them. Positions stay
 * WGS-84 and are projected through the base map, so they move with the provider's datum
 * (GCJ-02 / BD-09) like the vehicles do. Browser-only.
 */
import Feature from "ol/Feature.js";
import CircleGeom from "ol/geom/Circle.js";
import PolygonGeom from "ol/geom/Polygon.js";
import VectorLayer from "ol/layer/Vector.js";
import VectorSource from "ol/source/Vector.js";
import Control from "ol/control/Control.js";
import { Fill, Stroke, Style, Text } from "ol/style.js";
import type { FeatureLike } from "ol/Feature.js";
import type { TFunction } from "i18next";
import { api } from "../../lib/client/api.ts";
import type { Zone } from "../../modules/geofences/model.ts";
import type { BaseMap } from "./basemap.ts";

/** Names are drawn from this zoom on; further out they would cover the vehicles. */
const LABEL_FROM_ZOOM = 12;
/** Above the graticule and the tiles (the base map's first two layers), below the vehicles. */
const LAYER_INDEX = 2;

/** Web-Mercator stretches ground distances by 1/cos(lat). */
const mercatorScale = (lat: number) => 1 / Math.cos((lat * Math.PI) / 180);

export class LandmarkLayer {
  readonly source = new VectorSource();
  readonly layer: VectorLayer<VectorSource>;
  private zones: Zone[] = [];
  private styles = new Map<string, Style>();

  constructor(private readonly base: BaseMap, label: { show: string; hide: string }) {
    this.layer = new VectorLayer({
      source: this.source,
      properties: { name: "landmarks" },
      style: (f, resolution) => this.style(f, resolution),
    });
    base.map.getLayers().insertAt(LAYER_INDEX, this.layer);
    base.onDatumChange(() => this.draw());
    base.map.addControl(this.toggle(label));
  }

  /** Loads the caller's landmarks; a failure leaves the map without them (not an error). */
  async load(): Promise<void> {
    try {
      this.zones = await api<Zone[]>("/v3/new/geofence/layer", { kind: "landmark" });
    } catch {
      this.zones = [];
    }
    this.draw();
  }

  private draw(): void {
    this.source.clear();
    this.source.addFeatures(this.zones.map((z) => {
      const f = new Feature({ geometry: this.geometry(z), landmarkId: z.id });
      f.set("name", z.name);
      f.set("color", z.color);
      return f;
    }));
  }

  private geometry(z: Zone) {
    const s = z.shape;
    if (s.kind === "circle") {
      return new CircleGeom(
        this.base.project(s.center.lng, s.center.lat),
        s.radius * mercatorScale(s.center.lat),
      );
    }
    return new PolygonGeom([s.points.map((p) => this.base.project(p.lng, p.lat))]);
  }

  private style(f: FeatureLike, resolution: number): Style {
    const color = String(f.get("color") ?? "#3b7aff");
    const zoom = this.base.map.getView().getZoomForResolution(resolution) ?? 0;
    const name = zoom >= LABEL_FROM_ZOOM ? String(f.get("name") ?? "") : "";
    const key = `${color}|${name}`;
    let s = this.styles.get(key);
    if (!s) {
      s = new Style({
        fill: new Fill({ color: `${color}26` }),
        stroke: new Stroke({ color, width: 1.5, lineDash: [6, 4] }),
        text: name
          ? new Text({
            text: `⚑ ${name}`,
            font: "600 12px sans-serif",
            fill: new Fill({ color: "#1f2733" }),
            stroke: new Stroke({ color: "#fff", width: 3 }),
            overflow: true,
          })
          : undefined,
      });
      this.styles.set(key, s);
    }
    return s;
  }

  /** A map button (top right, under the zoom buttons' column) that hides / shows the layer. */
  private toggle(label: { show: string; hide: string }): Control {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "mon-landmark-toggle active";
    button.textContent = "⚑";
    button.title = label.hide;
    button.setAttribute("aria-pressed", "true");
    button.addEventListener("click", () => {
      const on = !this.layer.getVisible();
      this.layer.setVisible(on);
      button.classList.toggle("active", on);
      button.title = on ? label.hide : label.show;
      button.setAttribute("aria-pressed", String(on));
    });
    const el = document.createElement("div");
    el.className = "ol-unselectable ol-control mon-landmark-control";
    el.appendChild(button);
    return new Control({ element: el });
  }
}

/** Adds the caller's landmarks to a monitor map (with its show/hide button) and loads them. */
export function addLandmarks(base: BaseMap, t: TFunction): LandmarkLayer {
  const layer = new LandmarkLayer(base, {
    show: t("geofences.landmarkLayer.show"),
    hide: t("geofences.landmarkLayer.hide"),
  });
  layer.load();
  return layer;
}
