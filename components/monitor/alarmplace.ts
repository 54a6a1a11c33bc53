/**
 * "Show on map" from an alert: a red marker where the alarm happened (the alert's stored
 * position), above the vehicles, so the map shows both the alarm place and where the vehicle
 * is now. Projected through the base map like the vehicles (GCJ-02 / BD-09). Browser-only.
 */
import Feature from "ol/Feature.js";
import Point from "ol/geom/Point.js";
import VectorLayer from "ol/layer/Vector.js";
import VectorSource from "ol/source/Vector.js";
import { Circle, Fill, Stroke, Style, Text } from "ol/style.js";
import type { BaseMap } from "./basemap.ts";
import type { AlarmPlace } from "../../modules/monitor/alarm_link.ts";

const ALARM_RED = "#e03131";

export class AlarmPlaceLayer {
  private readonly source = new VectorSource();
  readonly layer: VectorLayer<VectorSource>;

  constructor(private readonly base: BaseMap, private readonly alarm: AlarmPlace) {
    this.layer = new VectorLayer({
      source: this.source,
      properties: { name: "alarmPlace" },
      zIndex: 50,
      style: new Style({
        image: new Circle({
          radius: 9,
          fill: new Fill({ color: ALARM_RED }),
          stroke: new Stroke({ color: "#fff", width: 3 }),
        }),
        text: new Text({
          text: "!",
          font: "bold 12px system-ui, sans-serif",
          fill: new Fill({ color: "#fff" }),
        }),
      }),
    });
    base.map.addLayer(this.layer);
    base.onDatumChange(() => this.draw());
    this.draw();
  }

  /** The marker's view coordinate (in the current provider's datum). */
  coordinate() {
    return this.base.project(this.alarm.lng, this.alarm.lat);
  }

  private draw(): void {
    this.source.clear();
    this.source.addFeature(new Feature({ geometry: new Point(this.coordinate()) }));
  }

  remove(): void {
    this.base.map.removeLayer(this.layer);
  }
}
