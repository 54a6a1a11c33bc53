/**
 * A followed device's common addresses (commonAddressList) on a monitor map: circles in
 * their colour with their names, under the vehicles, re-projected when the provider's datum
 * changes. A failure leaves the map without them. Browser-only.
 */
import Feature from "ol/Feature.js";
import CircleGeom from "ol/geom/Circle.js";
import VectorLayer from "ol/layer/Vector.js";
import VectorSource from "ol/source/Vector.js";
import { Fill, Stroke, Style, Text } from "ol/style.js";
import { api } from "../../lib/client/api.ts";
import type { CommonAddress } from "../../modules/commonaddress/model.ts";
import type { BaseMap } from "./basemap.ts";

/** Above the graticule and the tiles, with the landmarks, below the vehicles. */
const LAYER_INDEX = 2;
const mercatorScale = (lat: number) => 1 / Math.cos((lat * Math.PI) / 180);

function styleOf(a: CommonAddress): Style {
  return new Style({
    fill: new Fill({ color: `${a.color}26` }),
    stroke: new Stroke({ color: a.color, width: 2, lineDash: [6, 4] }),
    text: new Text({
      text: a.addressName,
      font: "600 12px system-ui, sans-serif",
      // Above the centre, where the followed vehicle usually is.
      offsetY: -18,
      fill: new Fill({ color: "#1f2733" }),
      stroke: new Stroke({ color: "#fff", width: 3 }),
    }),
  });
}

export async function showCommonAddresses(base: BaseMap, imei: string): Promise<void> {
  let list: CommonAddress[];
  try {
    list = (await api<{ commonAddressList: CommonAddress[] }>(
      "/v3/new/device/commonAddress/list",
      { imei },
    )).commonAddressList;
  } catch {
    return;
  }
  if (!list.length) return;
  const source = new VectorSource();
  const draw = () => {
    source.clear();
    source.addFeatures(list.map((a) => {
      const geometry = new CircleGeom(
        base.project(a.longitude, a.latitude),
        a.radius * mercatorScale(a.latitude),
      );
      const f = new Feature({ geometry, commonAddress: a.addressName });
      f.setStyle(styleOf(a));
      return f;
    }));
  };
  draw();
  base.map.getLayers().insertAt(
    LAYER_INDEX,
    new VectorLayer({ source, properties: { name: "commonAddresses" } }),
  );
  base.onDatumChange(draw);
}
