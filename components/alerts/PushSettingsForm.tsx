/**
 * The push tab of /settingAlert: console pop-up and sound, mail (verified address), webhook,
 * SMS (credits).
 */
import { Field } from "../ui/Field.tsx";
import { TypeChecks } from "./TypeChecks.tsx";
import { CheckBox } from "./CheckBox.tsx";
import { SmsSection } from "./SmsSection.tsx";
import {
  edit,
  newAddress,
  type PushSettingsState,
  save,
  sendCode,
  verify,
} from "./push_settings.ts";

export function PushSettingsForm({ s }: { s: PushSettingsState }) {
  const { t } = s, errors = s.errors.value;
  return (
    <form class="form-section" onSubmit={(e) => save(s, e)}>
      <ConsoleSection s={s} />
      <MailSection s={s} />
      <WebhookSection s={s} />
      <SmsSection s={s} />
      {errors.form && <p class="form-error">{errors.form}</p>}
      <div class="form-actions">
        <button type="submit" class="btn btn-primary">{t("ui.save")}</button>
      </div>
    </form>
  );
}

function ConsoleSection({ s }: { s: PushSettingsState }) {
  const { t } = s, v = s.settings.value!;
  return (
    <>
      <h3>{t("alerts.settings.console")}</h3>
      <div class="checks">
        <CheckBox
          name="popup"
          label={t("alerts.settings.popup")}
          checked={v.popup}
          onChange={(on) => edit(s, { popup: on })}
        />
        <CheckBox
          name="sound"
          label={t("alerts.settings.sound")}
          checked={v.sound}
          onChange={(on) => edit(s, { sound: on })}
        />
      </div>
      <Field label={t("alerts.settings.silence")} hint={t("alerts.settings.silenceHint")}>
        <input
          class="input narrow-input"
          name="silenceMinutes"
          type="number"
          min={0}
          max={60}
          value={v.silenceMinutes}
          onInput={(e) => edit(s, { silenceMinutes: Number((e.target as HTMLInputElement).value) })}
        />
      </Field>
      <TypeChecks
        t={t}
        label={t("alerts.settings.pushTypes")}
        value={v.pushTypes}
        onChange={(pushTypes) => edit(s, { pushTypes })}
      />
    </>
  );
}

function MailSection({ s }: { s: PushSettingsState }) {
  const { t } = s, v = s.settings.value!, errors = s.errors.value, verified = s.verified.value;
  const asking = newAddress(s) && !verified;
  return (
    <>
      <h3>{t("alerts.settings.mail")}</h3>
      <CheckBox
        name="emailEnabled"
        label={t("alerts.settings.mailEnabled")}
        checked={v.email.enabled}
        onChange={(on) => edit(s, { email: { ...v.email, enabled: on } })}
      />
      <Field
        label={t("alerts.settings.address")}
        error={errors.email}
        hint={asking ? t("alerts.settings.verifyHint") : undefined}
      >
        <div class="inline-row">
          <input
            class="input"
            name="email"
            type="email"
            maxLength={100}
            value={v.email.address}
            onInput={(e) => {
              s.verified.value = false;
              const address = (e.target as HTMLInputElement).value.trim();
              edit(s, { email: { ...s.settings.peek()!.email, address } });
            }}
          />
          {asking && (
            <button type="button" class="btn" onClick={() => sendCode(s)}>
              {t("alerts.settings.sendCode")}
            </button>
          )}
          {verified && <span class="badge ok">{t("alerts.settings.verified")}</span>}
        </div>
      </Field>
      {asking && <CodeField s={s} />}
      {v.email.enabled && (
        <TypeChecks
          t={t}
          label={t("alerts.settings.mailTypes")}
          value={v.email.types}
          onChange={(types) => edit(s, { email: { ...v.email, types } })}
        />
      )}
    </>
  );
}

/** The code mailed to a new address, and the button that checks it. */
function CodeField({ s }: { s: PushSettingsState }) {
  const { t } = s, code = s.code.value;
  return (
    <Field label={t("alerts.settings.code")} error={s.errors.value.code}>
      <div class="inline-row">
        <input
          class="input narrow-input"
          name="code"
          inputMode="numeric"
          maxLength={6}
          value={code}
          onInput={(e) => (s.code.value = (e.target as HTMLInputElement).value)}
        />
        <button
          type="button"
          class="btn"
          disabled={code.trim().length !== 6}
          onClick={() => verify(s)}
        >
          {t("alerts.settings.verify")}
        </button>
      </div>
    </Field>
  );
}

function WebhookSection({ s }: { s: PushSettingsState }) {
  const { t } = s, v = s.settings.value!;
  return (
    <>
      <h3>{t("alerts.settings.webhook")}</h3>
      <CheckBox
        name="webhookEnabled"
        label={t("alerts.settings.webhookEnabled")}
        checked={v.webhook.enabled}
        onChange={(on) => edit(s, { webhook: { ...v.webhook, enabled: on } })}
      />
      <Field
        label={t("alerts.settings.url")}
        error={s.errors.value.webhook}
        hint={t("alerts.settings.webhookHint")}
      >
        <input
          class="input"
          name="webhookUrl"
          type="url"
          maxLength={500}
          placeholder="https://"
          value={v.webhook.url}
          onInput={(e) =>
            edit(s, {
              webhook: { ...v.webhook, url: (e.target as HTMLInputElement).value.trim() },
            })}
        />
      </Field>
      {v.webhook.secret && (
        <Field label={t("alerts.settings.secret")} hint={t("alerts.settings.secretHint")}>
          <input class="input mono" readOnly value={v.webhook.secret} />
        </Field>
      )}
      {v.webhook.enabled && (
        <TypeChecks
          t={t}
          label={t("alerts.settings.webhookTypes")}
          value={v.webhook.types}
          onChange={(types) => edit(s, { webhook: { ...v.webhook, types } })}
        />
      )}
    </>
  );
}
