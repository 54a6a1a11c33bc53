/** The route editor's side panel parts: the rule's fields, the point list, the length. */
import type { TFunction } from "i18next";
import { PATH_LIMITS, type RoutePoint } from "../../../modules/fleet/paths_model.ts";
import { lineLengthM } from "../../../modules/fleet/paths_geometry.ts";

export interface RuleFields {
  name: string;
  offset: number;
  minOffMinutes: number;
  startTime: string;
  endTime: string;
  weekdays: number[];
  snap: boolean;
}

export function RuleForm(
  { t, f, set, routing }: {
    t: TFunction;
    f: RuleFields;
    set: (patch: Partial<RuleFields>) => void;
    routing: boolean;
  },
) {
  const toggleDay = (d: number) =>
    set({
      weekdays: f.weekdays.includes(d)
        ? f.weekdays.filter((x) => x !== d)
        : [...f.weekdays, d].sort(),
    });
  return (
    <div class="fp-fields">
      <label class="field">
        <span class="field-label">
          {t("fleetPaths.name")} <span class="req">*</span>
        </span>
        <input
          name="name"
          value={f.name}
          maxLength={PATH_LIMITS.nameMax}
          placeholder={t("fleetPaths.namePlaceholder")}
          onInput={(e) => set({ name: (e.target as HTMLInputElement).value })}
        />
      </label>
      <div class="fp-row">
        <label class="field">
          <span class="field-label">{t("fleetPaths.offset")}</span>
          <input
            name="offset"
            type="number"
            min={PATH_LIMITS.minOffset}
            max={PATH_LIMITS.maxOffset}
            value={f.offset}
            onInput={(e) => set({ offset: Number((e.target as HTMLInputElement).value) })}
          />
        </label>
        <label class="field">
          <span class="field-label">{t("fleetPaths.minOff")}</span>
          <input
            name="minOffMinutes"
            type="number"
            min={1}
            max={PATH_LIMITS.maxMinOffMinutes}
            value={f.minOffMinutes}
            onInput={(e) => set({ minOffMinutes: Number((e.target as HTMLInputElement).value) })}
          />
        </label>
      </div>
      <div class="fp-row">
        <label class="field">
          <span class="field-label">{t("fleetPaths.startTime")}</span>
          <input
            name="startTime"
            type="time"
            value={f.startTime}
            onInput={(e) => set({ startTime: (e.target as HTMLInputElement).value })}
          />
        </label>
        <label class="field">
          <span class="field-label">{t("fleetPaths.endTime")}</span>
          <input
            name="endTime"
            type="time"
            value={f.endTime}
            onInput={(e) => set({ endTime: (e.target as HTMLInputElement).value })}
          />
        </label>
      </div>
      <div class="field">
        <span class="field-label">{t("fleetPaths.weekdays")}</span>
        <div class="fp-days" role="group" aria-label={t("fleetPaths.weekdays")}>
          {[1, 2, 3, 4, 5, 6, 7].map((d) => (
            <button
              type="button"
              key={d}
              class={f.weekdays.includes(d) ? "on" : ""}
              aria-pressed={f.weekdays.includes(d)}
              onClick={() => toggleDay(d)}
            >
              {t(`fleetPaths.day.${d}`)}
            </button>
          ))}
        </div>
      </div>
      {routing && (
        <label class="fp-check">
          <input
            type="checkbox"
            checked={f.snap}
            onChange={(e) => set({ snap: (e.target as HTMLInputElement).checked })}
          />
          {t("fleetPaths.snap")}
        </label>
      )}
    </div>
  );
}

export function PointList(
  { t, points, remove }: { t: TFunction; points: RoutePoint[]; remove: (i: number) => void },
) {
  const km = lineLengthM(points) / 1000;
  const tooLong = km > PATH_LIMITS.maxLengthKm;
  return (
    <div class="fp-points">
      <div class="fp-points-head">
        <strong>{t("fleetPaths.points")}</strong>
        <span class={tooLong ? "fp-len warn" : "fp-len"} data-testid="route-length">
          {t("fleetPaths.length", { km: km.toFixed(1), max: PATH_LIMITS.maxLengthKm })}
        </span>
      </div>
      {points.length === 0 && <p class="field-hint">{t("fleetPaths.clickHint")}</p>}
      <ol>
        {points.map((p, i) => {
          const kind = i === 0 ? "start" : i === points.length - 1 ? "end" : "via";
          return (
            <li key={i} class={`fp-point ${kind}`}>
              <span class="fp-badge">{kind === "start" ? "S" : kind === "end" ? "E" : i}</span>
              <span class="fp-point-name">{t(`fleetPaths.kind.${kind}`)}</span>
              <span class="fp-coord">{p.lat.toFixed(5)}, {p.lng.toFixed(5)}</span>
              <button
                type="button"
                class="link"
                aria-label={t("fleetPaths.removePoint")}
                onClick={() => remove(i)}
              >
                ✕
              </button>
            </li>
          );
        })}
      </ol>
      {points.length === 1 && <p class="field-hint">{t("fleetPaths.needEnd")}</p>}
    </div>
  );
}
