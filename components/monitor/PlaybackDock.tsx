/** The /monitorPlayback player over the map: controls, slider, export, speed chart, point. */
import { convertSpeed, speedUnit } from "../../modules/monitor/units.ts";
import { SpeedChart } from "./SpeedChart.tsx";
import type { PlaybackState } from "./playback_state.ts";
import { currentIndex, exportAs, seek, step } from "./playback_player.ts";
import type { Track } from "./trackdata.ts";

/** Spec §9: playback speed has a 0.1x option. */
const SPEEDS = [0.1, 0.5, 1, 2, 4, 8, 16];

export function PlaybackDock({ s }: { s: PlaybackState }) {
  const track = s.track.value;
  if (!track || track.n === 0) return null;
  return (
    <div class="mon-pb-dock">
      <PlayerControls s={s} track={track} />
      <div class="mon-pb-chartrow">
        <ChartRow s={s} track={track} />
      </div>
    </div>
  );
}

function PlayerControls({ s, track }: { s: PlaybackState; track: Track }) {
  const { t, fmt } = s, playing = s.playing.value, time = s.time.value;
  return (
    <div class="mon-pb-controls">
      <button
        type="button"
        class="icon-btn"
        aria-label={t("monitor.playback.stepBack")}
        title={t("monitor.playback.stepBack")}
        onClick={() => step(s, -1)}
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
          if (!playing && time >= track.time[track.n - 1]) seek(s, track, track.time[0]);
          s.playing.value = !playing;
        }}
      >
        {playing ? "❚❚" : "▶"}
      </button>
      <button
        type="button"
        class="icon-btn"
        aria-label={t("monitor.playback.stepForward")}
        title={t("monitor.playback.stepForward")}
        onClick={() => step(s, 1)}
      >
        <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
          <path d="M11 2h2v12h-2zM2 2v12l8-6z" fill="currentColor" />
        </svg>
      </button>
      <select
        aria-label={t("monitor.playback.speed")}
        name="speed"
        value={s.speed.value}
        onChange={(e) => (s.speed.value = Number((e.target as HTMLSelectElement).value))}
      >
        {SPEEDS.map((v) => <option key={v} value={v}>{v}x</option>)}
      </select>
      <input
        type="range"
        class="mon-slider"
        aria-label={t("monitor.fields.time")}
        min={track.time[0]}
        max={track.time[track.n - 1]}
        step={1000}
        value={time}
        onInput={(e) => seek(s, track, Number((e.target as HTMLInputElement).value))}
      />
      <span class="mon-pb-time" data-index={currentIndex(s)}>{fmt.time(time)}</span>
      <label class="mon-check">
        <input
          type="checkbox"
          checked={s.follow.value}
          onChange={(e) => (s.follow.value = (e.target as HTMLInputElement).checked)}
        />
        {t("monitor.playback.follow")}
      </label>
      <span class="mon-pb-export">
        <button type="button" class="btn" onClick={() => exportAs(s, "gpx")}>
          {t("monitor.playback.exportGpx")}
        </button>
        <button type="button" class="btn" onClick={() => exportAs(s, "kml")}>
          {t("monitor.playback.exportKml")}
        </button>
      </span>
    </div>
  );
}

/** Speed over time (hover and click seek) and the readings of the point shown or hovered. */
function ChartRow({ s, track }: { s: PlaybackState; track: Track }) {
  const { t, fmt } = s, hover = s.hover.value, current = currentIndex(s);
  const su = speedUnit(s.settings.speedUnit);
  const info = hover >= 0 ? hover : current;
  return (
    <>
      <SpeedChart
        track={track}
        current={current}
        hover={hover}
        onHover={(i) => (s.hover.value = i)}
        onSeek={(at) => {
          s.playing.value = false;
          seek(s, track, at);
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
    </>
  );
}
