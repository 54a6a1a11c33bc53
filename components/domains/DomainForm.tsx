import type { TFunction } from "i18next";
import { api } from "../../lib/client/api.ts";
import { LANGUAGES } from "../../lib/i18n/i18n.ts";
import { Field } from "../ui/Field.tsx";
import { toast } from "../ui/Toast.tsx";
import { type Form, Input, Select, useForm } from "../accounts/form.tsx";
import { Preview } from "./Preview.tsx";
import { type DomainValues, toBody } from "./types.ts";
import { ImageUpload, uploadNote } from "./ImageUpload.tsx";
import { COLOR_FIELDS, IMAGE_FIELDS, RULES } from "./validate.ts";

const PLACEHOLDERS: Record<typeof IMAGE_FIELDS[number], string> = {
  domainLogin: "logo.png",
  siteIcon: "favicon.ico",
  attr1: "login-bg.jpg",
  loginPageIllustration: "login-art.png",
  demoPageIllustration: "demo-art.png",
  twoDimensionalCodeImage: "app-qrcode.png",
};

interface Props {
  t: TFunction;
  initial: DomainValues;
  /** True when editing a saved host: its name is fixed. */
  existing: boolean;
  onSaved: (host: string) => void;
  onNew: () => void;
}

/** Add or edit one host's white-label configuration, with a live preview. */
export function DomainForm({ t, initial, existing, onSaved, onNew }: Props) {
  const form = useForm<DomainValues>(initial, t);
  const label = (k: string) => t(`domains.fields.${k}`);
  const labels = Object.fromEntries(Object.keys(RULES).map((k) => [k, label(k)]));
  const v = form.values;
  const save = () =>
    form.submit(RULES, labels, async () => {
      const body = toBody(v);
      await api("/v3/new/domain/save", body);
      toast(t("domains.saved", { host: body.host }));
      onSaved(body.host);
    });

  return (
    <form
      class="domain-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (!form.busy) save();
      }}
    >
      <div class="panel-title">
        <h2>{existing ? t("domains.editTitle", { host: v.host }) : t("domains.newTitle")}</h2>
        {existing && (
          <button type="button" id="domain-new" class="btn" onClick={onNew}>
            + {t("domains.new")}
          </button>
        )}
      </div>
      {form.formError && <div class="form-error" role="alert">{form.formError}</div>}
      <div class="domain-editor">
        <div>
          <h3 class="form-section">{t("domains.sections.site")}</h3>
          <div class="form-grid">
            <Input
              form={form}
              name="host"
              label={label("host")}
              required
              disabled={existing}
              maxLength={253}
              hint={t("domains.hints.host")}
            />
            <Input
              form={form}
              name="domainTitle"
              label={label("domainTitle")}
              required
              maxLength={60}
            />
            <Select
              form={form}
              name="defaultLanguage"
              label={label("defaultLanguage")}
              options={LANGUAGES.map((l) => ({ value: l, label: t(`shell.languages.${l}`) }))}
            />
            <Input
              form={form}
              name="view"
              label={label("view")}
              maxLength={30}
              hint={t("domains.hints.view")}
            />
          </div>
          <h3 class="form-section">{t("domains.sections.colors")}</h3>
          <div class="form-grid three">
            {COLOR_FIELDS.map((f) => <ColorInput key={f} form={form} name={f} label={label(f)} />)}
          </div>
          <h3 class="form-section">{t("domains.sections.images")}</h3>
          <div class="form-grid">
            <Input
              form={form}
              name="resourceDomain"
              label={label("resourceDomain")}
              wide
              maxLength={200}
              placeholder="https://cdn.example.com"
              hint={t("domains.hints.resourceDomain")}
            />
            <p class="field-hint span2">{uploadNote(t)}</p>
            {IMAGE_FIELDS.map((f) => (
              <ImageUpload
                key={f}
                t={t}
                form={form}
                name={f}
                label={label(f)}
                placeholder={PLACEHOLDERS[f]}
              />
            ))}
          </div>
        </div>
        <Preview t={t} values={v} />
      </div>
      <div class="form-actions">
        <button type="submit" id="domain-save" class="btn btn-primary" disabled={form.busy}>
          {form.busy ? t("ui.loading") : t("ui.save")}
        </button>
      </div>
    </form>
  );
}

interface ColorProps {
  form: Form<DomainValues>;
  name: typeof COLOR_FIELDS[number];
  label: string;
}

/** A colour picker and its #rrggbb text, bound to the same value. */
function ColorInput({ form, name, label }: ColorProps) {
  form.fields.add(name);
  const value = form.values[name];
  const valid = /^#[0-9a-fA-F]{6}$/.test(value);
  return (
    <Field label={label} required error={form.errors[name]}>
      <span class="color-input">
        <input
          type="color"
          aria-label={label}
          value={valid ? value.toLowerCase() : "#000000"}
          onInput={(e) => form.set(name, (e.target as HTMLInputElement).value)}
        />
        <input
          type="text"
          name={name}
          value={value}
          maxLength={7}
          spellcheck={false}
          onInput={(e) => form.set(name, (e.target as HTMLInputElement).value)}
        />
      </span>
    </Field>
  );
}
