import type { TFunction } from "i18next";
import { Field } from "../ui/Field.tsx";
import { fieldMsg } from "./format.ts";

/** Longest template name, in characters (spec: 20). */
export const TEMPLATE_NAME_MAX = 20;

/** Sets `found.name` when a template name is empty or too long. */
export function checkTemplateName(t: TFunction, name: string, found: Record<string, string>) {
  if (!name.trim()) found.name = fieldMsg(t, "validation.required");
  else if (name.trim().length > TEMPLATE_NAME_MAX) {
    found.name = fieldMsg(t, "validation.tooLong", { max: TEMPLATE_NAME_MAX });
  }
}

/** The template dialogs' required name field with its length rule. */
export function TemplateNameField({ t, value, error, onValue }: {
  t: TFunction;
  value: string;
  error?: string;
  onValue: (value: string) => void;
}) {
  return (
    <Field
      label={t("commands.ui.templateName")}
      required
      error={error}
      hint={t("commands.ui.nameRule", { max: TEMPLATE_NAME_MAX })}
    >
      <input
        class="input"
        name="name"
        maxLength={TEMPLATE_NAME_MAX}
        value={value}
        onInput={(e) => onValue((e.target as HTMLInputElement).value)}
      />
    </Field>
  );
}

/** Cancel and Save of a template dialog; Save submits the form `form`. */
export function SaveFooter({ t, form, busy, onClose }: {
  t: TFunction;
  form: string;
  busy: boolean;
  onClose: () => void;
}) {
  return (
    <>
      <button type="button" class="btn" onClick={onClose}>{t("ui.cancel")}</button>
      <button type="submit" form={form} class="btn btn-primary" disabled={busy}>
        {t("ui.save")}
      </button>
    </>
  );
}
