import { useEffect, useMemo, useRef } from "react";
import { island } from "../../lib/islands/island.tsx";
import { type Lang, translator } from "../../lib/i18n/i18n.ts";
import { Toasts } from "../../components/ui/Toast.tsx";
import type { MapSettings } from "../../components/monitor/basemap.ts";
import { PaneSwitch } from "../../components/monitor/PaneSwitch.tsx";
import { MapToolbar, useMapProvider } from "../../components/monitor/MapToolbar.tsx";
import { createPlaybackState } from "../../components/monitor/playback_state.ts";
import {
  fitTrack,
  query,
  usePlaybackMap,
  usePlayLoop,
} from "../../components/monitor/playback_player.ts";
import { PlaybackSide } from "../../components/monitor/PlaybackQuery.tsx";
import { PlaybackDock } from "../../components/monitor/PlaybackDock.tsx";

/**
 * /monitorPlayback: a device's track over a time range, played on the map with a chart. The
 * page's state is a set of signals (components/monitor/playback_state.ts) made for this instance.
 */
function Playback({ lang, settings, imei, range }: {
  lang: Lang;
  settings: MapSettings;
  imei: string;
  /** From the page's startTime/endTime (report rows link here): queried at once. */
  range?: { from: number; to: number } | null;
}) {
  const s = useMemo(() => createPlaybackState(translator(lang), settings, imei, range), []);
  const mapEl = useRef<HTMLDivElement>(null);
  const provider = useMapProvider(settings, s.base);
  const pane = s.pane.value;
  useEffect(() => () => s.book.dispose(), []);
  usePlaybackMap(s, mapEl);
  useEffect(() => {
    if (imei && range) void query(s);
  }, []);
  useEffect(() => {
    s.base.current?.map.updateSize();
    if (pane === "map" && s.fitPending.current) fitTrack(s);
  }, [pane]);
  usePlayLoop(s, s.playing.value, s.track.value);

  return (
    <div class="mon-layout" data-pane={pane}>
      <PaneSwitch
        pane={pane}
        onChange={(p) => (s.pane.value = p)}
        listLabel={s.t("monitor.panes.query")}
        t={s.t}
      />
      <PlaybackSide s={s} />
      <section class="mon-map-wrap">
        <div ref={mapEl} class="mon-map" data-testid="map" />
        <MapToolbar {...provider} t={s.t} />
        <PlaybackDock s={s} />
      </section>
      <Toasts />
    </div>
  );
}

export default island("monitor/Playback", Playback);
