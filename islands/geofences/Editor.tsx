import { useEffect, useMemo, useRef } from "react";
import { island } from "../../lib/islands/island.tsx";
import { type Lang, translator } from "../../lib/i18n/i18n.ts";
import { Toasts } from "../../components/ui/Toast.tsx";
import { PlaceSearch } from "../../components/geofences/PlaceSearch.tsx";
import {
  allZones,
  createEditorState,
  type EditorState,
  load,
  pickPlace,
  useFenceMap,
} from "../../components/geofences/editor_state.ts";
import { ZoneSide } from "../../components/geofences/ZoneList.tsx";
import { EditorMapTools } from "../../components/geofences/EditorMapTools.tsx";
import { EditorDialogs } from "../../components/geofences/EditorDialogs.tsx";

interface Props {
  lang: Lang;
  isAdmin: boolean;
  /** The geocoder's forward-search route when the server has one (place search). */
  geocoderPath?: string | null;
}

/**
 * Fences, landmarks and black-car addresses: the list beside the map, drawing and reshaping on
 * the map. The page's state is a set of signals (components/geofences/editor_state.ts) made for
 * this instance; each part reads what it shows.
 */
function Editor({ lang, isAdmin, geocoderPath = null }: Props) {
  const s = useMemo(() => createEditorState(translator(lang)), []);
  const mapEl = useRef<HTMLDivElement>(null);
  useFenceMap(s, mapEl);
  useZoneEffects(s);
  return (
    <div class="gf-layout">
      <ZoneSide s={s} />
      <section class="gf-map-wrap">
        <PlaceSearch
          t={s.t}
          loadZones={allZones}
          geocoderPath={geocoderPath}
          onPick={(hit) => pickPlace(s, hit)}
        />
        <EditorMapTools s={s} />
        <div ref={mapEl} class="gf-map" aria-label={s.t("geofences.map")} />
      </section>
      <EditorDialogs s={s} isAdmin={isAdmin} />
      <Toasts />
    </div>
  );
}

/** The list reloads with its query; the map draws the kind's zones and the selection. */
function useZoneEffects(s: EditorState) {
  const kind = s.kind.value, groupId = s.groupId.value, page = s.page.value;
  const searches = s.searches.value;
  const layer = s.layer.value, selected = s.selected.value, reshaping = s.reshaping.value;
  useEffect(() => {
    load(s);
  }, [kind, groupId, page.pageNum, page.pageSize, searches]);
  useEffect(() => {
    // The zone being reshaped is drawn by the edit layer only.
    const shown = reshaping ? layer.filter((z) => z.id !== reshaping.id) : layer;
    s.map.current?.setZones(shown, selected);
  }, [layer, selected, reshaping?.id]);
}

export default island("geofences/Editor", Editor);
