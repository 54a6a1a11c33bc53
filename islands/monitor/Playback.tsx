import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { island } from "../../lib/islands/island.tsx";
import { api, ApiError } from "../../lib/client/api.ts";
import { type Lang, translator } from "../../lib/i18n/i18n.ts";
import { Toasts } from "../../components/ui/Toast.tsx";
import type { ObjectsPayload } from "../../modules/monitor/objects.ts";
import { detectStopsIn, indexAt, type Stop } from "../../modules/monitor/track.ts";
import { MOVING_SPEED_KMH } from "../../modules/devices/model.ts";
import type { TrackColumns } from "../../modules/positions/columns.ts";
import { toGpx, toKml } from "../../modules/monitor/track_export.ts";
import { convertSpeed, speedUnit } from "../../modules/monitor/units.ts";
import { parseLocal, toLocalInput } from "../../modules/monitor/time.ts";
import { type BaseMap, createBaseMap, type MapSettings } from "../../components/monitor/basemap.ts";
import { TrackLayers } from "../../components/monitor/tracklayers.ts";
import { addLandmarks } from "../../components/monitor/landmarks.ts";
import { allPoints, columnsToTrack, type Track } from "../../components/monitor/trackdata.ts";
import { SpeedChart } from "../../components/monitor/SpeedChart.tsx";
import { formatter } from "../../components/monitor/format.ts";
import { MonitorTabs } from "../../components/monitor/MonitorTabs.tsx";
import { type Pane, PaneSwitch } from "../../components/monitor/PaneSwitch.tsx";
import { MapToolbar, useMapProvider } from "../../components/monitor/MapToolbar.tsx";
import { DevicePicker } from "../../components/monitor/DevicePicker.tsx";
import { AddressBook } from "../../components/monitor/addresses.ts";

/** Spec §9: playback speed has a 0.1x option; 1x plays one minute of track per second. */
const SPEEDS = [0.1, 0.5, 1, 2, 4, 8, 16];
const TRACK_MS_PER_SECOND_AT_1X = 60_000;
/** Spec: 7 days per hint, 31 days per query. */
const HINT_DAYS = 7, MAX_DAYS = 31;

