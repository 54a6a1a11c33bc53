import { useState } from "react";
import { island } from "../../lib/islands/island.tsx";
import { api, ApiError } from "../../lib/client/api.ts";
import { type Lang, translator } from "../../lib/i18n/i18n.ts";
import { Field } from "../../components/ui/Field.tsx";
import { passwordProblem } from "./ChangePasswordForm.tsx";

/** Password recovery: a code mailed to the account's email, then a new password. */
function ForgotPassword({ lang }: { lang: Lang }) {
  const t = translator(lang);
  const [step, setStep] = useState<"account" | "reset" | "done">("account");
  const [account, setAccount] = useState("");
  const [email, setEmail] = useState("");
  const [v, setV] = useState({ code: "", password: "", confirmPassword: "" });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const refusal = (e: unknown, field = "form") =>
    setErrors({ [field]: e instanceof ApiError ? e.message : t("ui.requestFailed") });

  const send = async (e: Event) => {
    e.preventDefault();
    if (!account.trim()) return setErrors({ account: t("validation.required") });
    setBusy(true);
    try {
      const r = await api<{ email: string }>("/v3/new/passwordRecovery/sendCode", {
        account: account.trim(),
      });
      setEmail(r.email);
      setErrors({});
      setStep("reset");
    } catch (err) {
      refusal(err, "account");
    } finally {
      setBusy(false);
    }
  };
  const reset = async (e: Event) => {
    e.preventDefault();
    const found: Record<string, string> = {};
    if (!/^\d{6}$/.test(v.code.trim())) found.code = t("validation.codeForm");
    const problem = passwordProblem(v.password);
    if (problem) found.password = t(`validation.${problem}`, { min: 8, max: 50 });
    if (v.confirmPassword !== v.password) found.confirmPassword = t("errors.passwordMismatch");
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      await api("/v3/new/passwordRecovery/reset", {
        account: account.trim(),
        ...v,
        code: v.code.trim(),
      });
      setStep("done");
    } catch (err) {
      refusal(err, err instanceof ApiError && [40010, 40011].includes(err.code) ? "code" : "form");
    } finally {
      setBusy(false);
    }
  };
  const input = (name: keyof typeof v, type: string, auto: string) => (
    <input
      class="input"
      name={name}
      type={type}
      autocomplete={auto}
      value={v[name]}
      onInput={(e) => setV({ ...v, [name]: (e.target as HTMLInputElement).value })}
    />
  );
  return (
    <div class="login-card forgot-card">
      <h2>{t("alerts.recovery.title")}</h2>
      {step === "account" && (
        <form onSubmit={send}>
          <p class="muted">{t("alerts.recovery.intro")}</p>
          <Field label={t("alerts.recovery.account")} error={errors.account}>
            <input
              class="input"
              name="account"
              autocomplete="username"
              maxLength={50}
              value={account}
              onInput={(e) => setAccount((e.target as HTMLInputElement).value)}
            />
          </Field>
          <button type="submit" class="btn btn-primary btn-block" disabled={busy}>
            {t("alerts.recovery.send")}
          </button>
        </form>
      )}
      {step === "reset" && (
        <form onSubmit={reset}>
          <p class="notice">{t("alerts.recovery.sent", { email })}</p>
          <Field label={t("alerts.settings.code")} error={errors.code}>
            {input("code", "text", "one-time-code")}
          </Field>
          <Field label={t("alerts.recovery.newPassword")} error={errors.password}>
            {input("password", "password", "new-password")}
          </Field>
          <Field label={t("alerts.recovery.confirm")} error={errors.confirmPassword}>
            {input("confirmPassword", "password", "new-password")}
          </Field>
          {errors.form && <p class="form-error">{errors.form}</p>}
          <button type="submit" class="btn btn-primary btn-block" disabled={busy}>
            {t("alerts.recovery.reset")}
          </button>
        </form>
      )}
      {step === "done" && <p class="notice">{t("alerts.recovery.done")}</p>}
      <p class="login-foot">
        <a href="/login">← {t("login.backToLogin")}</a>
      </p>
    </div>
  );
}

export default island("auth/ForgotPassword", ForgotPassword);
