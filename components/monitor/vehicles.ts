/**
 * Vehicles on the map: WebGL point layers (a status-coloured disc and a white heading arrow
 * rotated in the spec's 45° compass buckets) for thousands of devices, and a canvas cluster
 * layer that takes over when zoomed out. Browser-only.
 */
import Feature from "ol/Feature.js";
import Point from "ol/geom/Point.js";
import VectorSource from "ol/source/Vector.js";
import VectorLayer from "ol/layer/Vector.js";
import WebGLPointsLayer from "ol/layer/WebGLPoints.js";
import Style from "ol/style/Style.js";
import CircleStyle from "ol/style/Circle.js";
import Fill from "ol/style/Fill.js";
import Stroke from "ol/style/Stroke.js";
import Text from "ol/style/Text.js";
import { compassBucket } from "../../modules/monitor/geo.ts";
import { gridCluster } from "../../modules/monitor/cluster.ts";
import { STATUS_INDEX, STATUSES } from "../../modules/monitor/objects.ts";
import type { DeviceStatus } from "../../modules/devices/model.ts";
import type { BaseMap } from "./basemap.ts";
import { STATUS_COLORS } from "./status.ts";

/** Below this zoom vehicles are drawn as counted clusters. */
export const CLUSTER_BELOW_ZOOM = 9;

const ARROW_SVG = "data:image/svg+xml;utf8," + encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32" viewBox="0 0 32 32">' +
    '<path d="M16 5 L24 25 L16 20.5 L8 25 Z" fill="#fff"/></svg>',
);

export interface VehicleRow {
  imei: string;
  lat: number | null;
  lng: number | null;
  course: number;
  status: DeviceStatus;
}

export class VehicleLayers {
  readonly source = new VectorSource<Feature<Point>>({ wrapX: false });
  private clusterSource = new VectorSource<Feature<Point>>();
  private discs: WebGLPointsLayer<VectorSource<Feature<Point>>>;
  private arrows: WebGLPointsLayer<VectorSource<Feature<Point>>>;
  private clusters: VectorLayer<VectorSource<Feature<Point>>>;
  private byImei = new Map<string, Feature<Point>>();
  /** WGS-84 positions kept to re-project when the provider's datum changes. */
  private wgs = new Map<string, [number, number]>();
  private selected = "";
  private clusterTimer: ReturnType<typeof setTimeout> | 0 = 0;

  constructor(private readonly base: BaseMap) {
    // WebGL styles compare numbers: the status travels as its index in STATUSES.
    const statusColor: unknown[] = ["match", ["get", "st"]];
    STATUSES.forEach((s, i) => statusColor.push(i, STATUS_COLORS[s]));
    statusColor.push("#8a94a6");
    const size = ["interpolate", ["linear"], ["zoom"], CLUSTER_BELOW_ZOOM, 8, 14, 12];
    this.discs = new WebGLPointsLayer({
      source: this.source,
      minZoom: CLUSTER_BELOW_ZOOM - 0.001,
      style: {
        "circle-radius": ["case", ["==", ["get", "sel"], 1], ["*", size, 1.35], size],
        "circle-fill-color": statusColor as never,
        "circle-stroke-color": ["case", ["==", ["get", "sel"], 1], "#111827", "#ffffff"],
        "circle-stroke-width": 2,
      },
    });
    this.arrows = new WebGLPointsLayer({
      source: this.source,
      minZoom: CLUSTER_BELOW_ZOOM - 0.001,
      style: {
        "icon-src": ARROW_SVG,
        "icon-width": 32,
        "icon-height": 32,
        "icon-scale": ["interpolate", ["linear"], ["zoom"], CLUSTER_BELOW_ZOOM, 0.4, 14, 0.62],
        "icon-rotation": ["*", ["get", "bucket"], Math.PI / 4],
        // Stopped and offline vehicles show a dot: their heading means little.
        "icon-opacity": ["case", ["<=", ["get", "st"], 1], 1, 0],
      },
    });
    const styles = new Map<string, Style>();
    this.clusters = new VectorLayer({
      source: this.clusterSource,
      maxZoom: CLUSTER_BELOW_ZOOM,
      style: (f) => {
        const n = f.get("count") as number;
        const key = n > 999 ? `${Math.round(n / 100) / 10}k` : String(n);
        let s = styles.get(key);
        if (!s) {
          const r = n === 1 ? 6 : Math.min(30, 12 + Math.log10(n) * 7);
          s = new Style({
            image: new CircleStyle({
              radius: r,
              fill: new Fill({ color: n === 1 ? "#3b7aff" : "rgba(59,122,255,0.85)" }),
              stroke: new Stroke({ color: "rgba(255,255,255,0.9)", width: n === 1 ? 2 : 4 }),
            }),
            text: n === 1 ? undefined : new Text({
              text: key,
              font: "600 12px system-ui, sans-serif",
              fill: new Fill({ color: "#fff" }),
            }),
          });
          if (styles.size < 2000) styles.set(key, s);
        }
        return s;
      },
    });
    base.map.addLayer(this.clusters);
    base.map.addLayer(this.discs);
    base.map.addLayer(this.arrows);
    base.map.on("moveend", () => this.recluster());
    base.onDatumChange(() => {
      for (const [imei, [lng, lat]] of this.wgs) {
        this.byImei.get(imei)?.getGeometry()?.setCoordinates(base.project(lng, lat));
      }
      this.recluster();
    });
  }

