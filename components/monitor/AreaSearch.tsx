/**
 * Area car-finding on /monitorObject (business spec: range under 50 km): a toolbar button
 * arms it, a click on the map sets the centre, the radius is chosen in km, and the visible
 * devices within it are listed nearest first (a click selects one on the map). The circle is
 * drawn in its own layer, removed when the search is closed.
 */
import { useEffect, useRef, useState } from "react";
import Feature from "ol/Feature.js";
import CircleGeom from "ol/geom/Circle.js";
import Point from "ol/geom/Point.js";
import VectorLayer from "ol/layer/Vector.js";
import VectorSource from "ol/source/Vector.js";
import { Circle as CircleStyle, Fill, Stroke, Style } from "ol/style.js";
import { unByKey } from "ol/Observable.js";
import { api, ApiError } from "../../lib/client/api.ts";
import { AREA_DEFAULT_KM, AREA_MAX_KM, type AreaHit } from "../../modules/areasearch/model.ts";
import type { ObjectsState } from "./objects_state.ts";
import { StatusPill } from "./DeviceCard.tsx";
import type { DeviceStatus } from "../../modules/devices/model.ts";

const mercatorScale = (lat: number) => 1 / Math.cos((lat * Math.PI) / 180);
const AREA_STYLE = new Style({
  fill: new Fill({ color: "rgba(59,122,255,0.10)" }),
  stroke: new Stroke({ color: "#3b7aff", width: 2 }),
  image: new CircleStyle({ radius: 5, fill: new Fill({ color: "#3b7aff" }) }),
});

export function AreaSearch({ s }: { s: ObjectsState }) {
  const { t, fmt } = s;
  const [active, setActive] = useState(false);
  const [center, setCenter] = useState<{ lat: number; lng: number } | null>(null);
  const [radius, setRadius] = useState(String(AREA_DEFAULT_KM));
  const [result, setResult] = useState<{ total: number; list: AreaHit[] } | null>(null);
  const [error, setError] = useState("");
  const source = useRef(new VectorSource());

  // Armed: the map's clicks set the centre; the layer lives as long as the search is open.
  useEffect(() => {
    const b = s.base.current;
    if (!b || !active) return;
    const layer = new VectorLayer({
      source: source.current,
      style: AREA_STYLE,
      properties: { name: "areaSearch" },
    });
    b.map.addLayer(layer);
    const key = b.map.on("singleclick", (e) => {
      const [lng, lat] = b.unproject(e.coordinate);
      setCenter({ lat, lng });
    });
    const el = b.map.getTargetElement();
    el?.classList.add("area-armed");
    return () => {
      unByKey(key);
      el?.classList.remove("area-armed");
      b.map.removeLayer(layer);
      source.current.clear();
    };
  }, [active]);

  const km = Number(radius);
  useEffect(() => {
    const b = s.base.current;
    if (!b || !center || !active) return;
    source.current.clear();
    const at = b.project(center.lng, center.lat);
    source.current.addFeatures([
      new Feature(new CircleGeom(at, km * 1000 * mercatorScale(center.lat))),
      new Feature(new Point(at)),
    ]);
    const timer = setTimeout(() => {
      api<{ total: number; list: AreaHit[] }>("/v3/new/monitor/areaSearch", {
        ...center,
        radiusKm: km,
      }).then((r) => {
        setResult(r);
        setError("");
      }, (e) => {
        setResult(null);
        setError(e instanceof ApiError ? e.message : t("ui.requestFailed"));
      });
    }, 250);
    return () => clearTimeout(timer);
  }, [center?.lat, center?.lng, radius, active]);

  const close = () => {
    setActive(false);
    setCenter(null);
    setResult(null);
    setError("");
  };
  return (
    <>
      <button
        type="button"
        class={`btn${active ? " active" : ""}`}
        id="area-search"
        aria-pressed={active}
        onClick={() => (active ? close() : setActive(true))}
      >
        {t("demo.area.button")}
      </button>
      {active && (
        <div class="area-panel" id="area-panel">
          <div class="area-head">
            <strong>{t("demo.area.title")}</strong>
            <button type="button" class="icon-btn" aria-label={t("ui.close")} onClick={close}>
              ×
            </button>
          </div>
          <label class="area-radius">
            {t("demo.area.radius")}
            <input
              class="input"
              id="area-radius"
              type="number"
              min={0.1}
              max={AREA_MAX_KM - 0.1}
              step={0.5}
              value={radius}
              onInput={(e) => setRadius((e.target as HTMLInputElement).value)}
            />
            km
          </label>
          {!center && <p class="muted">{t("demo.area.hint", { max: AREA_MAX_KM })}</p>}
          {error && <p class="form-error" role="alert">{error}</p>}
          {center && result && (
            <>
              <p class="muted" id="area-count">
                {t("demo.area.found", { count: result.total, km })}
              </p>
              <ul class="area-list">
                {result.list.map((h) => (
                  <li key={h.imei}>
                    <button
                      type="button"
                      data-area-imei={h.imei}
                      onClick={() => (s.selected.value = h.imei)}
                    >
                      <span class="area-name">{h.name || h.imei}</span>
                      <StatusPill
                        status={h.status as DeviceStatus}
                        label={t(`monitor.status.${h.status}`)}
                      />
                      <span class="area-distance">{fmt.distance(h.distanceKm)}</span>
                    </button>
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      )}
    </>
  );
}
