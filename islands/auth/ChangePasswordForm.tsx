import { useState } from "react";
import { island } from "../../lib/islands/island.tsx";
import { api, ApiError } from "../../lib/client/api.ts";
import { type Lang, translator } from "../../lib/i18n/i18n.ts";
import { Field } from "../../components/ui/Field.tsx";

/** Same rule as the server (docs/decisions.md): 8-50 characters with letters and digits. */
export function passwordProblem(pw: string): "tooShort" | "tooLong" | "passwordForm" | null {
  if (pw.length < 8) return "tooShort";
  if (pw.length > 50) return "tooLong";
  return /[A-Za-z]/.test(pw) && /[0-9]/.test(pw) ? null : "passwordForm";
}

function ChangePasswordForm({ lang, isVirtual }: { lang: Lang; isVirtual: boolean }) {
  const t = translator(lang);
  const [oldPassword, setOld] = useState("");
  const [newPassword, setNew] = useState("");
  const [confirmPassword, setConfirm] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState("");
  const [done, setDone] = useState(false);

  if (isVirtual) {
    return (
      <div class="panel narrow">
        <div class="panel-title">
          <h1>{t("settings.items.changePassword")}</h1>
        </div>
        <p class="notice">{t("errors.virtualCannotChangePassword")}</p>
      </div>
    );
  }

  const submit = async (e: Event) => {
    e.preventDefault();
    const found: Record<string, string> = {};
    if (!oldPassword) found.oldPassword = t("validation.required");
    const problem = passwordProblem(newPassword);
    if (problem) found.newPassword = t(`validation.${problem}`, { min: 8, max: 50 });
    if (confirmPassword !== newPassword) found.confirmPassword = t("errors.passwordMismatch");
    setErrors(found);
    setFormError("");
    if (Object.keys(found).length) return;
    try {
      await api("/v3/new/account/changePassword", { oldPassword, newPassword, confirmPassword });
      setDone(true);
      // Every session ends with the password change, this one too.
      setTimeout(() => (location.href = "/login"), 1500);
    } catch (err) {
      // Wrong old password, or too many wrong ones lately (40028): both on the old password.
      if (err instanceof ApiError && (err.code === 40012 || err.code === 40028)) {
        setErrors({ oldPassword: err.message });
      } else setFormError(err instanceof ApiError ? err.message : t("ui.requestFailed"));
    }
  };

  const input = (name: string, value: string, set: (v: string) => void, auto: string) => (
    <input
      name={name}
      type="password"
      autocomplete={auto}
      value={value}
      maxLength={50}
      onInput={(e) => set((e.target as HTMLInputElement).value)}
    />
  );
  return (
    <form class="panel narrow" onSubmit={submit} noValidate>
      <div class="panel-title">
        <h1>{t("settings.items.changePassword")}</h1>
      </div>
      {done && (
        <div class="notice" role="status" id="password-changed">
          {t("settings.password.changed")}
        </div>
      )}
      {formError && <div class="form-error" role="alert">{formError}</div>}
      <Field label={t("settings.password.old")} error={errors.oldPassword} required>
        {input("oldPassword", oldPassword, setOld, "current-password")}
      </Field>
      <Field
        label={t("settings.password.new")}
        error={errors.newPassword}
        hint={t("validation.passwordForm")}
        required
      >
        {input("newPassword", newPassword, setNew, "new-password")}
      </Field>
      <Field label={t("settings.password.confirm")} error={errors.confirmPassword} required>
        {input("confirmPassword", confirmPassword, setConfirm, "new-password")}
      </Field>
      <button type="submit" class="btn btn-primary" id="password-save" disabled={done}>
        {t("ui.save")}
      </button>
    </form>
  );
}

export default island("auth/ChangePasswordForm", ChangePasswordForm);
