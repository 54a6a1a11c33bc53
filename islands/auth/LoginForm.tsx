import { useEffect, useState } from "react";
import { island } from "../../lib/islands/island.tsx";
import { api, ApiError } from "../../lib/client/api.ts";
import { type Lang, LANGUAGES, translator } from "../../lib/i18n/i18n.ts";
import { Field } from "../../components/ui/Field.tsx";
import { safeRedirect } from "../../modules/auth/redirect.ts";

interface Props {
  lang: Lang;
  /** CAPTCHA=on: every login needs one. */
  captchaEnabled: boolean;
  /** Where to go after login; only same-origin paths are followed. */
  redirect: string;
}

/** The login answer says so when this account needs a captcha now (after failed logins). */
function captchaRequired(err: unknown): boolean {
  const data = err instanceof ApiError ? err.data as { captchaRequired?: unknown } | null : null;
  return data?.captchaRequired === true;
}

function LoginForm({ lang, captchaEnabled, redirect }: Props) {
  const t = translator(lang);
  const [account, setAccount] = useState("");
  const [password, setPassword] = useState("");
  const [code, setCode] = useState("");
  const [captcha, setCaptcha] = useState<{ captchaId: string; image: string } | null>(null);
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  // With CAPTCHA=off the server can still demand one for an account under attack.
  const [demanded, setDemanded] = useState(false);
  const showCaptcha = captchaEnabled || demanded;

  const loadCaptcha = async (force = false) => {
    if (!captchaEnabled && !demanded && !force) return;
    setCode("");
    try {
      setCaptcha(await api("/v3/new/account/captcha"));
    } catch (e) {
      setError((e as Error).message);
    }
  };
  useEffect(() => void loadCaptcha(), []);

  const submit = async (e: Event) => {
    e.preventDefault();
    if (!account.trim()) return setError(t("errors.userNameMissing"));
    if (!password) return setError(t("login.passwordMissing"));
    if (showCaptcha && !code.trim()) return setError(t("login.captchaMissing"));
    setBusy(true);
    setError("");
    try {
      await api("/v3/new/account/login", {
        account: account.trim(),
        password,
        ...(showCaptcha ? { captchaId: captcha?.captchaId, captchaCode: code.trim() } : {}),
      });
      location.href = safeRedirect(redirect, location.origin);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : t("ui.requestFailed"));
      setBusy(false);
      const required = captchaRequired(err);
      if (required) setDemanded(true);
      loadCaptcha(required);
    }
  };

  const switchLang = async (next: string) => {
    await api("/v3/new/tools/locale", { lang: next });
    location.reload();
  };

  return (
    <form class="login-card" onSubmit={submit} noValidate>
      <h2>{t("login.welcome")}</h2>
      <p class="sub">{t("login.subtitle")}</p>
      {error && <div class="form-error" role="alert" id="login-error">{error}</div>}
      <Field label={t("login.account")}>
        <input
          name="account"
          autocomplete="username"
          value={account}
          maxLength={100}
          onInput={(e) => setAccount((e.target as HTMLInputElement).value)}
          autoFocus
        />
      </Field>
      <Field label={t("login.password")}>
        <input
          name="password"
          type="password"
          autocomplete="current-password"
          value={password}
          maxLength={100}
          onInput={(e) => setPassword((e.target as HTMLInputElement).value)}
        />
      </Field>
      {showCaptcha && (
        <Field label={t("login.captcha")}>
          <div class="captcha-row">
            <input
              name="captchaCode"
              value={code}
              maxLength={6}
              autocomplete="off"
              onInput={(e) => setCode((e.target as HTMLInputElement).value)}
            />
            <button
              type="button"
              class="captcha-img"
              title={t("login.refreshCaptcha")}
              onClick={() => loadCaptcha(true)}
            >
              {captcha && (
                <img
                  alt={t("login.captcha")}
                  src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(captcha.image)}`}
                />
              )}
            </button>
          </div>
        </Field>
      )}
      <button type="submit" class="btn btn-primary btn-block" id="login-submit" disabled={busy}>
        {busy ? t("login.signingIn") : t("login.signIn")}
      </button>
      <div class="login-foot">
        <a href="/agreements">{t("login.terms")}</a>
        <a href="/forgotPassword">{t("alerts.recovery.link")}</a>
        <select
          aria-label={t("shell.language")}
          value={lang}
          onChange={(e) => switchLang((e.target as HTMLSelectElement).value)}
        >
          {LANGUAGES.map((l) => <option key={l} value={l}>{t(`shell.languages.${l}`)}</option>)}
        </select>
      </div>
    </form>
  );
}

export default island("auth/LoginForm", LoginForm);
