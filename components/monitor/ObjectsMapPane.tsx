/** The /monitorObject map: toolbar, legend, alarm-place banner and the selected vehicle's card. */
import { useEffect, useRef } from "react";
import { api } from "../../lib/client/api.ts";
import type { ObjectsPayload } from "../../modules/monitor/objects.ts";
import { DeviceCard, type DeviceCardData, StatusPill } from "./DeviceCard.tsx";
import { MapToolbar, useMapProvider } from "./MapToolbar.tsx";
import type { ObjectsState } from "./objects_state.ts";
import { fitAll, placePopup, useObjectsMap } from "./objects_map.ts";
import { countsOf } from "./ObjectList.tsx";
import { AreaSearch } from "./AreaSearch.tsx";

export function ObjectsMapPane({ s }: { s: ObjectsState }) {
  const { t } = s;
  const mapEl = useRef<HTMLDivElement>(null);
  const provider = useMapProvider(s.props.settings, s.base);
  useObjectsMap(s, mapEl);
  const counts = countsOf(s);
  return (
    <section class="mon-map-wrap">
      <div ref={mapEl} class="mon-map" data-testid="map" data-version={s.version.value} />
      <MapToolbar {...provider} t={t}>
        <button type="button" class="btn" onClick={() => fitAll(s)}>
          {t("monitor.map.fitAll")}
        </button>
        <AreaSearch s={s} />
      </MapToolbar>
      <div class="mon-legend">
        {(["moving", "idling", "stopped", "offline"] as const).map((k) => (
          <StatusPill key={k} status={k} label={`${t(`monitor.status.${k}`)} ${counts[k]}`} />
        ))}
      </div>
      {s.tilesFailing.value && <div class="mon-tiles-note">{t("monitor.map.tilesOffline")}</div>}
      <AlarmBanner s={s} />
      <ObjectPopup s={s} />
    </section>
  );
}

/** "Show on map" from an alert: where the alarm happened, until closed. */
function AlarmBanner({ s }: { s: ObjectsState }) {
  const { t, fmt } = s, alarm = s.props.alarm;
  if (!alarm || !s.alarmShown.value) return null;
  return (
    <div class="mon-alarm-place" role="status" data-alarm-place>
      <i aria-hidden="true">!</i>
      <div>
        <strong>{t("monitor.alarmPlace.title")}</strong>
        <div>
          {t("monitor.alarmPlace.at", {
            type: t(`alerts.type.${alarm.type}`, { defaultValue: alarm.type }),
            time: fmt.time(alarm.time || null),
          })}
        </div>
        <div class="mon-alarm-address" data-alarm-address>
          {alarm.address || fmt.coords(alarm.lat, alarm.lng)}
        </div>
      </div>
      <button
        type="button"
        class="icon-btn"
        aria-label={t("monitor.alarmPlace.close")}
        title={t("monitor.alarmPlace.close")}
        onClick={() => {
          s.alarmLayer.current?.remove();
          s.alarmLayer.current = null;
          s.alarmShown.value = false;
        }}
      >
        ×
      </button>
    </div>
  );
}

/** The selected vehicle's card, placed over it on the map (see placePopup). */
function ObjectPopup({ s }: { s: ObjectsState }) {
  const { t } = s, selected = s.selected.value, version = s.version.value;
  const f = s.fleet.current;
  const sel = f && selected ? f.indexOf(selected) : -1;
  useEffect(() => {
    s.layers.current?.select(selected);
    placePopup(s);
  }, [selected, version]);
  useSelectedFacts(s, selected);
  return (
    <div ref={s.popupEl} class="mon-popup" style={{ display: "none" }}>
      {sel >= 0 && (
        <DeviceCard d={cardOf(s, sel)} fmt={s.fmt} t={t} onClose={() => (s.selected.value = "")}>
          <a class="btn" href={`/monitorTracking?imei=${selected}`}>
            {t("monitor.actions.track")}
          </a>
          <a class="btn" href={`/monitorPlayback?imei=${selected}`}>
            {t("monitor.actions.playback")}
          </a>
          {s.props.canCommand && (
            <button type="button" class="btn" onClick={() => (s.commanding.value = selected)}>
              {t("monitor.actions.command")}
            </button>
          )}
          <button type="button" class="btn" onClick={() => (s.sharing.value = selected)}>
            {t("monitor.actions.share")}
          </button>
        </DeviceCard>
      )}
    </div>
  );
}

function cardOf(s: ObjectsState, i: number): DeviceCardData {
  const f = s.fleet.current!, d = f.data, imei = d.imei[i], facts = s.facts.value;
  return {
    imei,
    name: d.name[i],
    status: f.status(i),
    speed: d.speed[i],
    course: d.course[i],
    gpsTime: d.gpsTime[i],
    hbTime: d.hbTime[i],
    lat: d.lat[i],
    lng: d.lng[i],
    acc: d.acc[i],
    facts: facts?.imei === imei ? facts.facts : null,
    address: s.book.get(imei, d.lat[i], d.lng[i]),
  };
}

/** The selected device's readings (battery, signal, odometer, since when), again every 30 s. */
function useSelectedFacts(s: ObjectsState, selected: string) {
  useEffect(() => {
    if (!selected) return;
    let live = true;
    const ask = () =>
      api<ObjectsPayload>(`/v3/new/monitor/objects?imei=${selected}`).then((one) => {
        if (live && one.facts) s.facts.value = { imei: selected, facts: one.facts };
      }).catch(() => {});
    ask();
    const timer = setInterval(ask, 30_000);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [selected]);
}
