import { toLocalInput } from "../../modules/monitor/time.ts";
import { REPORT_RANGE_DAYS } from "../../modules/reports/model.ts";
import { ALERT_TYPES } from "../../modules/alerts/types.ts";
import type { AccountRef } from "../accounts/types.ts";
import { DeviceField } from "./DeviceField.tsx";
import {
  CLOCK_TYPES,
  filtersOf,
  POSITIONING,
  READ_STATES,
  type ReportFilters,
  SENSOR_TYPE_KEYS,
} from "./filters.ts";
import { earliestInput, QUICK_RANGES, quickOf, quickRange } from "./range.ts";
import { type ReportState, typedRange } from "./report_state.ts";
import { runReport } from "./report_actions.ts";

/** The quick range choices and the two datetime inputs (never after now, spec §5). */
function RangeField({ s }: { s: ReportState }) {
  const { t } = s;
  const tz = s.units.timeZone;
  const now = Date.now();
  const chosen = quickOf(typedRange(s, now), now, tz);
  const max = toLocalInput(now, tz);
  return (
    <div class="rp-range">
      <div class="rp-quick" role="group" aria-label={t("reports.form.quick")}>
        {QUICK_RANGES.map((k) => (
          <button
            key={k}
            type="button"
            class={`rp-quick-btn${chosen === k ? " active" : ""}`}
            aria-pressed={chosen === k}
            data-range={k}
            onClick={() => {
              const r = quickRange(k, Date.now(), tz);
              s.from.value = toLocalInput(r.from, tz);
              s.to.value = toLocalInput(r.to, tz);
            }}
          >
            {t(`reports.quick.${k}`)}
          </button>
        ))}
      </div>
      <div class="rp-dates">
        <label class="field">
          <span class="field-label">{t("reports.form.from")}</span>
          <input
            type="datetime-local"
            name="startTime"
            value={s.from.value}
            min={earliestInput(now, tz)}
            max={max}
            onInput={(e) => (s.from.value = (e.target as HTMLInputElement).value)}
          />
        </label>
        <label class="field">
          <span class="field-label">{t("reports.form.to")}</span>
          <input
            type="datetime-local"
            name="endTime"
            value={s.to.value}
            min={earliestInput(now, tz)}
            max={max}
            onInput={(e) => (s.to.value = (e.target as HTMLInputElement).value)}
          />
        </label>
      </div>
      <span class="field-hint">
        {t("reports.form.rangeHint", { days: REPORT_RANGE_DAYS[s.report] })}
      </span>
    </div>
  );
}

/** The report's own filters (filters.ts says which). */
function FilterFields({ s }: { s: ReportState }) {
  const { t } = s;
  const f = s.filters.value;
  const set = <K extends keyof ReportFilters>(
    key: K,
    value: ReportFilters[K],
  ) => (s.filters.value = { ...f, [key]: value });
  return (
    <>
      {filtersOf(s.report).map((key) => {
        if (key === "view") {
          return (
            <div key={key} class="field rp-view">
              <span class="field-label">{t("reports.filters.view")}</span>
              <div class="rp-segmented" role="radiogroup">
                {(["day", "segment"] as const).map((v) => (
                  <label key={v} class={f.view === v ? "active" : ""}>
                    <input
                      type="radio"
                      name="view"
                      value={v}
                      checked={f.view === v}
                      onChange={() =>
                        set("view", v)}
                    />
                    {t(`reports.filters.views.${v}`)}
                  </label>
                ))}
              </div>
            </div>
          );
        }
        if (key === "speedLimit") {
          return (
            <label key={key} class="field rp-speed">
              <span class="field-label">
                {t("reports.filters.speedLimit", { unit: s.units.speed })}
              </span>
              <input
                type="number"
                name="speedLimit"
                min={1}
                max={300}
                placeholder={t("reports.filters.speedLimitDefault")}
                value={f.speedLimit}
                onInput={(e) => set("speedLimit", (e.target as HTMLInputElement).value)}
              />
            </label>
          );
        }
        const options: readonly string[] = key === "alertType"
          ? ["", ...ALERT_TYPES]
          : key === "read"
          ? READ_STATES
          : key === "clockType"
          ? CLOCK_TYPES
          : key === "sensorType"
          ? SENSOR_TYPE_KEYS
          : POSITIONING;
        const label = (v: string) =>
          key === "alertType"
            ? (v ? t(`alerts.type.${v}`, { defaultValue: v }) : t("reports.filters.allTypes"))
            : t(`reports.filters.${key}s.${v}`);
        return (
          <label key={key} class="field">
            <span class="field-label">{t(`reports.filters.${key}`)}</span>
            <select
              name={key}
              value={f[key] as string}
              onChange={(e) =>
                set(key, (e.target as HTMLSelectElement).value as ReportFilters[typeof key])}
            >
              {options.map((v) => <option key={v} value={v}>{label(v)}</option>)}
            </select>
          </label>
        );
      })}
    </>
  );
}

/** Devices, range, the report's filters and the query button (spec §2 report pages). */
export function ReportForm({ s, root }: { s: ReportState; root: AccountRef }) {
  const { t } = s;
  return (
    <form
      class="panel rp-form"
      onSubmit={(e) => {
        e.preventDefault();
        runReport(s);
      }}
    >
      <DeviceField s={s} root={root} />
      <RangeField s={s} />
      <div class="rp-filters">
        <FilterFields s={s} />
        <button type="submit" class="btn btn-primary rp-run" id="report-run">
          {t("reports.form.run")}
        </button>
      </div>
      {s.error.value && <p class="form-error rp-error" role="alert">{s.error.value}</p>}
    </form>
  );
}
