import { useState } from "react";
import { island } from "../../lib/islands/island.tsx";
import { api, ApiError, refusedField } from "../../lib/client/api.ts";
import { type Lang, translator } from "../../lib/i18n/i18n.ts";
import { Field } from "../../components/ui/Field.tsx";
import { toast, Toasts } from "../../components/ui/Toast.tsx";
import type { CurrentUser } from "../../app/pages/context.ts";
import { OwnEmailEditor } from "../../components/accounts/OwnEmailEditor.tsx";

type Form = {
  nickName: string;
  contact: string;
  phone: string;
  companyName: string;
  country: string;
  timeZones: string;
  language: Lang;
  showUnit: string;
  capacity: string;
  temperature: string;
  userMapType: string;
  googleMapKey: string;
  shareGoogleMapKey: 0 | 1;
};

const TIME_ZONES = [
  "UTC",
  "Asia/Shanghai",
  "Asia/Hong_Kong",
  "Asia/Singapore",
  "Asia/Kolkata",
  "Asia/Dubai",
  "Asia/Tokyo",
  "Europe/London",
  "Europe/Berlin",
  "Europe/Paris",
  "Europe/Moscow",
  "America/New_York",
  "America/Chicago",
  "America/Denver",
  "America/Los_Angeles",
  "America/Sao_Paulo",
  "America/Mexico_City",
  "Australia/Sydney",
  "Africa/Johannesburg",
  "Africa/Lagos",
];

/** Profile and units of the logged-in user (/myProfile). */
function ProfileForm({ lang, user }: { lang: Lang; user: CurrentUser }) {
  const t = translator(lang);
  const profile = useProfileForm(t, lang, user);
  const { form, set, errors } = profile;
  return (
    <form class="panel" onSubmit={profile.save} noValidate>
      <Toasts />
      <div class="panel-title">
        <h1>{t("settings.items.profile")}</h1>
      </div>
      <AccountFacts t={t} user={user} />
      {profile.formError && <div class="form-error" role="alert">{profile.formError}</div>}
      <div class="form-grid">
        <Field label={t("settings.profile.nickName")} error={errors.nickName} required>
          <input name="nickName" value={form.nickName} maxLength={25} onInput={set("nickName")} />
        </Field>
        <Field label={t("settings.profile.contact")} error={errors.contact}>
          <input name="contact" value={form.contact} maxLength={100} onInput={set("contact")} />
        </Field>
        <Field label={t("settings.profile.phone")} error={errors.phone}>
          <input name="phone" value={form.phone} maxLength={20} onInput={set("phone")} />
        </Field>
        <Field label={t("settings.profile.company")} error={errors.companyName}>
          <input
            name="companyName"
            value={form.companyName}
            maxLength={100}
            onInput={set("companyName")}
          />
        </Field>
        <Field label={t("settings.profile.timeZone")} error={errors.timeZones}>
          <select name="timeZones" value={form.timeZones} onChange={set("timeZones")}>
            {[...new Set([form.timeZones, ...TIME_ZONES])].map((z) => (
              <option key={z} value={z}>{z}</option>
            ))}
          </select>
        </Field>
        <Field label={t("shell.language")}>
          <select name="language" value={form.language} onChange={set("language")}>
            <option value="en">{t("shell.languages.en")}</option>
            <option value="zh">{t("shell.languages.zh")}</option>
          </select>
        </Field>
        <UnitAndMapFields t={t} profile={profile} />
        {/* One alarm-sound setting: it lives with the other push settings (alert settings). */}
        <Field label={t("settings.profile.alarmSound")}>
          <a id="profile-alarm-sound" class="field-link" href="/settingAlert">
            {t("settings.profile.alarmSoundWhere")}
          </a>
        </Field>
      </div>
      <button type="submit" class="btn btn-primary" id="profile-save" disabled={profile.busy}>
        {t("ui.save")}
      </button>
    </form>
  );
}

type Translate = ReturnType<typeof translator>;
type ProfileState = ReturnType<typeof useProfileForm>;

const speedFor = (unit: string) => unit === "mi" ? "mph" : unit === "nmi" ? "knot" : "km/h";

