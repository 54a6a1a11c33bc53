import { useEffect, useState } from "react";
import { island } from "../../lib/islands/island.tsx";
import { api, ApiError } from "../../lib/client/api.ts";
import { type Lang, translator } from "../../lib/i18n/i18n.ts";
import { Field } from "../../components/ui/Field.tsx";
import { toast, Toasts } from "../../components/ui/Toast.tsx";
import { DeviceThresholds } from "../../components/alerts/DeviceThresholds.tsx";
import { TypeChecks } from "../../components/alerts/TypeChecks.tsx";
import { CheckBox } from "../../components/alerts/CheckBox.tsx";
import { BroadcastRules } from "../../components/alerts/BroadcastRules.tsx";
import type { AccountRef } from "../../components/accounts/types.ts";
import type { AccountAlertSettings } from "../../modules/alerts/schemas.ts";
import { TabButtons } from "../../components/ui/TabButtons.tsx";

const TABS = ["push", "device", "broadcast"] as const;

/**
 * /settingAlert: push settings of the account, mail with verification, webhook, device
 * thresholds and auto broadcast rules.
 */
function AlertSettings({ lang, root }: { lang: Lang; root: AccountRef }) {
  const t = translator(lang);
  const [s, setS] = useState<AccountAlertSettings | null>(null);
  const [saved, setSaved] = useState<AccountAlertSettings | null>(null);
  const [code, setCode] = useState("");
  const [verified, setVerified] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [tab, setTab] = useState<typeof TABS[number]>("push");
  const fail = (e: unknown) =>
    toast(e instanceof ApiError ? e.message : t("ui.requestFailed"), "error");
  useEffect(() => {
    api<AccountAlertSettings>("/v3/new/alarm/settings/get", {}).then((x) => {
      const { userId: _u, ...rest } = x as AccountAlertSettings & { userId: string };
      setS(rest);
      setSaved(rest);
    }).catch(fail);
  }, []);
  if (!s || !saved) {
    return (
      <div class="panel">
        <p class="table-loading">{t("ui.loading")}</p>
      </div>
    );
  }

  const newAddress = !!s.email.address &&
    s.email.address.toLowerCase() !== saved.email.address.toLowerCase();
  const sendCode = async () => {
    try {
      await api("/v3/new/alarm/email/sendCode", { email: s.email.address });
      toast(t("alerts.settings.codeSent", { email: s.email.address }));
    } catch (e) {
      setErrors({ email: e instanceof ApiError ? e.message : t("ui.requestFailed") });
    }
  };
  const verify = async () => {
    try {
      await api("/v3/new/alarm/email/verify", { email: s.email.address, code: code.trim() });
      setVerified(true);
      setErrors({});
      toast(t("errors.emailVerifySucceeded"));
    } catch (e) {
      setErrors({ code: e instanceof ApiError ? e.message : t("ui.requestFailed") });
    }
  };
  const save = async (e: Event) => {
    e.preventDefault();
    try {
      const r = await api<AccountAlertSettings & { userId: string }>(
        "/v3/new/alarm/settings/save",
        s,
      );
      const { userId: _u, ...rest } = r;
      setS(rest);
      setSaved(rest);
      setVerified(false);
      setCode("");
      setErrors({});
      toast(t("ui.saved"));
    } catch (err) {
      const field = err instanceof ApiError
        ? String((err.data as { field?: string } | null)?.field ?? "")
        : "";
      const msg = err instanceof ApiError ? err.message : t("ui.requestFailed");
      setErrors({
        [
          field.startsWith("email") || (err as ApiError).code === 46001
            ? "email"
            : field.startsWith("webhook")
            ? "webhook"
            : "form"
        ]: msg,
      });
    }
  };
  return (
    <div class="panel alert-settings">
      <div class="panel-title">
        <h1>{t("settings.items.settingAlert")}</h1>
      </div>
      <div class="gf-tabs" role="tablist">
        <TabButtons
          tabs={TABS}
          active={tab}
          onSelect={setTab}
          label={(k) => t(`alerts.settings.tabs.${k}`)}
        />
      </div>
      {tab === "device"
        ? <DeviceThresholds t={t} />
        : tab === "broadcast"
        ? <BroadcastRules t={t} root={root} />
        : (
          <form class="form-section" onSubmit={save}>
            <h3>{t("alerts.settings.console")}</h3>
            <div class="checks">
              <CheckBox
                name="popup"
                label={t("alerts.settings.popup")}
                checked={s.popup}
                onChange={(v) => setS({ ...s, popup: v })}
              />
              <CheckBox
                name="sound"
                label={t("alerts.settings.sound")}
                checked={s.sound}
                onChange={(v) => setS({ ...s, sound: v })}
              />
            </div>
            <Field label={t("alerts.settings.silence")} hint={t("alerts.settings.silenceHint")}>
              <input
                class="input narrow-input"
                name="silenceMinutes"
                type="number"
                min={0}
                max={60}
                value={s.silenceMinutes}
                onInput={(e) =>
                  setS({ ...s, silenceMinutes: Number((e.target as HTMLInputElement).value) })}
              />
            </Field>
            <TypeChecks
              t={t}
              label={t("alerts.settings.pushTypes")}
              value={s.pushTypes}
              onChange={(pushTypes) => setS({ ...s, pushTypes })}
            />

            <h3>{t("alerts.settings.mail")}</h3>
            <CheckBox
              name="emailEnabled"
              label={t("alerts.settings.mailEnabled")}
              checked={s.email.enabled}
              onChange={(v) =>
                setS({
                  ...s,
                  email: { ...s.email, enabled: v },
                })}
            />
            <Field
              label={t("alerts.settings.address")}
              error={errors.email}
              hint={newAddress && !verified ? t("alerts.settings.verifyHint") : undefined}
            >
              <div class="inline-row">
                <input
                  class="input"
                  name="email"
                  type="email"
                  maxLength={100}
                  value={s.email.address}
                  onInput={(e) => {
                    setVerified(false);
                    setS({
                      ...s,
                      email: { ...s.email, address: (e.target as HTMLInputElement).value.trim() },
                    });
                  }}
                />
                {newAddress && !verified && (
                  <button type="button" class="btn" onClick={sendCode}>
                    {t("alerts.settings.sendCode")}
                  </button>
                )}
                {verified && <span class="badge ok">{t("alerts.settings.verified")}</span>}
              </div>
            </Field>
            {newAddress && !verified && (
              <Field label={t("alerts.settings.code")} error={errors.code}>
                <div class="inline-row">
                  <input
                    class="input narrow-input"
                    name="code"
                    inputMode="numeric"
                    maxLength={6}
                    value={code}
                    onInput={(e) =>
                      setCode((e.target as HTMLInputElement).value)}
                  />
                  <button
                    type="button"
                    class="btn"
                    disabled={code.trim().length !== 6}
                    onClick={verify}
                  >
                    {t("alerts.settings.verify")}
                  </button>
                </div>
              </Field>
            )}
            {s.email.enabled && (
              <TypeChecks
                t={t}
                label={t("alerts.settings.mailTypes")}
                value={s.email.types}
                onChange={(types) => setS({ ...s, email: { ...s.email, types } })}
              />
            )}

            <h3>{t("alerts.settings.webhook")}</h3>
            <CheckBox
              name="webhookEnabled"
              label={t("alerts.settings.webhookEnabled")}
              checked={s.webhook.enabled}
              onChange={(v) =>
                setS({
                  ...s,
                  webhook: { ...s.webhook, enabled: v },
                })}
            />
            <Field
              label={t("alerts.settings.url")}
              error={errors.webhook}
              hint={t("alerts.settings.webhookHint")}
            >
              <input
                class="input"
                name="webhookUrl"
                type="url"
                maxLength={500}
                placeholder="https://"
                value={s.webhook.url}
                onInput={(e) =>
                  setS({
                    ...s,
                    webhook: { ...s.webhook, url: (e.target as HTMLInputElement).value.trim() },
                  })}
              />
            </Field>
            {s.webhook.secret && (
              <Field label={t("alerts.settings.secret")} hint={t("alerts.settings.secretHint")}>
                <input class="input mono" readOnly value={s.webhook.secret} />
              </Field>
            )}
            {s.webhook.enabled && (
              <TypeChecks
                t={t}
                label={t("alerts.settings.webhookTypes")}
                value={s.webhook.types}
                onChange={(types) => setS({ ...s, webhook: { ...s.webhook, types } })}
              />
            )}
            {errors.form && <p class="form-error">{errors.form}</p>}
            <div class="form-actions">
              <button type="submit" class="btn btn-primary">{t("ui.save")}</button>
            </div>
          </form>
        )}
      <Toasts />
    </div>
  );
}

export default island("alerts/AlertSettings", AlertSettings);