  /** Adds or moves vehicles; rows without a position are removed from the map. */
  upsert(rows: VehicleRow[]): void {
    const fresh: Feature<Point>[] = [];
    for (const r of rows) {
      let f = this.byImei.get(r.imei);
      if (r.lat === null || r.lng === null) {
        if (f) {
          this.source.removeFeature(f);
          this.byImei.delete(r.imei);
          this.wgs.delete(r.imei);
        }
        continue;
      }
      const at = this.base.project(r.lng, r.lat);
      this.wgs.set(r.imei, [r.lng, r.lat]);
      const bucket = compassBucket(r.course);
      const st = STATUS_INDEX.get(r.status) ?? 3;
      if (!f) {
        f = new Feature({ geometry: new Point(at) });
        f.setId(r.imei);
        f.setProperties({ st, bucket, sel: r.imei === this.selected ? 1 : 0 }, true);
        this.byImei.set(r.imei, f);
        fresh.push(f);
      } else {
        f.getGeometry()!.setCoordinates(at);
        if (f.get("st") !== st || f.get("bucket") !== bucket) {
          f.setProperties({ st, bucket });
        }
      }
    }
    if (fresh.length) this.source.addFeatures(fresh);
    this.scheduleRecluster();
  }

  /** Keeps only these devices (after a full reload). */
  retain(imeis: Set<string>): void {
    for (const [imei, f] of this.byImei) {
      if (imeis.has(imei)) continue;
      this.source.removeFeature(f);
      this.byImei.delete(imei);
      this.wgs.delete(imei);
    }
  }

  select(imei: string): void {
    this.byImei.get(this.selected)?.set("sel", 0);
    this.selected = imei;
    this.byImei.get(imei)?.set("sel", 1);
  }

  coordinateOf(imei: string) {
    return this.byImei.get(imei)?.getGeometry()?.getCoordinates();
  }

  /** The vehicle (or cluster) under a pixel. */
  hit(pixel: number[]): { imei?: string; cluster?: Feature<Point> } | null {
    let out: { imei?: string; cluster?: Feature<Point> } | null = null;
    this.base.map.forEachFeatureAtPixel(pixel, (f, layer) => {
      if (layer === this.clusters && f.get("count") !== 1) out = { cluster: f as Feature<Point> };
      else out = { imei: String(f.getId()) };
      return true;
    }, { hitTolerance: 6, layerFilter: (l) => l === this.clusters || l === this.discs });
    return out;
  }

  /** The extent of all vehicles, or null when none has a position. */
  extent() {
    return this.source.getFeatures().length ? this.source.getExtent() : null;
  }

  private scheduleRecluster() {
    if (this.clusterTimer) return;
    this.clusterTimer = setTimeout(() => {
      this.clusterTimer = 0;
      this.recluster();
    }, 1000);
  }

  private recluster(): void {
    const view = this.base.map.getView();
    if ((view.getZoom() ?? 0) >= CLUSTER_BELOW_ZOOM) {
      if (this.clusterSource.getFeatures().length) this.clusterSource.clear();
      return;
    }
    const feats = this.source.getFeatures();
    const xs = new Float64Array(feats.length), ys = new Float64Array(feats.length);
    feats.forEach((f, i) => {
      const [x, y] = f.getGeometry()!.getCoordinates();
      xs[i] = x;
      ys[i] = y;
    });
    const cells = gridCluster(xs, ys, view.getResolution() ?? 1, 56);
    this.clusterSource.clear(true);
    this.clusterSource.addFeatures(cells.map((c) => {
      const f = new Feature({ geometry: new Point([c.x, c.y]) });
      f.set("count", c.count, true);
      if (c.count === 1) f.setId(feats[c.first].getId());
      return f;
    }));
  }
}
