import { useEffect, useState } from "react";
import { island } from "../../lib/islands/island.tsx";
import { api, ApiError } from "../../lib/client/api.ts";
import { type Lang, translator } from "../../lib/i18n/i18n.ts";
import { toast, Toasts } from "../../components/ui/Toast.tsx";
import { panelCall, toggled } from "../../components/openapi/panel.ts";
import {
  type CreatedKey,
  KEY_SCOPES,
  type KeyRow,
  type KeyScope,
  MAX_KEYS_PER_ACCOUNT,
} from "../../modules/openapi/model.ts";

/** /openApiKeys: the account's Open API app keys; the secret shown once after creation. */
function AppKeys({ lang }: { lang: Lang }) {
  const t = translator(lang);
  const [keys, setKeys] = useState<KeyRow[] | null>(null);
  const [name, setName] = useState("");
  const [scope, setScope] = useState<KeyScope[]>(["read"]);
  const [expires, setExpires] = useState("");
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const [error, setError] = useState("");
  const fail = (e: unknown) => setError(e instanceof ApiError ? e.message : t("ui.requestFailed"));
  const load = () => api<KeyRow[]>("/v3/new/openapi/key/list", {}).then(setKeys, fail);
  useEffect(() => void load(), []);

  const create = async (e: Event) => {
    e.preventDefault();
    if (!scope.length) return setError(t("openapi.keys.scopeRequired"));
    const body = {
      name: name.trim(),
      scope,
      // The date picker's day, ending at its last second in the browser's zone.
      ...(expires ? { expiresAt: new Date(`${expires}T23:59:59`).toISOString() } : {}),
    };
    const key = await panelCall(
      () => api<CreatedKey>("/v3/new/openapi/key/create", body),
      { reload: load, fail },
    );
    if (!key) return;
    setCreated(key);
    setName("");
    setExpires("");
    setError("");
  };
  const revoke = async (k: KeyRow) => {
    if (!confirm(t("openapi.keys.revokeConfirm", { name: k.name }))) return;
    await panelCall(
      () => api("/v3/new/openapi/key/revoke", { appKey: k.appKey }),
      { done: t("openapi.keys.revoked"), reload: load, fail },
    );
  };
  const toggle = (s: KeyScope) => setScope((cur) => toggled(cur, s));
  const copy = async (text: string) => {
    await navigator.clipboard?.writeText(text).catch(() => {});
    toast(t("openapi.keys.copied"));
  };
  const when = (iso: string | null, none: string) =>
    iso ? new Date(iso).toLocaleString(lang === "zh" ? "zh-CN" : "en-GB") : none;

  return (
    <div class="panel openapi-keys">
      <div class="panel-title">
        <h1>{t("openapi.keys.title")}</h1>
        <a class="btn" href="/openApiDocs" target="_blank" rel="noopener">
          {t("openapi.keys.docs")}
        </a>
      </div>
      <p class="muted">{t("openapi.keys.intro")}</p>
      {error && <p class="form-error" role="alert">{error}</p>}
      {created && (
        <div class="openapi-created" role="status" id="openapi-created">
          <p>
            <b>{t("openapi.keys.created")}</b>
          </p>
          {([["appKey", created.appKey], ["appSecret", created.appSecret]] as const).map((
            [label, value],
          ) => (
            <div class="openapi-secret-row" key={label}>
              <span class="field-label">{t(`openapi.keys.${label}`)}</span>
              <code id={`openapi-${label}`}>{value}</code>
              <button type="button" class="btn" onClick={() => copy(value)}>
                {t("openapi.keys.copy")}
              </button>
            </div>
          ))}
          <button type="button" class="btn btn-primary" onClick={() => setCreated(null)}>
            {t("openapi.keys.done")}
          </button>
        </div>
      )}
      <form class="openapi-create" onSubmit={create}>
        <label class="field">
          <span class="field-label">{t("openapi.keys.name")}</span>
          <input
            class="input"
            id="openapi-name"
            required
            maxLength={50}
            value={name}
            onInput={(e) => setName((e.target as HTMLInputElement).value)}
          />
        </label>
        <fieldset class="field openapi-scopes">
          <legend class="field-label">{t("openapi.keys.scope")}</legend>
          {KEY_SCOPES.map((s) => (
            <label key={s} class="openapi-scope">
              <input
                type="checkbox"
                name="scope"
                value={s}
                checked={scope.includes(s)}
                onChange={() => toggle(s)}
              />
              <span>
                <b>{t(`openapi.keys.scopes.${s}`)}</b>
                <small class="muted">{t(`openapi.keys.scopeHints.${s}`)}</small>
              </span>
            </label>
          ))}
        </fieldset>
        <label class="field">
          <span class="field-label">{t("openapi.keys.expiresAt")}</span>
          <input
            class="input"
            type="date"
            id="openapi-expires"
            value={expires}
            onInput={(e) => setExpires((e.target as HTMLInputElement).value)}
          />
        </label>
        <button
          type="submit"
          class="btn btn-primary"
          id="openapi-create"
          disabled={(keys?.length ?? 0) >= MAX_KEYS_PER_ACCOUNT}
        >
          + {t("openapi.keys.create")}
        </button>
      </form>
      {keys && keys.length === 0 && <p class="empty">{t("openapi.keys.none")}</p>}
      {keys && keys.length > 0 && (
        <table class="data openapi-key-table">
          <thead>
            <tr>
              <th>{t("openapi.keys.name")}</th>
              <th>{t("openapi.keys.appKey")}</th>
              <th>{t("openapi.keys.scope")}</th>
              <th>{t("openapi.keys.status")}</th>
              <th>{t("openapi.keys.lastUsed")}</th>
              <th>{t("openapi.keys.expires")}</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {keys.map((k) => (
              <tr key={k.appKey} data-app-key={k.appKey}>
                <td data-label={t("openapi.keys.name")}>{k.name}</td>
                <td data-label={t("openapi.keys.appKey")}>
                  <code>{k.appKey}</code>
                  <br />
                  <code class="muted">{k.secretMasked}</code>
                </td>
                <td data-label={t("openapi.keys.scope")}>
                  {k.scope.map((s) => t(`openapi.keys.scopes.${s}`)).join(", ")}
                </td>
                <td data-label={t("openapi.keys.status")}>
                  <span class={`badge openapi-status-${k.status}`}>
                    {t(`openapi.keys.statuses.${k.status}`)}
                  </span>
                </td>
                <td data-label={t("openapi.keys.lastUsed")}>
                  {when(k.lastUsedAt, t("openapi.keys.never"))}
                </td>
                <td data-label={t("openapi.keys.expires")}>
                  {when(k.expiresAt, t("openapi.keys.noExpiry"))}
                </td>
                <td>
                  {k.status === "active" && (
                    <button
                      type="button"
                      class="btn btn-danger"
                      onClick={() => revoke(k)}
                    >
                      {t("openapi.keys.revoke")}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Toasts />
    </div>
  );
}

export default island("openapi/AppKeys", AppKeys);
