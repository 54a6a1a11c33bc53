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
import Icon from "ol/style/Icon.js";
import type BaseLayer from "ol/layer/Base.js";
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
  /** The layers drawing vehicles: two WebGL point layers, or one canvas layer. */
  private points: BaseLayer[];
  private clusters: VectorLayer<VectorSource<Feature<Point>>>;
  private byImei = new Map<string, Feature<Point>>();
  /** WGS-84 positions kept to re-project when the provider's datum changes. */
  private wgs = new Map<string, [number, number]>();
  private selected = "";
  private clusterTimer: ReturnType<typeof setTimeout> | 0 = 0;

  constructor(private readonly base: BaseMap, webgl = hardwareWebGL()) {
    this.points = webgl ? this.webglLayers() : [this.canvasLayer()];
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
    for (const l of this.points) base.map.addLayer(l as never);
    base.map.on("moveend", () => this.recluster());
    base.onDatumChange(() => {
      for (const [imei, [lng, lat]] of this.wgs) {
        this.byImei.get(imei)?.getGeometry()?.setCoordinates(base.project(lng, lat));
      }
      this.recluster();
    });
  }

  private webglLayers(): BaseLayer[] {
    // WebGL styles compare numbers: the status travels as its index in STATUSES.
    const statusColor: unknown[] = ["match", ["get", "st"]];
    STATUSES.forEach((s, i) => statusColor.push(i, STATUS_COLORS[s]));
    statusColor.push("#8a94a6");
    const size = ["interpolate", ["linear"], ["zoom"], CLUSTER_BELOW_ZOOM, 8, 14, 12];
    // Hit detection is done here from the source (an R-tree), not by WebGL: its extra render
    // pass and pixel read-back cost a frame per update on software-rendered WebGL.
    const discs = new WebGLPointsLayer({
      source: this.source,
      disableHitDetection: true,
      minZoom: CLUSTER_BELOW_ZOOM - 0.001,
      style: {
        "circle-radius": ["case", ["==", ["get", "sel"], 1], ["*", size, 1.35], size],
        "circle-fill-color": statusColor as never,
        "circle-stroke-color": ["case", ["==", ["get", "sel"], 1], "#111827", "#ffffff"],
        "circle-stroke-width": 2,
      },
    });
    const arrows = new WebGLPointsLayer({
      source: this.source,
      disableHitDetection: true,
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
    return [discs, arrows];
  }

  /** Canvas fallback: one pre-drawn icon per status, heading bucket, selection and size. */
  private canvasLayer(): BaseLayer {
    const cache = new Map<string, Style>();
    return new VectorLayer({
      source: this.source,
      minZoom: CLUSTER_BELOW_ZOOM - 0.001,
      updateWhileInteracting: false,
      style: (f, resolution) => {
        const st = f.get("st") as number, bucket = f.get("bucket") as number;
        const sel = f.get("sel") === 1, small = resolution > 20;
        const key = `${st}:${bucket}:${sel}:${small}`;
        let style = cache.get(key);
        if (!style) {
          cache.set(key, style = new Style({ image: vehicleIcon(st, bucket, sel, small) }));
        }
        return style;
      },
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
    this.base.map.forEachFeatureAtPixel(pixel, (f) => {
      out = f.get("count") === 1 ? { imei: String(f.getId()) } : { cluster: f as Feature<Point> };
      return true;
    }, { hitTolerance: 6, layerFilter: (l) => l === this.clusters });
    if (out) return out;
    if ((this.base.map.getView().getZoom() ?? 0) < CLUSTER_BELOW_ZOOM) return null;
    const c = this.base.map.getCoordinateFromPixel(pixel);
    const res = this.base.map.getView().getResolution() ?? 1;
    const r = 12 * res;
    let best: Feature<Point> | null = null, bestD = r * r;
    for (const f of this.source.getFeaturesInExtent([c[0] - r, c[1] - r, c[0] + r, c[1] + r])) {
      const [x, y] = f.getGeometry()!.getCoordinates();
      const d = (x - c[0]) ** 2 + (y - c[1]) ** 2;
      if (d <= bestD) {
        bestD = d;
        best = f;
      }
    }
    return best ? { imei: String(best.getId()) } : null;
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

/**
 * True when WebGL runs on a GPU. Software WebGL (SwiftShader, llvmpipe — headless browsers,
 * virtual machines) is slower than Canvas 2D for this, so the canvas layer is used there.
 */
export function hardwareWebGL(): boolean {
  try {
    const gl = document.createElement("canvas").getContext("webgl");
    if (!gl) return false;
    const info = gl.getExtension("WEBGL_debug_renderer_info");
    const renderer = String(
      info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER),
    );
    gl.getExtension("WEBGL_lose_context")?.loseContext();
    return !/swiftshader|llvmpipe|software|basic render/i.test(renderer);
  } catch {
    return false;
  }
}

/** A status-coloured disc with a white heading arrow (none for stopped/offline vehicles). */
function vehicleIcon(st: number, bucket: number, sel: boolean, small: boolean): Icon {
  const r = (small ? 8 : 11) * (sel ? 1.3 : 1);
  const size = Math.ceil(r * 2 + 4);
  const c = document.createElement("canvas");
  c.width = c.height = size;
  const g = c.getContext("2d")!;
  const mid = size / 2;
  g.beginPath();
  g.arc(mid, mid, r, 0, Math.PI * 2);
  g.fillStyle = STATUS_COLORS[STATUSES[st]] ?? "#8a94a6";
  g.fill();
  g.lineWidth = 2;
  g.strokeStyle = sel ? "#111827" : "#ffffff";
  g.stroke();
  if (st <= 1) {
    g.translate(mid, mid);
    g.rotate((bucket * Math.PI) / 4);
    const a = r * 0.55;
    g.beginPath();
    g.moveTo(0, -a);
    g.lineTo(a * 0.75, a * 0.8);
    g.lineTo(0, a * 0.4);
    g.lineTo(-a * 0.75, a * 0.8);
    g.closePath();
    g.fillStyle = "#ffffff";
    g.fill();
  }
  return new Icon({ img: c, width: size, height: size });
}
