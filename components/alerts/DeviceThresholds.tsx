import { useState } from "react";
import type { TFunction } from "i18next";
import { api, ApiError } from "../../lib/client/api.ts";
import { Field } from "../ui/Field.tsx";
import { toast } from "../ui/Toast.tsx";

const NUMBERS = [
  ["overSpeed", "overSecond"],
  ["minTemperature", "maxTemperature"],
  ["offlineMinutes", "stayMinutes"],
  ["mileageThreshold", "maintenanceThreshold"],
  ["currentMileage", null],
  ["accOnHours", "currentAccOnHours"],
] as const;
type NumKey = Exclude<typeof NUMBERS[number][number], null>;
/** Reminder dates: the message center tells the owner 30 and 7 days before each. */
const DATES = ["licenceExpiry", "insuranceExpiry", "simCardExpiry"] as const;
type DateKey = typeof DATES[number];
type Values = Record<NumKey | DateKey, string> & { nightRanges: { start: string; end: string }[] };

const empty = (): Values => ({
  ...Object.fromEntries(
    [...NUMBERS.flat().filter(Boolean), ...DATES].map((k) => [k, ""]),
  ) as Record<
    NumKey | DateKey,
    string
  >,
  nightRanges: [],
});

/** Spec §5 alarm thresholds of one device; an empty field switches that check off. */
export function DeviceThresholds({ t }: { t: TFunction }) {
  const [imei, setImei] = useState("");
  const [loaded, setLoaded] = useState<string | null>(null);
  const [v, setV] = useState<Values>(empty());
  const [errors, setErrors] = useState<Record<string, string>>({});
  const load = async (e: Event) => {
    e.preventDefault();
    try {
      const s = await api<Record<string, unknown> | null>("/v3/new/alarm/device/get", {
        imei: imei.trim(),
      });
      const next = empty();
      if (s) {
        for (const k of Object.keys(next) as (NumKey | DateKey)[]) {
          if (k in s && s[k] !== null) next[k] = String(s[k]);
        }
        next.nightRanges = (s.nightRanges as Values["nightRanges"]) ?? [];
      }
      setV(next);
      setLoaded(imei.trim());
      setErrors({});
    } catch (err) {
      setErrors({ imei: err instanceof ApiError ? err.message : t("ui.requestFailed") });
    }
  };
  const save = async (e: Event) => {
    e.preventDefault();
    const body: Record<string, unknown> = { imei: loaded, nightRanges: v.nightRanges };
    for (const k of NUMBERS.flat()) if (k) body[k] = v[k] === "" ? null : Number(v[k]);
    for (const k of DATES) body[k] = v[k] || null;
    try {
      await api("/v3/new/alarm/device/save", body);
      setErrors({});
      toast(t("ui.saved"));
    } catch (err) {
      const field = err instanceof ApiError
        ? String((err.data as { field?: string } | null)?.field ?? "form")
        : "form";
      setErrors({
        [field.startsWith("nightRanges") ? "nightRanges" : field]: err instanceof ApiError
          ? err.message
          : t("ui.requestFailed"),
      });
    }
  };
  return (
    <div class="form-section">
      <form class="toolbar" onSubmit={load}>
        <input
          class="input"
          name="thresholdImei"
          inputMode="numeric"
          maxLength={15}
          placeholder={t("alerts.center.imei")}
          aria-label={t("alerts.center.imei")}
          value={imei}
          onInput={(e) => setImei((e.target as HTMLInputElement).value)}
        />
        <button type="submit" class="btn btn-primary" disabled={!/^\d{15}$/.test(imei.trim())}>
          {t("alerts.thresholds.load")}
        </button>
        {errors.imei && <span class="field-error">{errors.imei}</span>}
      </form>
      {!loaded
        ? <p class="empty">{t("alerts.thresholds.pick")}</p>
        : (
          <form class="form-grid two" onSubmit={save}>
            <p class="muted span2">{t("alerts.thresholds.note")}</p>
            {NUMBERS.flat().map((k, i) =>
              k === null ? <div key={`gap${i}`} /> : (
                <Field
                  key={k}
                  label={t(`alerts.thresholds.${k}`)}
                  hint={t(`alerts.thresholds.hints.${k}`)}
                  error={errors[k]}
                >
                  <input
                    class="input"
                    name={k}
                    type="number"
                    step="any"
                    value={v[k]}
                    onInput={(e) => setV({ ...v, [k]: (e.target as HTMLInputElement).value })}
                  />
                </Field>
              )
            )}
            <fieldset class="span2 reminder-dates">
              <legend>{t("alerts.thresholds.reminders")}</legend>
              {DATES.map((k) => (
                <Field key={k} label={t(`alerts.thresholds.${k}`)} error={errors[k]}>
                  <input
                    class="input"
                    name={k}
                    type="date"
                    value={v[k]}
                    onInput={(e) =>
                      setV({ ...v, [k]: (e.target as HTMLInputElement).value })}
                  />
                </Field>
              ))}
            </fieldset>
            <NightRangesField
              t={t}
              ranges={v.nightRanges}
              onChange={(nightRanges) => setV({ ...v, nightRanges })}
              error={errors.nightRanges}
            />
            {errors.form && <p class="form-error">{errors.form}</p>}
            <div class="form-actions">
              <button type="submit" class="btn btn-primary">{t("ui.save")}</button>
            </div>
          </form>
        )}
    </div>
  );
}

/** Up to three night time ranges of the device. */
function NightRangesField(
  { t, ranges, onChange, error }: {
    t: TFunction;
    ranges: Values["nightRanges"];
    onChange: (ranges: Values["nightRanges"]) => void;
    error?: string;
  },
) {
  const setRange = (i: number, k: "start" | "end", value: string) =>
    onChange(ranges.map((r, j) => (j === i ? { ...r, [k]: value } : r)));
  return (
    <fieldset class="night-ranges">
      <legend>{t("alerts.thresholds.nightRanges")}</legend>
      {ranges.map((r, i) => (
        <div key={i} class="inline-row">
          <input
            class="input"
            type="time"
            aria-label={t("alerts.thresholds.start")}
            value={r.start}
            onInput={(e) => setRange(i, "start", (e.target as HTMLInputElement).value)}
          />
          <span>–</span>
          <input
            class="input"
            type="time"
            aria-label={t("alerts.thresholds.end")}
            value={r.end}
            onInput={(e) => setRange(i, "end", (e.target as HTMLInputElement).value)}
          />
          <button
            type="button"
            class="link-btn danger"
            onClick={() => onChange(ranges.filter((_, j) => j !== i))}
          >
            {t("ui.delete")}
          </button>
        </div>
      ))}
      {ranges.length < 3 && (
        <button
          type="button"
          class="link-btn"
          onClick={() => onChange([...ranges, { start: "00:00", end: "05:00" }])}
        >
          + {t("alerts.thresholds.addRange")}
        </button>
      )}
      {error && <span class="field-error">{error}</span>}
    </fieldset>
  );
}