function download(name: string, type: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** /monitorPlayback: a device's track over a time range, played on the map with a chart. */
function Playback({ lang, settings, imei: initialImei }: {
  lang: Lang;
  settings: MapSettings;
  imei: string;
}) {
  const t = translator(lang);
  const fmt = useMemo(() => formatter(settings, t), [lang]);
  const su = speedUnit(settings.speedUnit);
  const mapEl = useRef<HTMLDivElement>(null);
  const base = useRef<BaseMap | null>(null);
  const layers = useRef<TrackLayers | null>(null);
  /** Application type (icon) per device, from the objects answer. */
  const appTypes = useRef(new Map<string, number>());
  const [devices, setDevices] = useState<{ imei: string; name: string }[]>([]);
  const [imei, setImei] = useState(initialImei);
  // Where each stop was (asked for the stops listed; keyed by device and place).
  const [, setAddressVersion] = useState(0);
  const book = useMemo(() => new AddressBook(() => setAddressVersion((v) => v + 1)), []);
  useEffect(() => () => book.dispose(), []);
  const now = Date.now();
  const [from, setFrom] = useState(() => toLocalInput(now - 24 * 3600_000, settings.timeZone));
  const [to, setTo] = useState(() => toLocalInput(now, settings.timeZone));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [loading, setLoading] = useState(false);
  const [track, setTrack] = useState<Track | null>(null);
  const [stops, setStops] = useState<Stop[]>([]);
  const [queried, setQueried] = useState(false);
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState(1);
  const [follow, setFollow] = useState(true);
  const [time, setTime] = useState(0);
  const [hover, setHover] = useState(-1);
  /** On a phone: the query form and stops, or the map with the player. */
  const [pane, setPane] = useState<Pane>("list");
  /** The track arrived while the map pane was hidden: fit it once the map has a size. */
  const fitPending = useRef(false);
  const provider = useMapProvider(settings, base);
  const state = useRef({ time: 0, speed: 1, follow: true, playing: false });
  state.current.speed = speed;
  state.current.follow = follow;

  useEffect(() => {
    const b = createBaseMap(mapEl.current!, settings);
    base.current = b;
    layers.current = new TrackLayers(b);
    addLandmarks(b, t);
    let raf = 0;
    b.map.on("pointermove", (e) => {
      if (e.dragging) return;
      cancelAnimationFrame(raf);
      raf = requestAnimationFrame(() => setHover(layers.current!.nearest(e.pixel)));
    });
    (globalThis as Record<string, unknown>).__tpPlayback = { base: b, layers: layers.current };
    api<ObjectsPayload>("/v3/new/monitor/objects").then((d) => {
      setDevices(d.imei.map((imei, i) => ({ imei, name: d.name[i] })));
      appTypes.current = new Map(d.imei.map((imei, i) => [imei, d.appType[i]]));
    }).catch(() => setDevices([]));
    return () => b.map.setTarget(undefined);
  }, []);

  const validate = () => {
    const out: Record<string, string> = {};
    if (!/^\d{15}$/.test(imei)) out.imei = t("monitor.playback.selectDevice");
    const a = parseLocal(from, settings.timeZone), b = parseLocal(to, settings.timeZone);
    if (Number.isNaN(a)) out.from = t("validation.required");
    if (Number.isNaN(b)) out.to = t("validation.required");
    if (!out.from && !out.to) {
      if (a > b) out.to = t("errors.startAfterEnd");
      else if (b - a > MAX_DAYS * 86_400_000) {
        out.to = t("errors.playbackRangeTooLong", { days: MAX_DAYS });
      }
    }
    return out;
  };

  const query = async (e?: Event) => {
    e?.preventDefault();
    const errs = validate();
    setErrors(errs);
    if (Object.keys(errs).length) return;
    setLoading(true);
    setPlaying(false);
    try {
      // Marks for bench:monitor (request, preparation and drawing of long tracks).
      performance.mark("tp:query:start");
      // The compact columnar answer: ~1/6 of the bytes and no object per point to parse.
      const data = await api<TrackColumns>("/v3/new/monitor/playback", {
        imei,
        startTime: new Date(parseLocal(from, settings.timeZone)).toISOString(),
        endTime: new Date(parseLocal(to, settings.timeZone)).toISOString(),
        format: "columns",
      });
      performance.measure("tp:query:data", "tp:query:start");
      performance.mark("tp:track:prepare:start");
      show(columnsToTrack(data));
    } catch (err) {
      setErrors({ form: err instanceof ApiError ? err.message : String(err) });
    } finally {
      setLoading(false);
      setQueried(true);
    }
  };

  const show = (tr: Track) => {
    const st = detectStopsIn(tr);
    performance.measure("tp:track:prepare", "tp:track:prepare:start");
    performance.mark("tp:track:set");
    layers.current!.iconType = appTypes.current.get(imei) ?? 0;
    layers.current!.setTrack(tr.lat, tr.lng, st);
    base.current!.map.once("postrender", () => {
      performance.measure("tp:track:draw", "tp:track:set");
    });
    setTrack(tr);
    setStops(st);
    setHover(-1);
    fitTrack();
    if (tr.n) setPane("map");
    seek(tr, tr.n ? tr.time[0] : 0);
  };

  const fitTrack = () => {
    const ext = layers.current!.extent(), map = base.current!.map;
    if (!ext) return;
    map.updateSize();
    const size = map.getSize();
    fitPending.current = !size || !size[0] || !size[1];
    if (!fitPending.current) map.getView().fit(ext, { padding: [70, 70, 230, 70], maxZoom: 16 });
  };
  useEffect(() => {
    base.current?.map.updateSize();
    if (pane === "map" && fitPending.current) fitTrack();
  }, [pane]);

  const seek = (tr: Track | null, at: number) => {
    if (!tr || !tr.n) return;
    const clamped = Math.min(tr.time[tr.n - 1], Math.max(tr.time[0], at));
    state.current.time = clamped;
    setTime(clamped);
    const i = indexAt(tr.time, clamped);
    const j = Math.min(tr.n - 1, i + 1);
    const span = tr.time[j] - tr.time[i];
    const frac = span > 0 ? (clamped - tr.time[i]) / span : 0;
    // Moving or stopped at this point of the track (indexes in STATUSES).
    const status = tr.speed[i] >= MOVING_SPEED_KMH ? 0 : 2;
    const at2 = layers.current!.moveTo(i, frac, tr.course[i], status);
    if (state.current.follow && state.current.playing) {
      base.current!.map.getView().setCenter(at2);
    }
  };

  // The play loop: track time advances speed × 60 s per second of wall time.
  useEffect(() => {
    state.current.playing = playing;
    if (!playing || !track) return;
    let last = performance.now(), raf = 0;
    const tick = (nowMs: number) => {
      const dt = nowMs - last;
      last = nowMs;
      const next = state.current.time + dt * state.current.speed * TRACK_MS_PER_SECOND_AT_1X / 1000;
      seek(track, next);
      if (next >= track.time[track.n - 1]) {
        setPlaying(false);
        return;
      }
      raf = requestAnimationFrame(tick);
    };
    raf = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(raf);
  }, [playing, track]);

  useEffect(() => layers.current?.showHover(hover), [hover]);

  const current = track && track.n ? indexAt(track.time, time) : -1;
  const step = (d: number) => {
    if (!track || !track.n) return;
    setPlaying(false);
    const i = Math.min(track.n - 1, Math.max(0, current + d));
    seek(track, track.time[i]);
  };
  const exportAs = (kind: "gpx" | "kml") => {
    if (!track) return;
    const name = devices.find((d) => d.imei === imei)?.name ?? imei;
    const stamp = from.replace(/[-:T]/g, "").slice(0, 12);
    const pts = allPoints(track);
    if (kind === "gpx") {
      download(`${imei}_${stamp}.gpx`, "application/gpx+xml", toGpx(name, pts));
    } else {
      download(`${imei}_${stamp}.kml`, "application/vnd.google-earth.kml+xml", toKml(name, pts));
    }
  };
  const quick = (kind: "today" | "yesterday" | "last24") => {
    const tz = settings.timeZone, n = Date.now();
    const midnight = parseLocal(toLocalInput(n, tz).slice(0, 10) + "T00:00", tz);
    const [a, b] = kind === "today"
      ? [midnight, n]
      : kind === "yesterday"
      ? [midnight - 86_400_000, midnight - 60_000]
      : [n - 86_400_000, n];
    setFrom(toLocalInput(a, tz));
    setTo(toLocalInput(b, tz));
  };
  const info = hover >= 0 ? hover : current;
  const rangeDays = (parseLocal(to, settings.timeZone) - parseLocal(from, settings.timeZone)) /
    86_400_000;

  return (
    <div class="mon-layout" data-pane={pane}>
      <PaneSwitch pane={pane} onChange={setPane} listLabel={t("monitor.panes.query")} t={t} />
      <aside class="mon-side">
        <MonitorTabs active="playback" t={t} />
        <form class="mon-pb-form" onSubmit={query} noValidate>
          <DevicePicker
            devices={devices}
            value={imei}
            onChange={setImei}
            t={t}
            error={errors.imei}
          />
          <label class={`field ${errors.from ? "has-error" : ""}`}>
            <span class="field-label">{t("monitor.playback.from")}</span>
            <input
              type="datetime-local"
              name="from"
              value={from}
              onInput={(e) => setFrom((e.target as HTMLInputElement).value)}
            />
            {errors.from && <span class="field-error">{errors.from}</span>}
          </label>
          <label class={`field ${errors.to ? "has-error" : ""}`}>
            <span class="field-label">{t("monitor.playback.to")}</span>
            <input
              type="datetime-local"
              name="to"
              value={to}
              onInput={(e) => setTo((e.target as HTMLInputElement).value)}
            />
            {errors.to
              ? <span class="field-error">{errors.to}</span>
              : (
                <span class={`field-hint ${rangeDays > HINT_DAYS ? "warn" : ""}`}>
                  {t("monitor.playback.rangeHint")}
                </span>
              )}
          </label>
          <div class="mon-quick">
            {(["today", "yesterday", "last24"] as const).map((k) => (
              <button
                key={k}
                type="button"
                class="link-btn"
                onClick={() => quick(k)}
              >
                {t(`monitor.playback.${k}`)}
              </button>
            ))}
          </div>
          {errors.form && <div class="mon-form-error">{errors.form}</div>}
          <button
            type="submit"
            class="btn btn-primary btn-block"
            id="playback-query"
            disabled={loading}
          >
            {loading ? t("monitor.playback.loading") : t("monitor.playback.query")}
          </button>
        </form>
        {track && track.n > 0 && (
          <div class="mon-pb-summary">
            <div>
              <span>{t("monitor.playback.distance")}</span>
              <b>{fmt.distance(track.dist[track.n - 1])}</b>
            </div>
            <div>
              <span>{t("monitor.playback.maxSpeed")}</span>
              <b>{fmt.speed(track.maxSpeed)}</b>
            </div>
            <div>
              <span>{t("monitor.playback.duration")}</span>
              <b>{duration(track.time[track.n - 1] - track.time[0])}</b>
            </div>
            <div>
              <span>{t("monitor.playback.pointsLabel")}</span>
              <b data-points={track.n}>{t("monitor.playback.points", { n: track.n })}</b>
            </div>
          </div>
        )}
        {track && track.n > 0 && (
          <div class="mon-pb-stops">
            <h3 class="mon-subtitle">{t("monitor.playback.stops")} ({stops.length})</h3>
            {stops.length === 0 ? <p class="muted">{t("monitor.playback.noStops")}</p> : (
              <ul>
                {stops.map((s, k) => (
                  <li key={k}>
                    <button
                      type="button"
                      onClick={() => {
                        setPlaying(false);
                        setPane("map");
                        seek(track, s.start);
                        base.current!.map.getView().animate({
                          center: [layers.current!.xs[s.from], layers.current!.ys[s.from]],
                          zoom: 16,
                          duration: 300,
                        });
                      }}
                    >
                      <i>P</i>
                      <span>
                        {fmt.time(s.start)}
                        <small>
                          {t("monitor.playback.stopAt", { duration: duration(s.end - s.start) })}
                        </small>
                        <small class="mon-pb-stop-address" data-stop-address>
                          {book.get(imei, track.lat[s.from], track.lng[s.from])}
                        </small>
                      </span>
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </div>
        )}
        {!track && (
          <div class="mon-empty">
            {queried ? t("monitor.playback.empty") : t("monitor.playback.pick")}
          </div>
        )}
        {track && track.n === 0 && <div class="mon-empty">{t("monitor.playback.empty")}</div>}
      </aside>
      <section class="mon-map-wrap">
        <div ref={mapEl} class="mon-map" data-testid="map" />
        <MapToolbar
          {...provider}
          t={t}
        />
        {track && track.n > 0 && (
          <div class="mon-pb-dock">
            <div class="mon-pb-controls">
              <button
                type="button"
                class="icon-btn"
                aria-label={t("monitor.playback.stepBack")}
                title={t("monitor.playback.stepBack")}
                onClick={() => step(-1)}
              >
                <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
                  <path d="M3 2h2v12H3zM14 2v12L6 8z" fill="currentColor" />
                </svg>
              </button>
              <button
                type="button"
                id="playback-play"
                class="mon-play"
                aria-label={playing ? t("monitor.playback.pause") : t("monitor.playback.play")}
                onClick={() => {
                  if (!playing && time >= track.time[track.n - 1]) seek(track, track.time[0]);
                  setPlaying(!playing);
                }}
              >
                {playing ? "❚❚" : "▶"}
              </button>
              <button
                type="button"
                class="icon-btn"
                aria-label={t("monitor.playback.stepForward")}
                title={t("monitor.playback.stepForward")}
                onClick={() => step(1)}
              >
                <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
                  <path d="M11 2h2v12h-2zM2 2v12l8-6z" fill="currentColor" />
                </svg>
              </button>
              <select
                aria-label={t("monitor.playback.speed")}
                name="speed"
                value={speed}
                onChange={(e) => setSpeed(Number((e.target as HTMLSelectElement).value))}
              >
                {SPEEDS.map((s) => <option key={s} value={s}>{s}x</option>)}
              </select>
              <input
                type="range"
                class="mon-slider"
                aria-label={t("monitor.fields.time")}
                min={track.time[0]}
                max={track.time[track.n - 1]}
                step={1000}
                value={time}
                onInput={(e) => seek(track, Number((e.target as HTMLInputElement).value))}
              />
              <span class="mon-pb-time" data-index={current}>{fmt.time(time)}</span>
              <label class="mon-check">
                <input
                  type="checkbox"
                  checked={follow}
                  onChange={(e) => setFollow((e.target as HTMLInputElement).checked)}
                />
                {t("monitor.playback.follow")}
              </label>
              <span class="mon-pb-export">
                <button type="button" class="btn" onClick={() => exportAs("gpx")}>
                  {t("monitor.playback.exportGpx")}
                </button>
                <button type="button" class="btn" onClick={() => exportAs("kml")}>
                  {t("monitor.playback.exportKml")}
                </button>
              </span>
            </div>
            <div class="mon-pb-chartrow">
              <SpeedChart
                track={track}
                current={current}
                hover={hover}
                onHover={setHover}
                onSeek={(at) => {
                  setPlaying(false);
                  seek(track, at);
                }}
                convert={(v) => convertSpeed(v, su)}
                label={t("monitor.playback.chart")}
              />
              {info >= 0 && (
                <dl class="mon-pb-point" data-hover={hover >= 0 ? "1" : "0"}>
                  <dt>{t("monitor.fields.time")}</dt>
                  <dd>{fmt.time(track.time[info])}</dd>
                  <dt>{t("monitor.fields.speed")}</dt>
                  <dd>{fmt.speed(track.speed[info])} · {fmt.compass(track.course[info])}</dd>
                  <dt>{t("monitor.fields.coords")}</dt>
                  <dd class="mono">{fmt.coords(track.lat[info], track.lng[info])}</dd>
                  <dt>{t("monitor.fields.mileage")}</dt>
                  <dd>{fmt.distance(track.dist[info])}</dd>
                </dl>
              )}
            </div>
          </div>
        )}
      </section>
      <Toasts />
    </div>
  );
}

function duration(ms: number): string {
  const m = Math.round(ms / 60_000);
  return m >= 60 ? `${Math.floor(m / 60)}h ${m % 60}m` : `${m}m`;
}

export default island("monitor/Playback", Playback);
