/** The /monitorPlayback side panel: device and range, the track's summary and its stops. */
import { parseLocal } from "../../modules/monitor/time.ts";
import { MonitorTabs } from "./MonitorTabs.tsx";
import { DevicePicker } from "./DevicePicker.tsx";
import type { PlaybackState } from "./playback_state.ts";
import { duration, query, quick, seek } from "./playback_player.ts";

/** Spec: 7 days per hint. */
const HINT_DAYS = 7;

export function PlaybackSide({ s }: { s: PlaybackState }) {
  const { t } = s, track = s.track.value;
  return (
    <aside class="mon-side">
      <MonitorTabs active="playback" t={t} />
      <QueryForm s={s} />
      {track && track.n > 0 && <TrackSummary s={s} />}
      {track && track.n > 0 && <StopList s={s} />}
      {!track && (
        <div class="mon-empty">
          {s.queried.value ? t("monitor.playback.empty") : t("monitor.playback.pick")}
        </div>
      )}
      {track && track.n === 0 && <div class="mon-empty">{t("monitor.playback.empty")}</div>}
    </aside>
  );
}

function QueryForm({ s }: { s: PlaybackState }) {
  const { t } = s, errors = s.errors.value, from = s.from.value, to = s.to.value;
  const loading = s.loading.value;
  const rangeDays = (parseLocal(to, s.settings.timeZone) - parseLocal(from, s.settings.timeZone)) /
    86_400_000;
  return (
    <form class="mon-pb-form" onSubmit={(e) => query(s, e)} noValidate>
      <DevicePicker
        devices={s.devices.value}
        value={s.imei.value}
        onChange={(v) => (s.imei.value = v)}
        t={t}
        error={errors.imei}
      />
      <label class={`field ${errors.from ? "has-error" : ""}`}>
        <span class="field-label">{t("monitor.playback.from")}</span>
        <input
          type="datetime-local"
          name="from"
          value={from}
          onInput={(e) => (s.from.value = (e.target as HTMLInputElement).value)}
        />
        {errors.from && <span class="field-error">{errors.from}</span>}
      </label>
      <label class={`field ${errors.to ? "has-error" : ""}`}>
        <span class="field-label">{t("monitor.playback.to")}</span>
        <input
          type="datetime-local"
          name="to"
          value={to}
          onInput={(e) => (s.to.value = (e.target as HTMLInputElement).value)}
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
            onClick={() => quick(s, k)}
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
  );
}

function TrackSummary({ s }: { s: PlaybackState }) {
  const { t, fmt } = s, track = s.track.value!;
  return (
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
  );
}

/** The track's stops with where they were; a click shows the stop on the map. */
function StopList({ s }: { s: PlaybackState }) {
  const { t, fmt } = s, track = s.track.value!, stops = s.stops.value, imei = s.imei.value;
  s.addresses.value; // re-rendered when stop addresses arrive
  return (
    <div class="mon-pb-stops">
      <h3 class="mon-subtitle">{t("monitor.playback.stops")} ({stops.length})</h3>
      {stops.length === 0 ? <p class="muted">{t("monitor.playback.noStops")}</p> : (
        <ul>
          {stops.map((st, k) => (
            <li key={k}>
              <button
                type="button"
                onClick={() => {
                  s.playing.value = false;
                  s.pane.value = "map";
                  seek(s, track, st.start);
                  s.base.current!.map.getView().animate({
                    center: [s.layers.current!.xs[st.from], s.layers.current!.ys[st.from]],
                    zoom: 16,
                    duration: 300,
                  });
                }}
              >
                <i>P</i>
                <span>
                  {fmt.time(st.start)}
                  <small>
                    {t("monitor.playback.stopAt", { duration: duration(st.end - st.start) })}
                  </small>
                  <small class="mon-pb-stop-address" data-stop-address>
                    {s.book.get(imei, track.lat[st.from], track.lng[st.from])}
                  </small>
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
