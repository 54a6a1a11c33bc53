import { useEffect, useMemo } from "react";
import { island } from "../../lib/islands/island.tsx";
import { type Lang, translator } from "../../lib/i18n/i18n.ts";
import { Toasts } from "../../components/ui/Toast.tsx";
import type { MapSettings } from "../../components/monitor/basemap.ts";
import { ShareDialog } from "../../components/monitor/ShareDialog.tsx";
import { SendCommandDialog } from "../../components/commands/SendCommandDialog.tsx";
import { PaneSwitch } from "../../components/monitor/PaneSwitch.tsx";
import type { AlarmPlace } from "../../modules/monitor/alarm_link.ts";
import {
  createObjectsState,
  type ObjectsState,
  pref,
} from "../../components/monitor/objects_state.ts";
import { placePopup, useLiveStream } from "../../components/monitor/objects_map.ts";
import { ObjectSide } from "../../components/monitor/ObjectList.tsx";
import { ObjectsMapPane } from "../../components/monitor/ObjectsMapPane.tsx";

/**
 * /monitorObject: the live map beside the object list. The page's state is a set of signals
 * (components/monitor/objects_state.ts) made for this instance; each part reads what it shows.
 */
function Objects(
  props: {
    lang: Lang;
    settings: MapSettings;
    focus: string;
    /** The user may send instructions (spec: instructionsFlag). */
    canCommand: boolean;
    /** "Show on map" from an alert: where the alarm happened (marked beside the vehicle). */
    alarm?: AlarmPlace | null;
  },
) {
  const s = useMemo(() => createObjectsState(translator(props.lang), props), []);
  const pane = s.pane.value;
  useEffect(() => () => s.book.dispose(), []);
  // Preferences live in this browser (sort settings, refresh interval, map provider).
  useEffect(() => {
    s.sortType.value = pref("sortType", "name");
    s.sortRule.value = pref("sortRule", "asc");
    s.refresh.value = pref("refresh", 30);
  }, []);
  useLiveStream(s);
  // A phone's map pane was hidden (no size) while the list showed: it measures itself again.
  useEffect(() => {
    s.base.current?.map.updateSize();
    placePopup(s);
  }, [pane]);

  return (
    <div class="mon-layout" data-pane={pane}>
      <PaneSwitch
        pane={pane}
        onChange={(p) => (s.pane.value = p)}
        listLabel={s.t("monitor.panes.list")}
        t={s.t}
      />
      <ObjectSide s={s} />
      <ObjectsMapPane s={s} />
      <ObjectDialogs s={s} />
      <Toasts />
    </div>
  );
}

/** The send-instruction and share dialogs opened from the selected vehicle's card. */
function ObjectDialogs({ s }: { s: ObjectsState }) {
  const commanding = s.commanding.value, sharing = s.sharing.value, f = s.fleet.current;
  return (
    <>
      {commanding && (
        <SendCommandDialog t={s.t} imei={commanding} onClose={() => (s.commanding.value = null)} />
      )}
      {sharing && f && (
        <ShareDialog
          imei={sharing}
          name={f.data.name[f.indexOf(sharing)] ?? sharing}
          fmt={s.fmt}
          t={s.t}
          onClose={() => (s.sharing.value = null)}
        />
      )}
    </>
  );
}

export default island("monitor/Objects", Objects);
