import { useState } from "react";
import { island } from "../../lib/islands/island.tsx";
import { api } from "../../lib/client/api.ts";
import { type Lang, translator } from "../../lib/i18n/i18n.ts";
import { toast, Toasts } from "../../components/ui/Toast.tsx";
import { useLatest } from "../../components/accounts/hooks.ts";
import { DeleteDialog } from "../../components/accounts/DeleteDialog.tsx";
import { DomainList } from "../../components/domains/DomainList.tsx";
import { DomainForm } from "../../components/domains/DomainForm.tsx";
import { DEFAULT_DOMAIN, type DomainConfig, toValues } from "../../components/domains/types.ts";

interface Props {
  lang: Lang;
}

interface ListAnswer {
  defaults: DomainConfig;
  list: DomainConfig[];
}

/** /addDomain: the administrator's white-label configurations per host. */
function DomainEditor({ lang }: Props) {
  const t = translator(lang);
  const [reloads, setReloads] = useState(0);
  /** The host being edited, or null for a new one. */
  const [editing, setEditing] = useState<string | null>(null);
  /** Remounts the form (fresh values) on every switch. */
  const [formKey, setFormKey] = useState(0);
  const [deleting, setDeleting] = useState<DomainConfig | null>(null);
  const { data } = useLatest(
    () => api<ListAnswer>("/v3/new/domain/list", {}),
    [reloads],
    (e) => toast((e as Error).message || t("ui.requestError"), "error"),
  );
  const defaults = data?.defaults ?? DEFAULT_DOMAIN;
  const current = editing === null ? null : data?.list.find((d) => d.host === editing) ?? null;
  // A brand-new configuration starts from the defaults, for a host still to be named.
  const initial = toValues(current ?? { ...defaults, host: "" });
  const edit = (host: string | null) => {
    setEditing(host);
    setFormKey((k) => k + 1);
  };

  return (
    <div class="domains">
      <section class="panel">
        <div class="panel-title">
          <h1>{t("domains.title")}</h1>
          <button type="button" id="domain-add" class="btn btn-primary" onClick={() => edit(null)}>
            + {t("domains.new")}
          </button>
        </div>
        <p class="dialog-note">{t("domains.intro")}</p>
        <DomainList
          t={t}
          list={data?.list ?? null}
          editing={editing}
          onEdit={(d) => edit(d.host)}
          onDelete={setDeleting}
        />
      </section>
      <section class="panel">
        {(editing === null || current) && (
          <DomainForm
            key={`${formKey}:${data ? "loaded" : "loading"}`}
            t={t}
            initial={initial}
            existing={!!current}
            onNew={() => edit(null)}
            onSaved={(host) => {
              setReloads((n) => n + 1);
              setEditing(host);
            }}
          />
        )}
      </section>
      {deleting && (
        <DeleteDialog
          t={t}
          title={t("domains.deleteTitle")}
          message={t(deleting.host === "*" ? "domains.deleteFallback" : "domains.deleteConfirm", {
            host: deleting.host,
          })}
          remove={() => api("/v3/new/domain/delete", { host: deleting.host })}
          done={t("domains.deleted", { host: deleting.host })}
          onClose={() => setDeleting(null)}
          onDone={() => {
            if (editing === deleting.host) edit(null);
            setDeleting(null);
            setReloads((n) => n + 1);
          }}
        />
      )}
      <Toasts />
    </div>
  );
}

export default island("domains/DomainEditor", DomainEditor);
