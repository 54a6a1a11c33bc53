/**
 * Vehicles on the map: one custom OpenLayers layer that draws pre-rendered sprites (see
 * icons.ts) straight from typed arrays onto its own canvas.
 *
 * Why not a vector layer: OpenLayers' canvas vector layer rebuilds its draw instructions for
 * every feature whenever any feature changes, so each live batch cost 0.3-1.1 s with 10,000
 * vehicles (bench:monitor); its WebGL layer is worse where WebGL is software-rendered. Here a
 * live update writes a few numbers per vehicle and asks for one redraw, which OpenLayers runs
 * on the next animation frame; the redraw is one drawImage per visible vehicle. Below zoom 9,
 * or while more than MAX_ICONS vehicles are in view (a blob of icons nobody can read, and the
 * redraw would grow with the fleet), vehicles are drawn as counted clusters from a map-unit
 * grid (O(n) per frame, at most a few hundred bubbles). Browser-only.
 */
import Layer from "ol/layer/Layer.js";
import type { FrameState } from "ol/Map.js";
import type { Coordinate } from "ol/coordinate.js";
import type { Extent } from "ol/extent.js";
import { compassBucket, mercatorX, mercatorY } from "../../modules/monitor/geo.ts";
import { type ClusterCell, gridCluster } from "../../modules/monitor/cluster.ts";
import { STATUS_INDEX, STATUSES } from "../../modules/monitor/objects.ts";
import type { DeviceStatus } from "../../modules/devices/model.ts";
import type { BaseMap } from "./basemap.ts";
import { clusterSprite, type Sprite, vehicleSprite } from "./icons.ts";
import { STATUS_COLORS } from "./status.ts";

/** Below this zoom vehicles are drawn as counted clusters. */
export const CLUSTER_BELOW_ZOOM = 9;
/** More vehicles than this in view are clustered at any zoom below MAX_CLUSTER_ZOOM. */
export const MAX_ICONS = 1500;
const MAX_CLUSTER_ZOOM = 16;
/** Cluster cell size in CSS pixels. */
const CELL_PX = 56;
/** Above this resolution (m/px, about zoom 13) vehicles use the small sprites. */
const SMALL_ABOVE_RES = 20;

export interface VehicleRow {
  imei: string;
  lat: number | null;
  lng: number | null;
  course: number;
  status: DeviceStatus;
  /** Index in APPLICATION_TYPES (the icon). */
  type: number;
}

interface Drawn {
  x: number;
  y: number;
  half: number;
  /** A vehicle slot, or -1 for a cluster. */
  slot: number;
  count: number;
}

export class VehicleLayers {
  readonly layer: Layer;
  /** Vehicle moves applied since the page opened (bench:monitor reads it). */
  applied = 0;
  /** Duration of the latest redraws, ms (bench:monitor reads them). */
  readonly drawTimes: number[] = [];
  private slots = new Map<string, number>();
  private imeis: string[] = [];
  private cap = 0;
  private lng = new Float64Array(0);
  private lat = new Float64Array(0);
  /** Projected (view) coordinates; NaN when the vehicle has no position. */
  private xs = new Float64Array(0);
  private ys = new Float64Array(0);
  private st = new Uint8Array(0);
  private bucket = new Uint8Array(0);
  private type = new Uint8Array(0);
  private present = 0;
  private selected = -1;
  private canvas = document.createElement("canvas");
  /** What the last frame drew, for hit testing. */
  private drawn: Drawn[] = [];
  private revision = 0;
  private drawnKey = "";

  constructor(private readonly base: BaseMap) {
    this.canvas.className = "mon-vehicles";
    this.canvas.style.cssText = "position:absolute;left:0;top:0;width:100%;height:100%";
    this.layer = new Layer({ render: (fs) => this.render(fs), zIndex: 20 });
    base.map.addLayer(this.layer);
    base.onDatumChange(() => {
      for (let i = 0; i < this.imeis.length; i++) this.project(i);
      this.touch();
    });
  }

  /** Adds or moves vehicles; rows without a position are taken off the map. */
  upsert(rows: VehicleRow[]): void {
    for (const r of rows) {
      let i = this.slots.get(r.imei);
      if (i === undefined) {
        if (r.lat === null || r.lng === null) continue;
        i = this.slot(r.imei);
      }
      if (r.lat === null || r.lng === null) {
        this.lng[i] = this.lat[i] = NaN;
      } else {
        this.lng[i] = r.lng;
        this.lat[i] = r.lat;
      }
      this.project(i);
      this.st[i] = STATUS_INDEX.get(r.status) ?? 3;
      this.bucket[i] = compassBucket(r.course);
      this.type[i] = r.type;
    }
    this.applied += rows.length;
    this.touch();
  }