/** The profile being edited, its checks, and saving it (a new language reloads the page). */
function useProfileForm(t: Translate, lang: Lang, user: CurrentUser) {
  const [form, setForm] = useState<Form>({
    nickName: user.nickName,
    contact: user.contact,
    phone: user.phone,
    companyName: user.companyName,
    country: user.country,
    timeZones: user.timeZones || "UTC",
    language: user.language === "zh" ? "zh" : "en",
    showUnit: user.showUnit,
    capacity: user.capacity,
    temperature: user.temperature,
    userMapType: user.userMapType,
    googleMapKey: user.googleMapKey,
    shareGoogleMapKey: user.shareGoogleMapKey === 1 ? 1 : 0,
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState("");
  const [busy, setBusy] = useState(false);
  const set = (k: keyof Form) => (e: Event) =>
    setForm({ ...form, [k]: (e.target as HTMLInputElement).value } as Form);

  const validate = (): Record<string, string> => {
    const out: Record<string, string> = {};
    const nick = form.nickName.trim();
    if (nick.length < 3 || nick.length > 25) out.nickName = t("settings.profile.nickNameRule");
    if (form.contact.length > 100) out.contact = t("validation.tooLong", { max: 100 });
    if (!/^[0-9+\-]*$/.test(form.phone) || form.phone.length > 20) {
      out.phone = t("validation.phoneForm");
    }
    return out;
  };

  const save = async (e: Event) => {
    e.preventDefault();
    const found = validate();
    setErrors(found);
    setFormError("");
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      await api("/v3/new/account/updateProfile", form);
      toast(t("ui.saved"));
      if (form.language !== lang) {
        await api("/v3/new/tools/locale", { lang: form.language });
        location.reload();
      }
    } catch (err) {
      const field = refusedField(err);
      if (field) setErrors({ [field]: (err as ApiError).message });
      else setFormError(err instanceof ApiError ? err.message : t("ui.requestFailed"));
    } finally {
      setBusy(false);
    }
  };
  return { form, setForm, set, errors, formError, busy, save };
}

/** What the user cannot edit here: account, type, email, expiry. */
function AccountFacts({ t, user }: { t: Translate; user: CurrentUser }) {
  return (
    <dl class="kv-list">
      <dt>{t("settings.profile.account")}</dt>
      <dd id="profile-account">{user.account}</dd>
      <dt>{t("settings.profile.type")}</dt>
      <dd>
        {t(`shell.accountTypes.${user.accountType}`)}
        {user.userFictitiousFlag && ` · ${t("settings.profile.virtual")}`}
      </dd>
      <dt>{t("settings.profile.email")}</dt>
      <dd>
        <OwnEmailEditor t={t} email={user.email} canChange={!user.userFictitiousFlag} />
      </dd>
      <dt>{t("settings.profile.expiry")}</dt>
      <dd>{user.expiration ?? t("settings.profile.noExpiry")}</dd>
    </dl>
  );
}

/** Units and map settings. */
function UnitAndMapFields({ t, profile }: { t: Translate; profile: ProfileState }) {
  const { form, set, errors } = profile;
  return (
    <>
      <Field
        label={t("settings.profile.distance")}
        hint={t("settings.profile.speedHint", { speed: speedFor(form.showUnit) })}
      >
        <select name="showUnit" value={form.showUnit} onChange={set("showUnit")}>
          <option value="km">km</option>
          <option value="mi">mi</option>
          <option value="nmi">nmi</option>
        </select>
      </Field>
      <Field label={t("settings.profile.capacity")}>
        <select name="capacity" value={form.capacity} onChange={set("capacity")}>
          <option value="L">{t("settings.profile.litre")}</option>
          <option value="GAL">{t("settings.profile.gallon")}</option>
        </select>
      </Field>
      <Field label={t("settings.profile.temperature")}>
        <select name="temperature" value={form.temperature} onChange={set("temperature")}>
          <option value="°C">°C</option>
          <option value="°F">°F</option>
        </select>
      </Field>
      <Field label={t("settings.profile.mapType")}>
        <select name="userMapType" value={form.userMapType} onChange={set("userMapType")}>
          {["OpenStreetMap", "Google", "BMap", "Bing"].map((m) => (
            <option key={m} value={m}>{t(`settings.profile.maps.${m}`)}</option>
          ))}
        </select>
      </Field>
      <Field label={t("settings.profile.googleKey")} error={errors.googleMapKey}>
        <input
          name="googleMapKey"
          value={form.googleMapKey}
          maxLength={100}
          onInput={set("googleMapKey")}
        />
      </Field>
      <Field label={t("settings.profile.shareGoogleKey")}>
        <select
          name="shareGoogleMapKey"
          value={String(form.shareGoogleMapKey)}
          onChange={(e) =>
            profile.setForm({
              ...form,
              shareGoogleMapKey: (e.target as HTMLSelectElement).value === "1" ? 1 : 0,
            })}
        >
          <option value="0">{t("settings.profile.off")}</option>
          <option value="1">{t("settings.profile.on")}</option>
        </select>
      </Field>
    </>
  );
}

export default island("accounts/ProfileForm", ProfileForm);
