import { useState } from "react";
import { island } from "../../lib/islands/island.tsx";
import { api, ApiError } from "../../lib/client/api.ts";
import { type Lang, translator } from "../../lib/i18n/i18n.ts";
import { Field } from "../../components/ui/Field.tsx";
import { passwordProblem } from "../auth/ChangePasswordForm.tsx";

/** /demoPassword: the mailed one-time link's page, where a trial account gets its password. */
function SetPasswordForm({ lang, token }: { lang: Lang; token: string }) {
  const t = translator(lang);
  const [v, setV] = useState({ password: "", confirmPassword: "" });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [account, setAccount] = useState("");

  const submit = async (e: Event) => {
    e.preventDefault();
    const found: Record<string, string> = {};
    const problem = passwordProblem(v.password);
    if (problem) found.password = t(`validation.${problem}`, { min: 8, max: 50 });
    if (v.confirmPassword !== v.password) found.confirmPassword = t("errors.passwordMismatch");
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      const r = await api<{ account: string }>("/v3/new/demo/setPassword", { token, ...v });
      setAccount(r.account);
    } catch (err) {
      setErrors({ form: err instanceof ApiError ? err.message : t("ui.requestFailed") });
    } finally {
      setBusy(false);
    }
  };
  if (!token) {
    return (
      <div class="login-card demo-card">
        <h2>{t("demo.password.title")}</h2>
        <p class="form-error">{t("demo.password.missing")}</p>
      </div>
    );
  }
  if (account) {
    return (
      <div class="login-card demo-card">
        <h2>{t("demo.password.title")}</h2>
        <p class="notice" id="demo-password-done">{t("demo.password.done", { account })}</p>
        <a class="btn btn-primary btn-block" href="/login">{t("demo.password.login")}</a>
      </div>
    );
  }
  const input = (name: keyof typeof v) => (
    <input
      name={name}
      type="password"
      autocomplete="new-password"
      maxLength={50}
      value={v[name]}
      onInput={(e) => setV({ ...v, [name]: (e.target as HTMLInputElement).value })}
    />
  );
  return (
    <form class="login-card demo-card" onSubmit={submit} noValidate>
      <h2>{t("demo.password.title")}</h2>
      <p class="sub">{t("demo.password.intro")}</p>
      {errors.form && <div class="form-error" role="alert">{errors.form}</div>}
      <Field label={t("demo.password.password")} required error={errors.password}>
        {input("password")}
      </Field>
      <Field label={t("demo.password.confirm")} required error={errors.confirmPassword}>
        {input("confirmPassword")}
      </Field>
      <button
        type="submit"
        class="btn btn-primary btn-block"
        id="demo-password-submit"
        disabled={busy}
      >
        {t("demo.password.submit")}
      </button>
    </form>
  );
}

export default island("demo/SetPasswordForm", SetPasswordForm);
