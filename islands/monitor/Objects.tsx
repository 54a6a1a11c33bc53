import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { island } from "../../lib/islands/island.tsx";
import { api } from "../../lib/client/api.ts";
import { type Lang, translator } from "../../lib/i18n/i18n.ts";
import { toast, Toasts } from "../../components/ui/Toast.tsx";
import type { CountKey, ObjectsPayload } from "../../modules/monitor/objects.ts";
import { type BaseMap, createBaseMap, type MapSettings } from "../../components/monitor/basemap.ts";
import { VehicleLayers } from "../../components/monitor/vehicles.ts";
import { addLandmarks } from "../../components/monitor/landmarks.ts";
import { Fleet, type SortRule, type SortType } from "../../components/monitor/fleet.ts";
import { type LivePosition, openLive } from "../../components/monitor/live.ts";
import { formatter } from "../../components/monitor/format.ts";
import { DeviceCard, StatusPill } from "../../components/monitor/DeviceCard.tsx";
import { ShareDialog } from "../../components/monitor/ShareDialog.tsx";
import { SendCommandDialog } from "../../components/commands/SendCommandDialog.tsx";
import { VirtualList } from "../../components/monitor/VirtualList.tsx";
import { MonitorTabs } from "../../components/monitor/MonitorTabs.tsx";
import { type Pane, PaneSwitch } from "../../components/monitor/PaneSwitch.tsx";
import { MapToolbar, useMapProvider } from "../../components/monitor/MapToolbar.tsx";
import { STATUS_COLORS } from "../../components/monitor/status.ts";
import { glyphOf } from "../../components/monitor/icons.ts";
import { AddressBook } from "../../components/monitor/addresses.ts";
import { AlarmPlaceLayer } from "../../components/monitor/alarmplace.ts";
import type { AlarmPlace } from "../../modules/monitor/alarm_link.ts";
import type { DeviceFacts } from "../../modules/monitor/objects.ts";

/** "Not activated" (never heard from) has its own tab so stock does not inflate "Offline". */
const TABS: CountKey[] = ["all", "moving", "idling", "stopped", "offline", "notActivated"];
/** Spec §9: map refresh options include 5 seconds. 0 = live stream only. */
const REFRESH_OPTIONS = [5, 10, 30, 60, 0];
const ROW_HEIGHT = 58;

function pref<T>(key: string, fallback: T): T {
  try {
    const v = localStorage.getItem(`tp.monitor.${key}`);
    return v === null ? fallback : JSON.parse(v) as T;
  } catch {
    return fallback;
  }
}
function savePref(key: string, value: unknown) {
  try {
    localStorage.setItem(`tp.monitor.${key}`, JSON.stringify(value));
  } catch { /* private mode */ }
}

