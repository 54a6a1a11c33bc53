/**
 * A track on the map: one LineString built from flat coordinates (OpenLayers simplifies it
 * per zoom level, so 268,000 points draw as a few thousand segments), start/end and stop
 * markers, the moving vehicle and the hovered point. Browser-only.
 */
import Feature from "ol/Feature.js";
import LineString from "ol/geom/LineString.js";
import Point from "ol/geom/Point.js";
import VectorSource from "ol/source/Vector.js";
import VectorLayer from "ol/layer/Vector.js";
import Style from "ol/style/Style.js";
import Stroke from "ol/style/Stroke.js";
import Fill from "ol/style/Fill.js";
import CircleStyle from "ol/style/Circle.js";
import Icon from "ol/style/Icon.js";
import Text from "ol/style/Text.js";
import type { Geometry } from "ol/geom.js";
import { compassBucket } from "../../modules/monitor/geo.ts";
import type { Stop } from "../../modules/monitor/track.ts";
import type { BaseMap } from "./basemap.ts";
import { vehicleSprite } from "./icons.ts";

const label = (text: string, color: string, radius = 10) =>
  new Style({
    image: new CircleStyle({
      radius,
      fill: new Fill({ color }),
      stroke: new Stroke({ color: "#fff", width: 2 }),
    }),
    text: new Text({
      text,
      font: "700 11px system-ui, sans-serif",
      fill: new Fill({ color: "#fff" }),
    }),
  });

const LINE = [
  new Style({ stroke: new Stroke({ color: "rgba(255,255,255,0.9)", width: 7 }) }),
  new Style({ stroke: new Stroke({ color: "#8fb1ff", width: 3.5 }) }),
];
const DONE = new Style({ stroke: new Stroke({ color: "#2f62cc", width: 3.5 }) });
const START = label("S", "#1f9d55");
const END = label("E", "#e5484d");
const STOP = label("P", "#7c6bd6", 9);
const HOVER = new Style({
  image: new CircleStyle({
    radius: 6,
    fill: new Fill({ color: "#fff" }),
    stroke: new Stroke({ color: "#1f2733", width: 2.5 }),
  }),
});

const VEHICLE_STYLES = new Map<string, Style>();
/** The device's map icon (application type, status colour, heading bucket), enlarged. */
export function vehicleStyleFor(type: number, status: number, course: number): Style {
  const bucket = compassBucket(course), ratio = globalThis.devicePixelRatio || 1;
  const key = `${type}:${status}:${bucket}`;
  let s = VEHICLE_STYLES.get(key);
  if (!s) {
    const sprite = vehicleSprite(type, status, bucket, true, false, ratio);
    s = new Style({
      image: new Icon({ img: sprite.canvas, width: sprite.half * 2, height: sprite.half * 2 }),
      zIndex: 100, // above the stop and end markers it passes
    });
    VEHICLE_STYLES.set(key, s);
  }
  return s;
}

export class TrackLayers {
  private source = new VectorSource<Feature<Geometry>>();
  private line = new Feature<LineString>();
  private done = new Feature<LineString>();
  private vehicle = new Feature<Point>();
  private hover = new Feature<Point>();
  /** Projected coordinates, for nearest-point lookups. */
  xs = new Float64Array(0);
  ys = new Float64Array(0);

  constructor(private readonly base: BaseMap) {
    this.line.setStyle(LINE);
    this.done.setStyle(DONE);
    this.hover.setStyle(HOVER);
    base.map.addLayer(
      new VectorLayer({ source: this.source, updateWhileAnimating: true, zIndex: 10 }),
    );
  }

  /** Draws a track: lat/lng arrays in WGS-84, stops marked with P. */
  setTrack(
    lat: ArrayLike<number>,
    lng: ArrayLike<number>,
    stops: Stop[],
    opts: { endpoints?: boolean } = {},
  ): void {
    const n = lat.length;
    this.xs = new Float64Array(n);
    this.ys = new Float64Array(n);
    this.base.projectInto(lng, lat, this.xs, this.ys);
    const flat = new Array<number>(n * 2);
    for (let i = 0; i < n; i++) {
      flat[2 * i] = this.xs[i];
      flat[2 * i + 1] = this.ys[i];
    }
    this.source.clear(true);
    if (!n) return;
    this.line.setGeometry(new LineString(flat, "XY"));
    this.done.setGeometry(new LineString([flat[0], flat[1], flat[0], flat[1]], "XY"));
    const start = new Feature(new Point([flat[0], flat[1]]));
    start.setStyle(START);
    const end = new Feature(new Point([flat[2 * n - 2], flat[2 * n - 1]]));
    end.setStyle(END);
    const stopFeatures = stops.map((s) => {
      const f = new Feature(new Point([this.xs[s.from], this.ys[s.from]]));
      f.setStyle(STOP);
      f.set("stop", s);
      return f;
    });
    this.vehicle.setGeometry(new Point([flat[0], flat[1]]));
    // A live trail has no end: the vehicle marks where it is.
    const ends = opts.endpoints === false ? [] : [start, end];
    this.source.addFeatures([this.line, this.done, ...stopFeatures, ...ends, this.vehicle]);
  }

  extent() {
    return this.line.getGeometry()?.getExtent() ?? null;
  }

  /** The application type (index in APPLICATION_TYPES) of the vehicle icon. */
  iconType = 0;

  /**
   * Moves the vehicle to point i (+ a fraction towards i+1), drawn with its status (index in
   * STATUSES), and marks the travelled part.
   */
  moveTo(i: number, frac: number, course: number, status: number): number[] {
    const n = this.xs.length;
    if (!n) return [0, 0];
    const j = Math.min(n - 1, i + 1);
    const x = this.xs[i] + (this.xs[j] - this.xs[i]) * frac;
    const y = this.ys[i] + (this.ys[j] - this.ys[i]) * frac;
    this.vehicle.getGeometry()!.setCoordinates([x, y]);
    this.vehicle.setStyle(vehicleStyleFor(this.iconType, status, course));
    // The travelled part: at most 20,000 points redrawn per frame, enough at any zoom.
    const stride = Math.max(1, Math.ceil(i / 20_000));
    const flat: number[] = [];
    for (let k = 0; k <= i; k += stride) flat.push(this.xs[k], this.ys[k]);
    flat.push(x, y);
    this.done.setGeometry(new LineString(flat.length >= 4 ? flat : [x, y, x, y], "XY"));
    return [x, y];
  }

  showHover(i: number): void {
    if (i < 0 || i >= this.xs.length) {
      if (this.source.hasFeature(this.hover)) this.source.removeFeature(this.hover);
      return;
    }
    this.hover.setGeometry(new Point([this.xs[i], this.ys[i]]));
    if (!this.source.hasFeature(this.hover)) this.source.addFeature(this.hover);
  }

  /** The track point nearest a pixel, if within `tolerancePx`. */
  nearest(pixel: number[], tolerancePx = 12): number {
    const c = this.base.map.getCoordinateFromPixel(pixel);
    if (!c) return -1;
    const res = this.base.map.getView().getResolution() ?? 1;
    let best = -1, bestD = (tolerancePx * res) ** 2;
    for (let i = 0; i < this.xs.length; i++) {
      const dx = this.xs[i] - c[0], dy = this.ys[i] - c[1];
      const d = dx * dx + dy * dy;
      if (d < bestD) {
        bestD = d;
        best = i;
      }
    }
    return best;
  }

  clear(): void {
    this.source.clear(true);
    this.xs = new Float64Array(0);
    this.ys = new Float64Array(0);
  }
}
