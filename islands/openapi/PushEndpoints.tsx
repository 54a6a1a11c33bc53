import { useEffect, useState } from "react";
import { island } from "../../lib/islands/island.tsx";
import { api, ApiError } from "../../lib/client/api.ts";
import { type Lang, translator } from "../../lib/i18n/i18n.ts";
import { Toasts } from "../../components/ui/Toast.tsx";
import { panelCall, toggled } from "../../components/openapi/panel.ts";
import {
  PUSH_ENDPOINT_LIMIT,
  PUSH_FORMATS,
  PUSH_KINDS,
  type PushDeliveryRow,
  type PushEndpointRow,
  type PushFormat,
  type PushKind,
} from "../../modules/openapi/push_model.ts";

/**
 * /openApiKeys, second panel: where the platform pushes the account's alarms, positions,
 * online/offline changes and command results (issue 22: registered here, not through support),
 * and the recent deliveries with their attempts.
 */
function PushEndpoints({ lang }: { lang: Lang }) {
  const t = translator(lang);
  const [endpoints, setEndpoints] = useState<PushEndpointRow[] | null>(null);
  const [log, setLog] = useState<PushDeliveryRow[]>([]);
  const [url, setUrl] = useState("");
  const [kinds, setKinds] = useState<PushKind[]>(["alarm"]);
  const [format, setFormat] = useState<PushFormat>("tracksolid");
  const [shown, setShown] = useState<string | null>(null);
  const [error, setError] = useState("");
  const fail = (e: unknown) => setError(e instanceof ApiError ? e.message : t("ui.requestFailed"));
  const load = () =>
    Promise.all([
      api<PushEndpointRow[]>("/v3/new/openapi/push/list", {}).then(setEndpoints),
      api<PushDeliveryRow[]>("/v3/new/openapi/push/log", {}).then(setLog),
    ]).catch(fail);
  useEffect(() => void load(), []);

  const after = (done: string) => ({ done, reload: load, fail });
  const add = async (e: Event) => {
    e.preventDefault();
    if (!kinds.length) return setError(t("openapi.push.kindRequired"));
    const body = { url: url.trim(), kinds, format };
    const added = await panelCall(
      () => api("/v3/new/openapi/push/add", body),
      after(t("openapi.push.added")),
    );
    if (added !== undefined) {
      setUrl("");
      setError("");
    }
  };
  const remove = async (p: PushEndpointRow) => {
    if (!confirm(t("openapi.push.deleteConfirm", { url: p.url }))) return;
    await panelCall(
      () => api("/v3/new/openapi/push/delete", { id: p.id }),
      after(t("openapi.push.deleted")),
    );
  };
  const toggle = (k: PushKind) => setKinds((cur) => toggled(cur, k));
  const when = (ms: number) => new Date(ms).toLocaleString(lang === "zh" ? "zh-CN" : "en-GB");

  return (
    <div class="panel openapi-push" id="openapi-push">
      <div class="panel-title">
        <h2>{t("openapi.push.title")}</h2>
        <button type="button" class="btn" onClick={() => void load()}>
          {t("openapi.push.refresh")}
        </button>
      </div>
      <p class="muted">{t("openapi.push.intro")}</p>
      {error && <p class="form-error" role="alert">{error}</p>}
      <form class="openapi-create" onSubmit={add}>
        <label class="field openapi-push-url">
          <span class="field-label">{t("openapi.push.url")}</span>
          <input
            class="input"
            type="url"
            id="push-url"
            required
            maxLength={500}
            placeholder="https://"
            value={url}
            onInput={(e) => setUrl((e.target as HTMLInputElement).value)}
          />
        </label>
        <fieldset class="field openapi-scopes">
          <legend class="field-label">{t("openapi.push.kinds")}</legend>
          {PUSH_KINDS.map((k) => (
            <label key={k} class="openapi-scope openapi-kind">
              <input
                type="checkbox"
                name="kind"
                value={k}
                checked={kinds.includes(k)}
                onChange={() => toggle(k)}
              />
              <span>{t(`openapi.push.kindNames.${k}`)}</span>
            </label>
          ))}
        </fieldset>
        <label class="field">
          <span class="field-label">{t("openapi.push.format")}</span>
          <select
            class="input"
            id="push-format"
            value={format}
            onChange={(e) => setFormat((e.target as HTMLSelectElement).value as PushFormat)}
          >
            {PUSH_FORMATS.map((f) => (
              <option key={f} value={f}>{t(`openapi.push.formats.${f}`)}</option>
            ))}
          </select>
        </label>
        <button
          type="submit"
          class="btn btn-primary"
          id="push-add"
          disabled={(endpoints?.length ?? 0) >= PUSH_ENDPOINT_LIMIT}
        >
          + {t("openapi.push.add")}
        </button>
      </form>
      {endpoints && endpoints.length === 0 && <p class="empty">{t("openapi.push.none")}</p>}
      {endpoints && endpoints.length > 0 && (
        <table class="data openapi-key-table" data-testid="push-endpoints">
          <thead>
            <tr>
              <th>{t("openapi.push.url")}</th>
              <th>{t("openapi.push.kinds")}</th>
              <th>{t("openapi.push.format")}</th>
              <th>{t("openapi.push.secret")}</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {endpoints.map((p) => (
              <tr key={p.id}>
                <td data-label={t("openapi.push.url")} class="openapi-push-cell">{p.url}</td>
                <td data-label={t("openapi.push.kinds")}>
                  {p.kinds.map((k) => t(`openapi.push.kindNames.${k}`)).join(", ")}
                </td>
                <td data-label={t("openapi.push.format")}>
                  {t(`openapi.push.formats.${p.format}`)}
                </td>
                <td data-label={t("openapi.push.secret")}>
                  {shown === p.id ? <code>{p.secret}</code> : (
                    <button
                      type="button"
                      class="link-btn"
                      onClick={() => setShown(p.id)}
                    >
                      {t("openapi.push.show")}
                    </button>
                  )}
                </td>
                <td>
                  <button
                    type="button"
                    class="btn btn-danger"
                    onClick={() =>
                      remove(p)}
                  >
                    {t("openapi.push.delete")}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h3>{t("openapi.push.log")}</h3>
      {log.length === 0
        ? <p class="empty">{t("openapi.push.noLog")}</p>
        : (
          <table class="data openapi-key-table" data-testid="push-log">
            <thead>
              <tr>
                <th>{t("openapi.push.time")}</th>
                <th>{t("openapi.push.event")}</th>
                <th>{t("openapi.push.url")}</th>
                <th>{t("openapi.push.result")}</th>
              </tr>
            </thead>
            <tbody>
              {log.map((l) => {
                const last = l.attempts[l.attempts.length - 1];
                return (
                  <tr key={l.id}>
                    <td data-label={t("openapi.push.time")}>{when(l.createdAt)}</td>
                    <td data-label={t("openapi.push.event")}>
                      <code>{l.event.replace(/^openapi\./, "")}</code>
                    </td>
                    <td data-label={t("openapi.push.url")} class="openapi-push-cell">{l.url}</td>
                    <td data-label={t("openapi.push.result")}>
                      <span class={`badge ${l.ok ? "ok" : "bad"}`}>
                        {t(l.ok ? "openapi.push.delivered" : "openapi.push.failed")}
                      </span>{" "}
                      <span class="muted">
                        {t("openapi.push.attempts", {
                          count: l.attempts.length,
                          status: last?.status ?? last?.error ?? "-",
                        })}
                      </span>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      <Toasts />
    </div>
  );
}

export default island("openapi/PushEndpoints", PushEndpoints);
