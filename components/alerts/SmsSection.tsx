/** The push tab's SMS channel: alert SMS through the server's SMS gateway, paid with credits. */
import { Field } from "../ui/Field.tsx";
import { TypeChecks } from "./TypeChecks.tsx";
import { CheckBox } from "./CheckBox.tsx";
import { edit, type PushSettingsState } from "./push_settings.ts";

const OFF = { enabled: false, phone: "", types: [] };

export function SmsSection({ s }: { s: PushSettingsState }) {
  const { t } = s, v = s.settings.value!, sms = v.sms ?? OFF;
  return (
    <>
      <h3>{t("alerts.settings.sms")}</h3>
      <CheckBox
        name="smsEnabled"
        label={t("alerts.settings.smsEnabled")}
        checked={sms.enabled}
        onChange={(on) => edit(s, { sms: { ...sms, enabled: on } })}
      />
      <Field
        label={t("alerts.settings.phone")}
        error={s.errors.value.sms}
        hint={t("alerts.settings.smsHint")}
      >
        <input
          class="input"
          name="smsPhone"
          type="tel"
          maxLength={21}
          placeholder="+8613800000000"
          value={sms.phone}
          onInput={(e) =>
            edit(s, { sms: { ...sms, phone: (e.target as HTMLInputElement).value.trim() } })}
        />
      </Field>
      {sms.enabled && (
        <TypeChecks
          t={t}
          label={t("alerts.settings.smsTypes")}
          value={sms.types}
          onChange={(types) => edit(s, { sms: { ...sms, types } })}
        />
      )}
    </>
  );
}
