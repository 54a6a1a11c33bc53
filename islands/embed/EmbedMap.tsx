import { useEffect, useMemo, useRef, useState } from "react";
import Feature from "ol/Feature.js";
import Point from "ol/geom/Point.js";
import VectorSource from "ol/source/Vector.js";
import VectorLayer from "ol/layer/Vector.js";
import { boundingExtent } from "ol/extent.js";
import { island } from "../../lib/islands/island.tsx";
import { api, ApiError } from "../../lib/client/api.ts";
import { type Lang, translator } from "../../lib/i18n/i18n.ts";
import type { ObjectsPayload } from "../../modules/monitor/objects.ts";
import { EMBED_REFRESH_MS } from "../../modules/embed/model.ts";
import { type BaseMap, createBaseMap, type MapSettings } from "../../components/monitor/basemap.ts";
import { vehicleStyleFor } from "../../components/monitor/tracklayers.ts";
import { formatter } from "../../components/monitor/format.ts";

interface Picked {
  name: string;
  status: string;
  speed: number;
  gpsTime: number | null;
}

/**
 * /iframe?key=…: an account's devices on a map for another site's iframe. Read-only, no
 * console chrome; positions are asked for again every EMBED_REFRESH_MS.
 */
function EmbedMap({ lang, settings, embedKey }: {
  lang: Lang;
  settings: MapSettings;
  embedKey: string;
}) {
  const t = translator(lang);
  const fmt = useMemo(() => formatter(settings, t), [lang]);
  const mapEl = useRef<HTMLDivElement>(null);
  const base = useRef<BaseMap | null>(null);
  const source = useRef(new VectorSource());
  const fitted = useRef(false);
  const [counts, setCounts] = useState<ObjectsPayload["counts"] | null>(null);
  const [updated, setUpdated] = useState<number | null>(null);
  const [error, setError] = useState("");
  const [picked, setPicked] = useState<Picked | null>(null);

  const draw = (o: ObjectsPayload) => {
    const b = base.current!;
    const features: Feature[] = [];
    for (let i = 0; i < o.imei.length; i++) {
      const lat = o.lat[i], lng = o.lng[i];
      if (lat === null || lng === null) continue;
      const f = new Feature(new Point(b.project(lng, lat)));
      f.setStyle(vehicleStyleFor(o.appType[i], o.status[i], o.course[i]));
      f.set(
        "picked",
        {
          name: o.name[i] || o.imei[i],
          status: o.statuses[o.status[i]],
          speed: o.speed[i],
          gpsTime: o.gpsTime[i],
        } satisfies Picked,
      );
      features.push(f);
    }
    source.current.clear();
    source.current.addFeatures(features);
    if (!fitted.current && features.length) {
      fitted.current = true;
      const extent = boundingExtent(
        features.map((f) => (f.getGeometry() as Point).getCoordinates()),
      );
      b.map.getView().fit(extent, { padding: [60, 60, 60, 60], maxZoom: 15 });
    }
  };

  useEffect(() => {
    const b = createBaseMap(mapEl.current!, settings, { zoom: 4 });
    base.current = b;
    b.map.addLayer(new VectorLayer({ source: source.current, zIndex: 10 }));
    b.map.on("singleclick", (e) => {
      const hit = b.map.forEachFeatureAtPixel(e.pixel, (f) => f);
      setPicked(hit ? hit.get("picked") as Picked : null);
    });
    let stopped = false;
    const load = async () => {
      try {
        const o = await api<ObjectsPayload>(
          `/v3/new/embed/objects?key=${encodeURIComponent(embedKey)}`,
        );
        if (stopped) return;
        draw(o);
        setCounts(o.counts);
        setUpdated(Date.now());
        setError("");
      } catch (e) {
        setError(e instanceof ApiError ? e.message : t("ui.requestFailed"));
      }
    };
    load();
    const timer = setInterval(load, EMBED_REFRESH_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
      b.map.setTarget(undefined);
    };
  }, []);

  return (
    <div class="embed-map">
      <div ref={mapEl} class="mon-map" data-testid="map" />
      <div class="embed-bar" id="embed-bar">
        {counts && (
          <span>
            {t("demo.embed.devices", { count: counts.all })} ·{" "}
            <b class="embed-moving">{t("demo.embed.moving", { count: counts.moving })}</b>
          </span>
        )}
        {updated && (
          <span class="muted">{t("demo.embed.updated", { time: fmt.time(updated) })}</span>
        )}
      </div>
      {picked && (
        <div class="embed-card" id="embed-card">
          <b>{picked.name}</b>
          <span>{t(`monitor.status.${picked.status}`)} · {fmt.speed(picked.speed)}</span>
          <span class="muted">{fmt.time(picked.gpsTime)}</span>
        </div>
      )}
      {error && <div class="embed-error" role="alert">{error}</div>}
    </div>
  );
}

export default island("embed/EmbedMap", EmbedMap);
