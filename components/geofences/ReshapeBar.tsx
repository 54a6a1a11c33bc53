import type { TFunction } from "i18next";
import { polygonSpan } from "../../modules/geofences/geometry.ts";
import { shapeProblem, type Zone } from "../../modules/geofences/model.ts";

/**
 * The map toolbar while a zone's shape is edited in place: what is being edited, its size
 * as the operator drags (radius or span) with the rule it breaks, redraw buttons, and
 * Cancel / Done. Done hands the new shape to the zone dialog, which saves it.
 */
export function ReshapeBar({ t, zone, drawing, onRedraw, onCancel, onDone }: {
  t: TFunction;
  zone: Zone;
  drawing: "circle" | "polygon" | null;
  onRedraw: (kind: "circle" | "polygon") => void;
  onCancel: () => void;
  onDone: () => void;
}) {
  const s = zone.shape;
  const problem = shapeProblem(zone.kind, s);
  const size = s.kind === "circle"
    ? t("geofences.reshape.radius", { m: s.radius })
    : t("geofences.reshape.span", { m: Math.round(polygonSpan(s.points)) });
  return (
    <div class="gf-reshape" role="toolbar" aria-label={t("geofences.reshape.title")}>
      <span class="gf-hint">
        {drawing
          ? t(`geofences.drawHint.${drawing}`)
          : t(`geofences.reshape.hint.${s.kind}`, { name: zone.name })}
      </span>
      <span class={`gf-measure${problem ? " bad" : ""}`} data-testid="reshape-size">
        {size}
        {problem && <em role="alert">{t(problem)}</em>}
      </span>
      <button type="button" class="btn" onClick={() => onRedraw("circle")}>
        ◯ {t("geofences.reshape.redrawCircle")}
      </button>
      <button type="button" class="btn" onClick={() => onRedraw("polygon")}>
        ⬠ {t("geofences.reshape.redrawPolygon")}
      </button>
      <button type="button" class="btn" onClick={onCancel}>{t("ui.cancel")}</button>
      <button
        type="button"
        id="gf-reshape-done"
        class="btn btn-primary"
        disabled={!!problem || !!drawing}
        onClick={onDone}
      >
        {t("geofences.reshape.done")}
      </button>
    </div>
  );
}
