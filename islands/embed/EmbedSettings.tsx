import { useEffect, useState } from "react";
import { island } from "../../lib/islands/island.tsx";
import { api, ApiError } from "../../lib/client/api.ts";
import { type Lang, translator } from "../../lib/i18n/i18n.ts";
import { toast, Toasts } from "../../components/ui/Toast.tsx";
import {
  EMBED_MAX_KEYS,
  EMBED_MAX_ORIGINS,
  type EmbedSettings as Settings,
  embedSnippet,
} from "../../modules/embed/model.ts";

/** /embedMap: the account's read-only embed keys and the websites allowed to frame them. */
function EmbedSettings({ lang, canPublish }: { lang: Lang; canPublish: boolean }) {
  const t = translator(lang);
  const [s, setS] = useState<Settings | null>(null);
  const [origins, setOrigins] = useState("");
  const [label, setLabel] = useState("");
  const [error, setError] = useState("");
  const fail = (e: unknown) => setError(e instanceof ApiError ? e.message : t("ui.requestFailed"));
  const show = (next: Settings) => {
    setS(next);
    setOrigins(next.origins.join("\n"));
    setError("");
  };

  useEffect(() => {
    api<Settings>("/v3/new/embed/keys", {}).then(show, fail);
  }, []);

  const saveOrigins = async () => {
    try {
      const list = origins.split(/\s+/).map((o) => o.trim()).filter(Boolean);
      show(await api<Settings>("/v3/new/embed/origins", { origins: list }));
      toast(t("demo.embed.saved"));
    } catch (e) {
      fail(e);
    }
  };
  const create = async () => {
    try {
      show(await api<Settings>("/v3/new/embed/createKey", { label: label.trim() }));
      setLabel("");
    } catch (e) {
      fail(e);
    }
  };
  const revoke = async (key: string) => {
    try {
      show(await api<Settings>("/v3/new/embed/revokeKey", { key }));
    } catch (e) {
      fail(e);
    }
  };
  const copy = async (text: string) => {
    await navigator.clipboard?.writeText(text).catch(() => {});
    toast(t("demo.embed.copied"));
  };

  return (
    <div class="panel embed-settings">
      <div class="panel-title">
        <h1>{t("demo.embed.title")}</h1>
      </div>
      <p class="muted">{t("demo.embed.intro")}</p>
      {error && <p class="form-error" role="alert">{error}</p>}
      <label class="field">
        <span class="field-label">{t("demo.embed.origins")}</span>
        <textarea
          class="input"
          id="embed-origins"
          rows={3}
          disabled={!canPublish}
          placeholder="https://www.example.com"
          value={origins}
          onInput={(e) => setOrigins((e.target as HTMLTextAreaElement).value)}
        />
        <span class="field-hint">{t("demo.embed.originsHint", { max: EMBED_MAX_ORIGINS })}</span>
      </label>
      <button
        type="button"
        class="btn"
        id="embed-save-origins"
        disabled={!canPublish}
        onClick={saveOrigins}
      >
        {t("demo.embed.saveOrigins")}
      </button>
      <h2 class="embed-keys-title">{t("demo.embed.keys")}</h2>
      <div class="toolbar">
        <input
          class="input"
          id="embed-label"
          maxLength={50}
          placeholder={t("demo.embed.label")}
          aria-label={t("demo.embed.label")}
          value={label}
          disabled={!canPublish}
          onInput={(e) => setLabel((e.target as HTMLInputElement).value)}
        />
        <button
          type="button"
          class="btn btn-primary"
          id="embed-create"
          disabled={!canPublish || (s?.keys.length ?? 0) >= EMBED_MAX_KEYS}
          onClick={create}
        >
          + {t("demo.embed.create")}
        </button>
      </div>
      {s && s.keys.length === 0 && <p class="empty">{t("demo.embed.none")}</p>}
      <ul class="embed-keys">
        {s?.keys.map((k) => {
          const snippet = embedSnippet(location.origin, k.key);
          return (
            <li key={k.key} data-embed-key={k.key}>
              <div class="embed-key-head">
                <b>{k.label || k.key.slice(0, 8)}</b>
                <span class="muted">
                  {t("demo.embed.created", { date: k.createdAt.slice(0, 10) })}
                </span>
                <span class="grow" />
                <a class="btn" href={`/iframe?key=${k.key}`} target="_blank" rel="noopener">
                  {t("demo.embed.open")}
                </a>
                <button type="button" class="btn" onClick={() => copy(snippet)}>
                  {t("demo.embed.copy")}
                </button>
                <button
                  type="button"
                  class="btn btn-danger embed-revoke"
                  disabled={!canPublish}
                  onClick={() => revoke(k.key)}
                >
                  {t("demo.embed.revoke")}
                </button>
              </div>
              <code class="embed-snippet">{snippet}</code>
            </li>
          );
        })}
      </ul>
      <Toasts />
    </div>
  );
}

export default island("embed/EmbedSettings", EmbedSettings);
