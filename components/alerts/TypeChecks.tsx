import type { TFunction } from "i18next";
import { DEVICE_ALARM_TYPES, ENGINE_TYPES } from "../../modules/alerts/types.ts";
import type { AlertType } from "../../modules/alerts/types.ts";

/** Alert type checkboxes in two groups (platform alerts, device alarms) with select-all. */
export function TypeChecks(
  { t, label, value, onChange }: {
    t: TFunction;
    label: string;
    value: AlertType[];
    onChange: (v: AlertType[]) => void;
  },
) {
  const on = new Set(value);
  const toggle = (x: AlertType) =>
    onChange(on.has(x) ? value.filter((v) => v !== x) : [...value, x]);
  const groups = [
    ["engine", ENGINE_TYPES as readonly AlertType[]],
    ["device", DEVICE_ALARM_TYPES as readonly AlertType[]],
  ] as const;
  const all = [...ENGINE_TYPES, ...DEVICE_ALARM_TYPES] as AlertType[];
  return (
    <fieldset class="type-checks">
      <legend>
        {label}
        <button
          type="button"
          class="link-btn"
          onClick={() => onChange(value.length === all.length ? [] : all)}
        >
          {t(value.length === all.length ? "alerts.settings.none" : "alerts.settings.all")}
        </button>
      </legend>
      {groups.map(([key, types]) => (
        <div key={key}>
          <div class="muted small">{t(`alerts.settings.groups.${key}`)}</div>
          <div class="checks">
            {types.map((x) => (
              <label key={x} class="check">
                <input type="checkbox" checked={on.has(x)} onChange={() => toggle(x)} />
                {t(`alerts.type.${x}`)}
              </label>
            ))}
          </div>
        </div>
      ))}
    </fieldset>
  );
}
