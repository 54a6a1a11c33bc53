/** The tools over the geofence map: draw, import, vehicles; the hint while drawing; reshaping. */
import { ReshapeBar } from "./ReshapeBar.tsx";
import { cancelDraw, type EditorState, endReshape, redraw, startDraw } from "./editor_state.ts";

export function EditorMapTools({ s }: { s: EditorState }) {
  const { t } = s, reshaping = s.reshaping.value, drawing = s.drawing.value;
  return (
    <div class="gf-map-tools">
      {reshaping
        ? (
          <ReshapeBar
            t={t}
            zone={reshaping}
            drawing={drawing}
            onRedraw={(shape) => redraw(s, shape)}
            onCancel={() => endReshape(s, false)}
            onDone={() => endReshape(s, true)}
          />
        )
        : drawing
        ? (
          <>
            <span class="gf-hint">{t(`geofences.drawHint.${drawing}`)}</span>
            <button type="button" class="btn" onClick={() => cancelDraw(s)}>
              {t("ui.cancel")}
            </button>
          </>
        )
        : <DrawTools s={s} />}
    </div>
  );
}

function DrawTools({ s }: { s: EditorState }) {
  const { t } = s, data = s.data.value, vehicles = s.vehicles.value;
  const full = data ? data.total >= data.limit : false;
  return (
    <>
      <button
        type="button"
        id="gf-draw-circle"
        class="btn btn-primary"
        disabled={full}
        title={full ? t("geofences.full") : undefined}
        onClick={() => startDraw(s, "circle")}
      >
        ◯ {t("geofences.drawCircle")}
      </button>
      <button
        type="button"
        id="gf-draw-polygon"
        class="btn btn-primary"
        disabled={full}
        title={full ? t("geofences.full") : undefined}
        onClick={() => startDraw(s, "polygon")}
      >
        ⬠ {t("geofences.drawPolygon")}
      </button>
      <button type="button" class="btn" onClick={() => (s.dialog.value = "import")}>
        {t("geofences.import.button")}
      </button>
      <button
        type="button"
        id="gf-vehicles"
        class="btn"
        disabled={!vehicles?.length}
        title={vehicles?.length ? t("geofences.vehicles.showHint") : t("geofences.vehicles.none")}
        aria-label={vehicles?.length
          ? t("geofences.vehicles.count", { count: vehicles.length })
          : t("geofences.vehicles.none")}
        onClick={() => s.map.current?.fitVehicles()}
      >
        {t("geofences.vehicles.show")}
        {vehicles?.length ? <span class="badge">{vehicles.length}</span> : null}
      </button>
    </>
  );
}
