import { useEffect, useState } from "react";
import { island } from "../../lib/islands/island.tsx";
import { api } from "../../lib/client/api.ts";
import { type Lang, translator } from "../../lib/i18n/i18n.ts";
import { toast, Toasts } from "../../components/ui/Toast.tsx";
import type { ModelInfo } from "../../components/devices/types.ts";

/** /modelNameAlias: the caller's display names for device models. */
function ModelAlias({ lang }: { lang: Lang }) {
  const t = translator(lang);
  const [models, setModels] = useState<ModelInfo[] | null>(null);
  const [draft, setDraft] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  useEffect(() => {
    api<ModelInfo[]>("/v3/new/newDevice/getModelAlias").then((list) => {
      setModels(list);
      setDraft(Object.fromEntries(list.map((m) => [m.mcType, m.alias ?? ""])));
    }, (e) => setError((e as Error).message));
  }, []);
  const save = async () => {
    setBusy(true);
    setError("");
    try {
      await api("/v3/new/newDevice/setModelAlias", {
        aliases: Object.fromEntries(Object.entries(draft).map(([k, v]) => [k, v.trim()])),
      });
      toast(t("devices.alias.saved"));
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="panel alias-panel">
      <div class="panel-title">
        <h1>{t("devices.alias.title")}</h1>
      </div>
      <p class="muted">{t("devices.alias.hint")}</p>
      {error && <div class="form-error" role="alert">{error}</div>}
      {!models && !error && <div class="table-loading">{t("devices.loading")}</div>}
      {models && (
        <table class="data">
          <thead>
            <tr>
              <th>{t("devices.alias.model")}</th>
              <th>{t("devices.alias.protocol")}</th>
              <th>{t("devices.alias.alias")}</th>
            </tr>
          </thead>
          <tbody>
            {models.map((m) => (
              <tr key={m.mcType}>
                <td>
                  <strong>{m.mcType}</strong> <span class="muted">{m.name}</span>
                </td>
                <td>{m.protocol}</td>
                <td>
                  <input
                    class="input"
                    name={`alias-${m.mcType}`}
                    maxLength={30}
                    placeholder={m.mcType}
                    aria-label={`${t("devices.alias.alias")} ${m.mcType}`}
                    value={draft[m.mcType] ?? ""}
                    onInput={(e) =>
                      setDraft({ ...draft, [m.mcType]: (e.target as HTMLInputElement).value })}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <div class="tab-foot">
        <button
          type="button"
          id="alias-save"
          class="btn btn-primary"
          disabled={busy}
          onClick={save}
        >
          {t("devices.alias.save")}
        </button>
      </div>
      <Toasts />
    </div>
  );
}

export default island("devices/ModelAlias", ModelAlias);
