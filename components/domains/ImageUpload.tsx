import type { TFunction } from "i18next";
import { useState } from "react";
import { ApiError } from "../../lib/client/api.ts";
import { upload } from "../devices/transfer_io.ts";
import type { Form } from "../accounts/form.tsx";
import {
  DOMAIN_IMAGE_TYPE_NAMES,
  DOMAIN_IMAGE_TYPES,
  type ImageField,
  MAX_DOMAIN_IMAGE_BYTES,
  MAX_DOMAIN_IMAGE_LABEL,
} from "../../modules/domains/model.ts";
import { browserOrigin, type DomainValues, previewUrl } from "./types.ts";

/** What the file chooser offers (the server still reads the type from the content). */
const ACCEPT = [...Object.values(DOMAIN_IMAGE_TYPES), ".ico"].join(",");

interface Props {
  t: TFunction;
  form: Form<DomainValues>;
  name: ImageField;
  label: string;
  placeholder: string;
}

/**
 * One image of the white-label configuration: upload a file (stored and served by this
 * server) or type the path of one the resource domain already serves. The field holds the
 * path under tracker/domain; the hint shows the full address it stands for.
 */
export function ImageUpload({ t, form, name, label, placeholder }: Props) {
  form.fields.add(name);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const [broken, setBroken] = useState("");
  const value = form.values[name];
  const url = previewUrl(form.values, name);
  /** The address the spec's field stands for, shown under it (this server's when no domain). */
  const address = previewUrl(form.values, name, browserOrigin());
  const id = `domain-${name}`;

  const send = async (file: File) => {
    setError("");
    // Checked here too so a large file is not sent only to be refused.
    if (file.size > MAX_DOMAIN_IMAGE_BYTES) {
      return setError(t("errors.fileTooLarge", { limit: MAX_DOMAIN_IMAGE_LABEL }));
    }
    setBusy(true);
    try {
      const body = new FormData();
      body.set("field", name);
      body.set("file", file);
      const answer = await upload<{ path: string }>("/v3/new/domain/uploadImage", body);
      form.set(name, answer.path);
    } catch (e) {
      setError(e instanceof ApiError && e.message ? e.message : t("ui.requestFailed"));
    } finally {
      setBusy(false);
    }
  };

  return (
    // Not a <Field>: that is a <label>, and the upload button is a label of its own.
    <div class="span2 domain-image" data-field={name}>
      <div class={`field${error || form.errors[name] ? " has-error" : ""}`}>
        <label class="field-label" for={id}>{label}</label>
        <div class="domain-image-row">
          <span class={`domain-thumb${name === "attr1" ? " wide" : ""}`} aria-hidden="true">
            {url && url !== broken ? <img src={url} alt="" onError={() => setBroken(url)} /> : "—"}
          </span>
          <input
            id={id}
            name={name}
            value={value}
            maxLength={300}
            placeholder={placeholder}
            autoComplete="off"
            aria-invalid={form.errors[name] ? true : undefined}
            onInput={(e) => form.set(name, (e.target as HTMLInputElement).value)}
          />
          <label class={`btn domain-upload${busy ? " disabled" : ""}`}>
            {busy ? t("ui.loading") : t("domains.upload")}
            <input
              type="file"
              class="visually-hidden"
              accept={ACCEPT}
              disabled={busy}
              aria-label={t("domains.uploadFor", { field: label })}
              onChange={(e) => {
                const input = e.target as HTMLInputElement;
                const file = input.files?.[0];
                input.value = "";
                if (file) send(file);
              }}
            />
          </label>
          {value && (
            <button
              type="button"
              class="link-btn danger"
              aria-label={t("domains.clearFor", { field: label })}
              onClick={() => form.set(name, "")}
            >
              {t("domains.clear")}
            </button>
          )}
        </div>
        {error || form.errors[name]
          ? <span class="field-error" role="alert">{error || form.errors[name]}</span>
          : (
            <span class="field-hint">
              {address ? `→ ${address}` : t(
                name === "attr1" ? "domains.hints.backgroundFolder" : "domains.hints.folder",
              )}
            </span>
          )}
      </div>
    </div>
  );
}

/** The accepted files, for the section's note. */
export const uploadNote = (t: TFunction) =>
  t("domains.hints.upload", { types: DOMAIN_IMAGE_TYPE_NAMES, limit: MAX_DOMAIN_IMAGE_LABEL });