  /** Keeps only these devices (after a full reload). */
  retain(imeis: Set<string>): void {
    for (const [imei, i] of this.slots) {
      if (imeis.has(imei) || Number.isNaN(this.xs[i])) continue;
      this.lng[i] =
        this.lat[i] =
        this.xs[i] =
        this.ys[i] =
          NaN;
    }
    this.recount();
    this.touch();
  }

  select(imei: string): void {
    const i = this.slots.get(imei) ?? -1;
    if (i === this.selected) return;
    this.selected = i;
    this.touch();
  }

  /** Vehicles with a position on the map. */
  count(): number {
    return this.present;
  }

  coordinateOf(imei: string): Coordinate | undefined {
    const i = this.slots.get(imei);
    return i === undefined || Number.isNaN(this.xs[i]) ? undefined : [this.xs[i], this.ys[i]];
  }

  /** The vehicle or cluster drawn under a pixel (CSS pixels of the map). */
  hit(pixel: number[]): { imei?: string; cluster?: Coordinate } | null {
    let best: Drawn | null = null, bestD = Infinity;
    for (const d of this.drawn) {
      const dx = d.x - pixel[0], dy = d.y - pixel[1], r = d.half + 2;
      const dd = dx * dx + dy * dy;
      if (dd <= r * r && dd < bestD) {
        best = d;
        bestD = dd;
      }
    }
    if (!best) return null;
    if (best.slot >= 0) return { imei: this.imeis[best.slot] };
    return { cluster: this.base.map.getCoordinateFromPixel([best.x, best.y]) };
  }

  /** The extent of all vehicles, or null when none has a position. */
  extent(): Extent | null {
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    for (let i = 0; i < this.imeis.length; i++) {
      const x = this.xs[i], y = this.ys[i];
      if (Number.isNaN(x)) continue;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
    }
    return minX <= maxX ? [minX, minY, maxX, maxY] : null;
  }

  private slot(imei: string): number {
    const i = this.imeis.length;
    if (i === this.cap) this.grow(Math.max(256, this.cap * 2));
    this.imeis.push(imei);
    this.slots.set(imei, i);
    this.xs[i] = NaN;
    return i;
  }

  private grow(cap: number) {
    const widen = <T extends Float64Array | Uint8Array>(a: T, make: (n: number) => T): T => {
      const b = make(cap);
      b.set(a);
      return b;
    };
    this.lng = widen(this.lng, (n) => new Float64Array(n));
    this.lat = widen(this.lat, (n) => new Float64Array(n));
    this.xs = widen(this.xs, (n) => new Float64Array(n));
    this.ys = widen(this.ys, (n) => new Float64Array(n));
    this.st = widen(this.st, (n) => new Uint8Array(n));
    this.bucket = widen(this.bucket, (n) => new Uint8Array(n));
    this.type = widen(this.type, (n) => new Uint8Array(n));
    this.cap = cap;
  }

  private project(i: number) {
    const was = !Number.isNaN(this.xs[i]);
    if (Number.isNaN(this.lng[i])) {
      this.xs[i] = this.ys[i] = NaN;
    } else if (this.base.datum() === "WGS84") {
      // No array per vehicle per update on the common path.
      this.xs[i] = mercatorX(this.lng[i]);
      this.ys[i] = mercatorY(this.lat[i]);
    } else {
      const [x, y] = this.base.project(this.lng[i], this.lat[i]);
      this.xs[i] = x;
      this.ys[i] = y;
    }
    this.present += (Number.isNaN(this.xs[i]) ? 0 : 1) - (was ? 1 : 0);
  }

  private recount() {
    let n = 0;
    for (let i = 0; i < this.imeis.length; i++) if (!Number.isNaN(this.xs[i])) n++;
    this.present = n;
  }

  /** Asks for a redraw; OpenLayers coalesces it into the next animation frame. */
  private touch() {
    this.revision++;
    this.layer.changed();
  }

  /** More than MAX_ICONS vehicles inside the extent. */
  private crowded([x0, y0, x1, y1]: number[]): boolean {
    let k = 0;
    for (let i = 0; i < this.imeis.length; i++) {
      const x = this.xs[i], y = this.ys[i];
      if (x >= x0 && x <= x1 && y >= y0 && y <= y1 && ++k > MAX_ICONS) return true;
    }
    return false;
  }

