import { useState } from "react";
import dayjs from "dayjs";
import { island } from "../../lib/islands/island.tsx";
import { api, ApiError } from "../../lib/client/api.ts";
import { type Lang, translator } from "../../lib/i18n/i18n.ts";
import { toast, Toasts } from "../../components/ui/Toast.tsx";
import { upload } from "../../components/devices/transfer_io.ts";
import { sizeLabel } from "../../components/help/time.ts";
import {
  DOC_EXTENSIONS,
  DOC_KINDS,
  type DocKind,
  type HelpDocument,
  MAX_DOC_BYTES,
  MAX_TITLE,
} from "../../modules/manual/model.ts";

type Translate = ReturnType<typeof translator>;
const download = (id: string, inline = false) =>
  `/v3/new/manual/download?id=${id}${inline ? "&inline=1" : ""}`;

/** /userManual: every user views or downloads the documents; administrators upload them. */
function ManualLibrary({ lang, isAdmin, initial }: {
  lang: Lang;
  isAdmin: boolean;
  initial: HelpDocument[];
}) {
  const t = translator(lang);
  const [docs, setDocs] = useState(initial);
  const reload = async () =>
    setDocs((await api<{ list: HelpDocument[] }>("/v3/new/manual/list", {})).list);
  const fail = (e: unknown) =>
    toast(e instanceof ApiError && e.message ? e.message : t("ui.requestFailed"), "error");
  const remove = async (d: HelpDocument) => {
    if (!confirm(t("help.manual.confirmDelete", { title: d.title }))) return;
    try {
      await api("/v3/new/manual/delete", { id: d.id });
      toast(t("help.manual.deleted_ok"));
      await reload();
    } catch (e) {
      fail(e);
    }
  };
  return (
    <section class="panel help-page manual-library">
      <div class="panel-title">
        <h1>{t("help.manual.title")}</h1>
        <a class="btn" href="/v3/new/docs" target="_blank" rel="noopener">
          {t("help.manual.apiReference")}
        </a>
      </div>
      <p class="muted help-intro">{t("help.manual.intro")}</p>
      {docs.length === 0 && (
        <p class="help-empty">{t(isAdmin ? "help.manual.emptyAdmin" : "help.manual.empty")}</p>
      )}
      {DOC_KINDS.map((kind) => {
        const mine = docs.filter((d) => d.kind === kind);
        return mine.length > 0 && (
          <div key={kind} class="doc-group">
            <h2>{t(`help.manual.kinds.${kind}`)}</h2>
            <ul class="doc-list">
              {mine.map((d) => (
                <DocCard key={d.id} t={t} doc={d} isAdmin={isAdmin} onDelete={remove} />
              ))}
            </ul>
          </div>
        );
      })}
      {isAdmin && <UploadForm t={t} onDone={reload} fail={fail} />}
      <Toasts />
    </section>
  );
}

function DocCard({ t, doc, isAdmin, onDelete }: {
  t: Translate;
  doc: HelpDocument;
  isAdmin: boolean;
  onDelete: (d: HelpDocument) => void;
}) {
  const viewable = doc.type === "pdf" || doc.type === "txt";
  return (
    <li class="doc-card" data-doc-id={doc.id}>
      <span class={`doc-icon doc-${doc.type}`} aria-hidden="true">{doc.type.toUpperCase()}</span>
      <div class="doc-info">
        <strong class="doc-title">{doc.title}</strong>
        <span class="muted">
          {doc.fileName} · {sizeLabel(doc.size)} · {dayjs(doc.uploadedAt).format("YYYY-MM-DD")}
          {isAdmin && ` · ${t("help.manual.uploadedBy", { account: doc.uploadedBy })}`}
        </span>
      </div>
      <div class="doc-actions">
        {viewable && (
          <a class="btn" href={download(doc.id, true)} target="_blank" rel="noopener">
            {t("help.manual.view")}
          </a>
        )}
        <a class="btn btn-primary" href={download(doc.id)} download={doc.fileName}>
          {t("help.manual.download")}
        </a>
        {isAdmin && (
          <button type="button" class="btn btn-danger" onClick={() => onDelete(doc)}>
            {t("help.manual.delete")}
          </button>
        )}
      </div>
    </li>
  );
}

function UploadForm({ t, onDone, fail }: {
  t: Translate;
  onDone: () => Promise<void>;
  fail: (e: unknown) => void;
}) {
  const [kind, setKind] = useState<DocKind>("manual");
  const [title, setTitle] = useState("");
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const size = `${MAX_DOC_BYTES / 1024 / 1024} MB`;
  const submit = async (e: Event) => {
    e.preventDefault();
    setError("");
    if (!file) return setError(t("validation.required"));
    if (file.size > MAX_DOC_BYTES) return setError(t("errors.fileTooLarge", { limit: size }));
    setBusy(true);
    try {
      const form = new FormData();
      form.set("kind", kind);
      form.set("title", title.trim());
      form.set("file", file);
      const doc = await upload<HelpDocument>("/v3/new/manual/upload", form);
      toast(t("help.manual.uploaded_ok", { title: doc.title }));
      setTitle("");
      setFile(null);
      (e.target as HTMLFormElement).reset();
      await onDone();
    } catch (err) {
      if (err instanceof ApiError && err.message) setError(err.message);
      else fail(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="doc-upload" onSubmit={submit}>
      <h2>{t("help.manual.upload")}</h2>
      <p class="muted">{t("help.manual.uploadHint", { size })}</p>
      <div class="doc-upload-grid">
        <label class="field">
          <span class="field-label">{t("help.manual.kind")}</span>
          <select
            name="kind"
            value={kind}
            onChange={(e) => setKind(e.currentTarget.value as DocKind)}
          >
            {DOC_KINDS.map((k) => <option key={k} value={k}>{t(`help.manual.kinds.${k}`)}</option>)}
          </select>
        </label>
        <label class="field">
          <span class="field-label">{t("help.manual.docTitle")}</span>
          <input
            name="title"
            maxLength={MAX_TITLE}
            placeholder={t("help.manual.docTitleHint")}
            value={title}
            onInput={(e) => setTitle(e.currentTarget.value)}
          />
        </label>
        <label class={`field span2${error ? " has-error" : ""}`}>
          <span class="field-label">
            <i class="req">*</i>
            {t("help.manual.file")}
          </span>
          <input
            type="file"
            name="file"
            accept={DOC_EXTENSIONS.map((x) => `.${x}`).join(",")}
            onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)}
          />
          {error && <span class="field-error" role="alert">{error}</span>}
        </label>
      </div>
      <div class="doc-upload-actions">
        <button type="submit" class="btn btn-primary" disabled={busy}>
          {busy ? t("help.manual.uploading") : t("help.manual.submit")}
        </button>
      </div>
    </form>
  );
}

export default island("help/ManualLibrary", ManualLibrary);