/** /monitorObject: the live map beside the object list. */
function Objects(
  { lang, settings, focus, canCommand, alarm }: {
    lang: Lang;
    settings: MapSettings;
    focus: string;
    /** The user may send instructions (spec: instructionsFlag). */
    canCommand: boolean;
    /** "Show on map" from an alert: where the alarm happened (marked beside the vehicle). */
    alarm?: AlarmPlace | null;
  },
) {
  const t = translator(lang);
  const fmt = useMemo(() => formatter(settings, t), [lang]);
  const mapEl = useRef<HTMLDivElement>(null);
  const popupEl = useRef<HTMLDivElement>(null);
  const fleet = useRef<Fleet | null>(null);
  const layers = useRef<VehicleLayers | null>(null);
  const base = useRef<BaseMap | null>(null);
  const [version, setVersion] = useState(0);
  const [loading, setLoading] = useState(true);
  const [loadError, setLoadError] = useState("");
  const [live, setLive] = useState(false);
  const [tilesFailing, setTilesFailing] = useState(false);
  const [tab, setTab] = useState<CountKey>("all");
  const [search, setSearch] = useState("");
  const [sortType, setSortType] = useState<SortType>("name");
  const [sortRule, setSortRule] = useState<SortRule>("asc");
  const [refresh, setRefresh] = useState(30);
  /** undefined = every group; "" = the default group. */
  const [group, setGroup] = useState<string | undefined>(undefined);
  const [selected, setSelected] = useState(focus);
  const [sharing, setSharing] = useState<string | null>(null);
  const [commanding, setCommanding] = useState<string | null>(null);
  /** On a phone: the map (with the selected vehicle's card) or the list. */
  const [pane, setPane] = useState<Pane>("map");
  const provider = useMapProvider(settings, base);
  /** The selected device's readings and address (asked when it is selected). */
  const [facts, setFacts] = useState<{ imei: string; facts: DeviceFacts } | null>(null);
  const [alarmShown, setAlarmShown] = useState(!!alarm);
  const alarmLayer = useRef<AlarmPlaceLayer | null>(null);
  // Addresses of the rows on screen and of the selected vehicle, asked in batches.
  const book = useMemo(() => new AddressBook(() => setVersion((v) => v + 1)), []);
  useEffect(() => () => book.dispose(), []);

  // Preferences live in this browser (sort settings, refresh interval, map provider).
  useEffect(() => {
    setSortType(pref("sortType", "name"));
    setSortRule(pref("sortRule", "asc"));
    setRefresh(pref("refresh", 30));
  }, []);

  const rowsOf = (idx: number[]) => {
    const f = fleet.current!, d = f.data;
    return idx.map((i) => ({
      imei: d.imei[i],
      lat: d.lat[i],
      lng: d.lng[i],
      course: d.course[i],
      status: f.status(i),
      type: d.appType[i],
    }));
  };

  const load = async (first: boolean) => {
    try {
      if (first) performance.mark("tp:objects:request");
      const data = await api<ObjectsPayload>("/v3/new/monitor/objects");
      if (first) performance.measure("tp:objects:data", "tp:objects:request");
      if (!fleet.current) fleet.current = new Fleet(data);
      else fleet.current.replace(data);
      const all = data.imei.map((_, i) => i);
      layers.current?.retain(new Set(data.imei));
      layers.current?.upsert(rowsOf(all));
      setLoadError("");
      if (first) {
        fitAll(focus);
        // For bench:monitor: from the answer to the first frame with every vehicle.
        performance.mark("tp:objects:added");
        base.current?.map.once("postrender", () => {
          performance.measure("tp:objects:drawn", "tp:objects:request");
        });
        base.current?.map.render();
      }
      setVersion((v) => v + 1);
    } catch (e) {
      setLoadError((e as Error).message || t("monitor.loadFailed"));
    } finally {
      setLoading(false);
    }
  };

  const fitAll = (imei?: string) => {
    const b = base.current, l = layers.current;
    if (!b || !l) return;
    const alarmAt = alarmLayer.current?.coordinate();
    if (imei && alarmAt) {
      // The alarm place and the vehicle now, both in view.
      const now = l.coordinateOf(imei) ?? alarmAt;
      b.map.updateSize();
      b.map.getView().fit(
        [
          Math.min(now[0], alarmAt[0]),
          Math.min(now[1], alarmAt[1]),
          Math.max(now[0], alarmAt[0]),
          Math.max(now[1], alarmAt[1]),
        ],
        { padding: alarmPadding(b.map.getSize()?.[0] ?? 1440), maxZoom: 16 },
      );
      return;
    }
    if (imei && l.coordinateOf(imei)) {
      b.map.getView().animate({ center: l.coordinateOf(imei)!, zoom: 15, duration: 0 });
      return;
    }
    const ext = l.extent();
    b.map.updateSize();
    if (ext) b.map.getView().fit(ext, { padding: [60, 60, 60, 60], maxZoom: 15 });
  };

  // The map, built once in the browser.
  useEffect(() => {
    const b = createBaseMap(mapEl.current!, settings, { onTilesFailing: setTilesFailing });
    base.current = b;
    layers.current = new VehicleLayers(b);
    addLandmarks(b, t);
    if (alarm) alarmLayer.current = new AlarmPlaceLayer(b, alarm);
    // For e2e tests and the benchmark: the live objects behind the page.
    (globalThis as Record<string, unknown>).__tpMonitor = {
      base: b,
      layers: layers.current,
      fleet,
    };
    b.map.on("singleclick", (e) => {
      const hit = layers.current!.hit(e.pixel);
      if (hit?.imei) setSelected(hit.imei);
      else if (hit?.cluster) {
        b.map.getView().animate({
          center: hit.cluster,
          zoom: (b.map.getView().getZoom() ?? 4) + 2,
          duration: 250,
        });
      } else setSelected("");
    });
    b.map.on("pointermove", (e) => {
      (b.map.getTargetElement() as HTMLElement).style.cursor = layers.current!.hit(e.pixel)
        ? "pointer"
        : "";
    });
    // The popup follows its vehicle as the map and the vehicle move.
    b.map.on("postrender", () => placePopup());
    load(true);
    return () => b.map.setTarget(undefined);
  }, []);

  const selectedRef = useRef(selected);
  selectedRef.current = selected;
  const placePopup = () => {
    const el = popupEl.current, b = base.current, l = layers.current;
    if (!el || !b || !l) return;
    const at = selectedRef.current && l.coordinateOf(selectedRef.current);
    if (!at) {
      el.style.display = "none";
      return;
    }
    // No pixel while the map has no size (a phone showing the list pane).
    const px = b.map.getPixelFromCoordinate(at);
    if (!px) return;
    const [x, y] = px;
    el.style.display = "";
    el.style.transform = `translate(${Math.round(x)}px, ${Math.round(y)}px)`;
  };
  useEffect(() => {
    layers.current?.select(selected);
    placePopup();
  }, [selected, version]);
  // A phone's map pane was hidden (no size) while the list showed: it measures itself again.
  useEffect(() => {
    base.current?.map.updateSize();
    placePopup();
  }, [pane]);

  // Live stream: positions within the flush interval (250 ms) of the stored message.
  useEffect(() => {
    let pending = false;
    // Batches are applied to the map at most every 500 ms: the vehicle layer redraws once per
    // application (on the next animation frame), and 10,000 vehicles at 1 Hz arrive in 4
    // batches a second.
    let queued: LivePosition[] = [];
    let queuedStatus: [string, number][] = [];
    let flushTimer: ReturnType<typeof setTimeout> | 0 = 0;
    const flush = () => {
      flushTimer = 0;
      const f = fleet.current;
      if (!f) return;
      const changed = [...f.applyPositions(queued), ...f.applyStatuses(queuedStatus)];
      queued = [];
      queuedStatus = [];
      if (changed.length) layers.current?.upsert(rowsOf(changed));
    };
    /** Schedules the map batch and, at most once a second, the list's re-sort. */
    const schedule = () => {
      if (!flushTimer) flushTimer = setTimeout(flush, 500);
      if (pending) return;
      pending = true;
      setTimeout(() => {
        pending = false;
        setVersion((v) => v + 1);
      }, 1000);
    };
    const stop = openLive("/v3/new/monitor/stream", {
      connection: setLive,
      positions: (rows) => {
        if (!fleet.current) return;
        queued.push(...rows);
        schedule();
      },
      statuses: (rows) => {
        if (!fleet.current) return;
        queuedStatus.push(...rows);
        schedule();
      },
    });
    return () => {
      stop();
      if (flushTimer) clearTimeout(flushTimer);
    };
  }, []);

  // Periodic full reload catches devices that went offline without a message.
  useEffect(() => {
    if (!refresh) return;
    const timer = setInterval(() => load(false), refresh * 1000);
    return () => clearInterval(timer);
  }, [refresh]);

  const f = fleet.current;
  const counts = f
    ? f.counts()
    : { all: 0, moving: 0, idling: 0, stopped: 0, offline: 0, notActivated: 0 };
  const view = useMemo(
    () => f ? f.view({ tab, search, sortType, sortRule, group }) : [],
    [f, version, tab, search, sortType, sortRule, group],
  );
  const sel = f && selected ? f.indexOf(selected) : -1;
  const card = (i: number) => {
    const d = f!.data, imei = d.imei[i];
    return {
      imei,
      name: d.name[i],
      status: f!.status(i),
      speed: d.speed[i],
      course: d.course[i],
      gpsTime: d.gpsTime[i],
      hbTime: d.hbTime[i],
      lat: d.lat[i],
      lng: d.lng[i],
      acc: d.acc[i],
      facts: facts?.imei === imei ? facts.facts : null,
      address: book.get(imei, d.lat[i], d.lng[i]),
    };
  };
  // The selected device's readings (battery, signal, odometer, since when), again every 30 s.
  useEffect(() => {
    if (!selected) return;
    let live = true;
    const ask = () =>
      api<ObjectsPayload>(`/v3/new/monitor/objects?imei=${selected}`).then((one) => {
        if (live && one.facts) setFacts({ imei: selected, facts: one.facts });
      }).catch(() => {});
    ask();
    const timer = setInterval(ask, 30_000);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [selected]);
  // Follow marks are the devices area's (per logged-in user); followed devices list first.
  const toggleFollow = async (i: number) => {
    const d = fleet.current!.data, on = !d.followed[i];
    try {
      await api("/v3/new/newEquipment/follow", { imeis: [d.imei[i]], follow: on });
      d.followed[i] = on;
      setVersion((v) => v + 1);
    } catch (e) {
      toast((e as Error).message, "error");
    }
  };
  // Groups change only with a reload (a new answer), not with live positions.
  const groups = useMemo(() => f ? f.groups() : [], [f, f?.data]);
  const choose = (imei: string) => {
    setSelected(imei);
    setPane("map");
    const at = layers.current?.coordinateOf(imei);
    if (at) {
      const view = base.current!.map.getView();
      view.animate({ center: at, zoom: Math.max(view.getZoom() ?? 0, 14), duration: 300 });
    }
  };

  return (
    <div class="mon-layout" data-pane={pane}>
      <PaneSwitch pane={pane} onChange={setPane} listLabel={t("monitor.panes.list")} t={t} />
      <aside class="mon-side">
        <MonitorTabs active="object" t={t} />
        <div class="mon-side-tools">
          <input
            class="input"
            type="search"
            placeholder={t("monitor.list.search")}
            aria-label={t("monitor.list.search")}
            value={search}
            onInput={(e) => setSearch((e.target as HTMLInputElement).value)}
          />
          <div class="mon-status-tabs" role="tablist">
            {TABS.map((k) => (
              <button
                key={k}
                type="button"
                role="tab"
                data-tab={k}
                aria-selected={tab === k}
                class={tab === k ? "active" : ""}
                onClick={() => setTab(k)}
              >
                <span>{t(`monitor.tabsStatus.${k}`)}</span>
                <b data-count={k}>{counts[k]}</b>
              </button>
            ))}
          </div>
          <div class="mon-sort">
            {groups.length > 1 && (
              <select
                aria-label={t("monitor.list.group")}
                name="group"
                value={group === undefined ? "*" : group}
                onChange={(e) => {
                  const v = (e.target as HTMLSelectElement).value;
                  setGroup(v === "*" ? undefined : v);
                }}
              >
                <option value="*">{t("monitor.list.allGroups")}</option>
                {groups.map(([name, n]) => (
                  <option key={name} value={name}>
                    {name || t("monitor.list.defaultGroup")} ({n})
                  </option>
                ))}
              </select>
            )}
            <label>
              <span>{t("monitor.list.sortBy")}</span>
              <select
                value={sortType}
                aria-label={t("monitor.list.sortBy")}
                onChange={(e) => {
                  const v = (e.target as HTMLSelectElement).value as SortType;
                  setSortType(v);
                  savePref("sortType", v);
                }}
              >
                {(["name", "imei", "status", "speed", "time"] as const).map((s) => (
                  <option key={s} value={s}>{t(`monitor.list.sort.${s}`)}</option>
                ))}
              </select>
            </label>
            <button
              type="button"
              class="icon-btn"
              title={t(`monitor.list.rule.${sortRule}`)}
              aria-label={t(`monitor.list.rule.${sortRule}`)}
              onClick={() => {
                const v = sortRule === "asc" ? "desc" : "asc";
                setSortRule(v);
                savePref("sortRule", v);
              }}
            >
              {sortRule === "asc" ? "↑" : "↓"}
            </button>
          </div>
        </div>
        {loading
          ? <div class="mon-empty">{t("ui.loading")}</div>
          : loadError && !f
          ? <div class="mon-empty error">{loadError}</div>
          : view.length === 0
          ? (
            <div class="mon-empty">
              {f?.size ? t("monitor.list.noMatch") : t("monitor.list.noDevices")}
            </div>
          )
          : (
            <VirtualList
              items={view}
              rowHeight={ROW_HEIGHT}
              label={t("monitor.list.label")}
              render={(i) => {
                const d = f!.data, st = f!.status(i), imei = d.imei[i];
                return (
                  <div
                    key={imei}
                    role="listitem"
                    class={`mon-row ${imei === selected ? "selected" : ""}`}
                    data-imei={imei}
                    style={{ height: `${ROW_HEIGHT}px` }}
                    onClick={() => choose(imei)}
                  >
                    <i
                      class="mon-dot mon-badge"
                      style={{ background: STATUS_COLORS[st] }}
                      aria-hidden="true"
                    >
                      <svg viewBox="0 0 24 24">
                        <path d={glyphOf(d.appType[i])} />
                      </svg>
                    </i>
                    <div class="mon-row-main">
                      <div class="mon-row-name">{d.name[i]}</div>
                      {/* Where it is, once known; the IMEI until then (and on hover). */}
                      <RowSub imei={imei} address={book.get(imei, d.lat[i], d.lng[i])} />
                    </div>
                    <div class="mon-row-meta">
                      <div>
                        {st === "moving" ? fmt.speed(d.speed[i]) : t(`monitor.status.${st}`)}
                      </div>
                      <div class="muted">{fmt.time(d.gpsTime[i] ?? d.hbTime[i]).slice(5, 16)}</div>
                    </div>
                    <button
                      type="button"
                      class={`mon-star ${d.followed[i] ? "on" : ""}`}
                      aria-label={t(
                        d.followed[i] ? "monitor.list.unfollow" : "monitor.list.follow",
                      )}
                      aria-pressed={d.followed[i]}
                      onClick={(e) => {
                        e.stopPropagation();
                        toggleFollow(i);
                      }}
                    >
                      ★
                    </button>
                  </div>
                );
              }}
            />
          )}
        <footer class="mon-side-foot">
          <span class={`mon-live ${live ? "on" : ""}`}>
            <i aria-hidden="true" />
            {live ? t("monitor.live.on") : t("monitor.live.off")}
          </span>
          <label>
            <span>{t("monitor.refresh.label")}</span>
            <select
              value={refresh}
              aria-label={t("monitor.refresh.label")}
              onChange={(e) => {
                const v = Number((e.target as HTMLSelectElement).value);
                setRefresh(v);
                savePref("refresh", v);
              }}
            >
              {REFRESH_OPTIONS.map((s) => (
                <option key={s} value={s}>
                  {s ? t("monitor.refresh.seconds", { n: s }) : t("monitor.refresh.off")}
                </option>
              ))}
            </select>
          </label>
        </footer>
      </aside>
      <section class="mon-map-wrap">
        <div ref={mapEl} class="mon-map" data-testid="map" data-version={version} />
        <MapToolbar
          {...provider}
          t={t}
        >
          <button type="button" class="btn" onClick={() => fitAll()}>
            {t("monitor.map.fitAll")}
          </button>
        </MapToolbar>
        <div class="mon-legend">
          {(["moving", "idling", "stopped", "offline"] as const).map((s) => (
            <StatusPill key={s} status={s} label={`${t(`monitor.status.${s}`)} ${counts[s]}`} />
          ))}
        </div>
        {tilesFailing && <div class="mon-tiles-note">{t("monitor.map.tilesOffline")}</div>}
        {alarm && alarmShown && (
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
                alarmLayer.current?.remove();
                alarmLayer.current = null;
                setAlarmShown(false);
              }}
            >
              ×
            </button>
          </div>
        )}
        <div ref={popupEl} class="mon-popup" style={{ display: "none" }}>
          {sel >= 0 && (
            <DeviceCard d={card(sel)} fmt={fmt} t={t} onClose={() => setSelected("")}>
              <a class="btn" href={`/monitorTracking?imei=${selected}`}>
                {t("monitor.actions.track")}
              </a>
              <a class="btn" href={`/monitorPlayback?imei=${selected}`}>
                {t("monitor.actions.playback")}
              </a>
              {canCommand && (
                <button
                  type="button"
                  class="btn"
                  onClick={() => setCommanding(selected)}
                >
                  {t("monitor.actions.command")}
                </button>
              )}
              <button type="button" class="btn" onClick={() => setSharing(selected)}>
                {t("monitor.actions.share")}
              </button>
            </DeviceCard>
          )}
        </div>
      </section>
      {commanding && (
        <SendCommandDialog
          t={t}
          imei={commanding}
          onClose={() => setCommanding(null)}
        />
      )}
      {sharing && f && (
        <ShareDialog
          imei={sharing}
          name={f.data.name[f.indexOf(sharing)] ?? sharing}
          fmt={fmt}
          t={t}
          onClose={() => setSharing(null)}
        />
      )}
      <Toasts />
    </div>
  );
}

/**
 * Room around the alarm place and the vehicle when both are fitted: the card stands above the
 * vehicle on a laptop and over the map's lower part on a phone; the alarm banner is on top.
 */
function alarmPadding(mapWidth: number): number[] {
  return mapWidth < 700 ? [190, 40, 360, 40] : [340, 200, 150, 200];
}

/** A list row's second line: the address when known, else the IMEI. */
function RowSub({ imei, address }: { imei: string; address: string }) {
  return address
    ? <div class="mon-row-sub" title={imei} data-row-address>{address}</div>
    : <div class="mon-row-sub mono">{imei}</div>;
}

export default island("monitor/Objects", Objects);
