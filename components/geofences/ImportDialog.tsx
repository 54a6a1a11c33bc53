import { useState } from "react";
import type { TFunction } from "i18next";
import { Modal } from "../ui/Modal.tsx";
import type { Group } from "./editor_state.ts";

interface ImportResult {
  index: number;
  name: string;
  ok: boolean;
  msg?: string;
}

function cookie(name: string): string {
  const hit = document.cookie.split("; ").find((c) => c.startsWith(`${name}=`));
  return hit ? decodeURIComponent(hit.slice(name.length + 1)) : "";
}

/** KML/KMZ upload with one result line per placemark. */
export function ImportDialog(
  { t, kind, groups, onClose, onDone }: {
    t: TFunction;
    kind: string;
    groups: Group[];
    onClose: () => void;
    onDone: () => void;
  },
) {
  const [file, setFile] = useState<File | null>(null);
  const [groupId, setGroupId] = useState("");
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const [results, setResults] = useState<ImportResult[] | null>(null);
  const submit = async (e: Event) => {
    e.preventDefault();
    if (!file) return setError(t("errors.kmlFileRequired"));
    setBusy(true);
    setError("");
    try {
      const form = new FormData();
      form.set("file", file);
      form.set("kind", kind);
      if (groupId) form.set("groupId", groupId);
      // Multipart upload: the JSON client does not apply, the CSRF header still does.
      const res = await fetch("/v3/new/geofence/import", {
        method: "POST",
        body: form,
        credentials: "same-origin",
        headers: { "x-csrf-token": cookie("tp_csrf") },
      });
      const json = await res.json();
      if (json.code !== 10000) return setError(json.msg);
      setResults(json.data.results);
      onDone();
    } catch {
      setError(t("ui.requestFailed"));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      title={t("geofences.import.title")}
      closeLabel={t("ui.close")}
      onClose={onClose}
      footer={
        <>
          <button type="button" class="btn" onClick={onClose}>{t("ui.close")}</button>
          {!results && (
            <button type="submit" form="kml-form" class="btn btn-primary" disabled={busy}>
              {t("geofences.import.start")}
            </button>
          )}
        </>
      }
    >
      {results
        ? (
          <ul class="gf-results">
            {results.map((r) => (
              <li key={r.index} class={r.ok ? "ok" : "fail"}>
                <strong>{r.ok ? "✓" : "✗"} {r.name}</strong>
                {r.msg && <span class="muted">— {r.msg}</span>}
              </li>
            ))}
          </ul>
        )
        : (
          <form id="kml-form" class="form-grid" onSubmit={submit}>
            <p class="muted">{t("geofences.import.hint")}</p>
            <input
              type="file"
              name="file"
              accept=".kml,.kmz"
              onChange={(e) => setFile((e.target as HTMLInputElement).files?.[0] ?? null)}
            />
            <select
              class="input"
              value={groupId}
              aria-label={t("geofences.fields.group")}
              onChange={(e) => setGroupId((e.target as HTMLSelectElement).value)}
            >
              {groups.map((g) => (
                <option key={g.id} value={g.id}>
                  {g.isDefault ? t("geofences.groups.default") : g.name}
                </option>
              ))}
            </select>
            {error && <p class="form-error">{error}</p>}
          </form>
        )}
    </Modal>
  );
}
