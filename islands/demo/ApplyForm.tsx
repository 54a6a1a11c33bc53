import { useEffect, useState } from "react";
import { island } from "../../lib/islands/island.tsx";
import { api, ApiError, refusedField } from "../../lib/client/api.ts";
import { type Lang, translator } from "../../lib/i18n/i18n.ts";
import { Field } from "../../components/ui/Field.tsx";
import { DEMO_LIMITS } from "../../modules/demo/model.ts";

type Values = Record<
  "name" | "company" | "department" | "phone" | "email" | "region" | "captchaCode",
  string
>;
const EMPTY: Values = {
  name: "",
  company: "",
  department: "",
  phone: "",
  email: "",
  region: "",
  captchaCode: "",
};
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** What the form finds wrong before sending (the server checks the same, and more). */
function problems(v: Values, consent: boolean, t: ReturnType<typeof translator>) {
  const found: Record<string, string> = {};
  for (const k of ["name", "company", "department", "phone", "email"] as const) {
    if (!v[k].trim()) found[k] = t("validation.required");
  }
  if (v.phone.trim() && !/^[0-9+\-]{5,20}$/.test(v.phone.trim())) {
    found.phone = t("validation.phoneForm");
  }
  if (v.email.trim() && !EMAIL.test(v.email.trim())) found.email = t("validation.format.email");
  if (!v.captchaCode.trim()) found.captchaCode = t("validation.required");
  if (!consent) found.consent = t("validation.consentRequired");
  return found;
}

/** The public demo application (/accountApply): contact details, consent, captcha. */
function ApplyForm({ lang, days }: { lang: Lang; days: number }) {
  const t = translator(lang);
  const [v, setV] = useState<Values>(EMPTY);
  const [consent, setConsent] = useState(false);
  const [captcha, setCaptcha] = useState<{ captchaId: string; image: string } | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [sentTo, setSentTo] = useState("");

  const loadCaptcha = async () => {
    try {
      setCaptcha(await api("/v3/new/account/captcha"));
    } catch { /* the image stays empty; sending tells why */ }
  };
  useEffect(() => void loadCaptcha(), []);

  const submit = async (e: Event) => {
    e.preventDefault();
    const found = problems(v, consent, t);
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      const region = v.region.trim();
      await api("/v3/new/demo/apply", {
        name: v.name.trim(),
        company: v.company.trim(),
        department: v.department.trim(),
        phone: v.phone.trim(),
        email: v.email.trim(),
        ...(region ? { region } : {}),
        consent: true,
        captchaId: captcha?.captchaId ?? "none",
        captchaCode: v.captchaCode.trim(),
      });
      setSentTo(v.email.trim());
    } catch (err) {
      const field = refusedField(err) ??
        (err instanceof ApiError && err.code === 40009 ? "captchaCode" : null) ??
        (err instanceof ApiError && err.code === 40050 ? "email" : "form");
      setErrors({ [field]: err instanceof ApiError ? err.message : t("ui.requestFailed") });
      setV((old) => ({ ...old, captchaCode: "" }));
      loadCaptcha();
    } finally {
      setBusy(false);
    }
  };

  if (sentTo) {
    return (
      <div class="login-card demo-card">
        <h2>{t("demo.apply.title")}</h2>
        <p class="notice" id="demo-sent">{t("demo.apply.sent", { email: sentTo })}</p>
        <p class="login-foot">
          <a href="/login">← {t("login.backToLogin")}</a>
        </p>
      </div>
    );
  }
  const input = (name: keyof Values, max: number, extra: Record<string, unknown> = {}) => (
    <input
      name={name}
      value={v[name]}
      maxLength={max}
      onInput={(e) => setV({ ...v, [name]: (e.target as HTMLInputElement).value })}
      {...extra}
    />
  );
  return (
    <form class="login-card demo-card" onSubmit={submit} noValidate>
      <h2>{t("demo.apply.title")}</h2>
      <p class="sub">{t("demo.apply.intro", { days })}</p>
      {errors.form && <div class="form-error" role="alert">{errors.form}</div>}
      <div class="demo-grid">
        <Field label={t("demo.apply.name")} required error={errors.name}>
          {input("name", DEMO_LIMITS.name, { autocomplete: "name" })}
        </Field>
        <Field label={t("demo.apply.company")} required error={errors.company}>
          {input("company", DEMO_LIMITS.company, { autocomplete: "organization" })}
        </Field>
        <Field label={t("demo.apply.department")} required error={errors.department}>
          {input("department", DEMO_LIMITS.department)}
        </Field>
        <Field
          label={t("demo.apply.phone")}
          required
          error={errors.phone}
          hint={t("demo.apply.phoneHint")}
        >
          {input("phone", DEMO_LIMITS.phone, { type: "tel", autocomplete: "tel" })}
        </Field>
        <Field label={t("demo.apply.email")} required error={errors.email}>
          {input("email", DEMO_LIMITS.email, { type: "email", autocomplete: "email" })}
        </Field>
        <Field label={t("demo.apply.region")} error={errors.region}>
          {input("region", DEMO_LIMITS.region, { autocomplete: "address-level1" })}
        </Field>
      </div>
      <Field label={t("demo.apply.captcha")} required error={errors.captchaCode}>
        <div class="captcha-row">
          {input("captchaCode", 6, { autocomplete: "off" })}
          <button
            type="button"
            class="captcha-img"
            title={t("demo.apply.refresh")}
            onClick={loadCaptcha}
          >
            {captcha && (
              <img
                alt={t("demo.apply.captcha")}
                src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(captcha.image)}`}
              />
            )}
          </button>
        </div>
      </Field>
      <label class={`demo-consent${errors.consent ? " has-error" : ""}`}>
        <input
          type="checkbox"
          name="consent"
          checked={consent}
          onChange={(e) => setConsent((e.target as HTMLInputElement).checked)}
        />
        <span>
          {t("demo.apply.consent")}{" "}
          <a href="/agreements" target="_blank" rel="noopener">{t("demo.apply.agreement")}</a>
        </span>
      </label>
      {errors.consent && <p class="field-error" role="alert">{errors.consent}</p>}
      <button type="submit" class="btn btn-primary btn-block" id="demo-submit" disabled={busy}>
        {t("demo.apply.submit")}
      </button>
      <div class="login-foot">
        <span>
          {t("demo.apply.haveAccount")} <a href="/login">{t("demo.apply.login")}</a>
        </span>
      </div>
    </form>
  );
}

export default island("demo/ApplyForm", ApplyForm);