  private render(fs: FrameState): HTMLElement {
    const [w, h] = fs.size, ratio = fs.pixelRatio, v = fs.viewState;
    const key = `${this.revision}|${v.center[0]}|${
      v.center[1]
    }|${v.resolution}|${v.rotation}|${w}|${h}|${ratio}`;
    if (key === this.drawnKey) return this.canvas;
    this.drawnKey = key;
    const t0 = performance.now();
    const c = this.canvas;
    if (c.width !== Math.round(w * ratio) || c.height !== Math.round(h * ratio)) {
      c.width = Math.round(w * ratio);
      c.height = Math.round(h * ratio);
    }
    const g = c.getContext("2d")!;
    g.setTransform(1, 0, 0, 1, 0, 0);
    g.clearRect(0, 0, c.width, c.height);
    g.setTransform(ratio, 0, 0, ratio, 0, 0);
    const [a, b, cc, d, e, f] = fs.coordinateToPixelTransform;
    const drawn: Drawn[] = [];
    const put = (s: Sprite, x: number, y: number, slot: number, count: number) => {
      g.drawImage(s.canvas, Math.round(x - s.half), Math.round(y - s.half), s.half * 2, s.half * 2);
      drawn.push({ x, y, half: s.half, slot, count });
    };
    const n = this.imeis.length, margin = 40;
    // The view in map units, with a margin so icons at the edge are not cut off.
    const m = margin * v.resolution, [x0, y0, x1, y1] = fs.extent!;
    const within = [x0 - m, y0 - m, x1 + m, y1 + m];
    const xs = this.xs.subarray(0, n), ys = this.ys.subarray(0, n);
    if (v.zoom < CLUSTER_BELOW_ZOOM || (v.zoom < MAX_CLUSTER_ZOOM && this.crowded(within))) {
      const cells = gridCluster(xs, ys, v.resolution, CELL_PX, {
        within,
        classOf: this.st.subarray(0, n),
      });
      for (const cell of cells) {
        const x = a * cell.x + cc * cell.y + e, y = b * cell.x + d * cell.y + f;
        if (cell.count === 1) {
          const i = cell.first;
          put(
            vehicleSprite(
              this.type[i],
              this.st[i],
              this.bucket[i],
              i === this.selected,
              true,
              ratio,
            ),
            x,
            y,
            i,
            1,
          );
        } else {
          const s = clusterSprite(cell.count, ratio);
          put(s, x, y, -1, cell.count);
          statusRing(g, Math.round(x - s.half) + s.half, Math.round(y - s.half) + s.half, s, cell);
        }
      }
    } else {
      const small = v.resolution > SMALL_ABOVE_RES;
      const [wx0, wy0, wx1, wy1] = within;
      for (let i = 0; i < n; i++) {
        const px = xs[i], py = ys[i];
        if (!(px >= wx0 && px <= wx1 && py >= wy0 && py <= wy1) || i === this.selected) continue;
        const x = a * px + cc * py + e, y = b * px + d * py + f;
        put(
          vehicleSprite(this.type[i], this.st[i], this.bucket[i], false, small, ratio),
          x,
          y,
          i,
          1,
        );
      }
      // The selected vehicle is drawn last, on top of its neighbours.
      const i = this.selected;
      if (i >= 0 && !Number.isNaN(xs[i])) {
        const x = a * xs[i] + cc * ys[i] + e, y = b * xs[i] + d * ys[i] + f;
        put(
          vehicleSprite(this.type[i], this.st[i], this.bucket[i], true, small, ratio),
          x,
          y,
          i,
          1,
        );
      }
    }
    this.drawn = drawn;
    this.drawTimes.push(performance.now() - t0);
    if (this.drawTimes.length > 600) this.drawTimes.splice(0, 300);
    return c;
  }
}

/** The cluster's members by status, as coloured arcs around its bubble (moving first). */
function statusRing(
  g: CanvasRenderingContext2D,
  x: number,
  y: number,
  s: Sprite,
  cell: ClusterCell,
) {
  let from = -Math.PI / 2;
  g.lineWidth = 4;
  cell.byClass!.forEach((members, status) => {
    if (!members) return;
    const to = from + (2 * Math.PI * members) / cell.count;
    g.beginPath();
    g.arc(x, y, s.half - 2.5, from, to);
    g.strokeStyle = STATUS_COLORS[STATUSES[status]] ?? STATUS_COLORS.offline;
    g.stroke();
    from = to;
  });
}
