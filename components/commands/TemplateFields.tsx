import type { TFunction } from "i18next";
import { type ReactNode, useState } from "react";
import { api } from "../../lib/client/api.ts";
import { Field } from "../ui/Field.tsx";
import { Modal } from "../ui/Modal.tsx";
import { toast } from "../ui/Toast.tsx";
import { fieldMsg } from "./format.ts";
import { type FieldErrors, type RefusalFields, useSubmit } from "./useSubmit.ts";

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

/**
 * A template editor's name and saving through `path`: the name is checked with the page's own
 * findings (`found`), then sent trimmed with `body` (and the id when editing); "saved" is
 * shown and `onSaved` closes the editor. `form` is what TemplateForm needs of it.
 */
export function useTemplateSave(
  t: TFunction,
  path: string,
  initial: { id: string; name: string },
  onSaved: () => void,
) {
  const [name, setName] = useState(initial.name);
  const { errors, setErrors, busy, submit } = useSubmit();
  const save = (found: FieldErrors, body: Record<string, unknown>, refusal: RefusalFields) => {
    checkTemplateName(t, name, found);
    return submit(found, async () => {
      await api(path, { ...(initial.id ? { id: initial.id } : {}), name: name.trim(), ...body });
      toast(t("ui.saved"));
      onSaved();
    }, refusal);
  };
  const form = { busy, name, nameError: errors.name, onName: setName };
  return { errors, setErrors, save, form };
}

/** A template editor: a dialog holding the form `formId` with the name field first. */
export function TemplateForm(
  { t, title, formId, width, busy, name, nameError, onName, onSubmit, onClose, children }: {
    t: TFunction;
    title: string;
    formId: string;
    width?: number;
    busy: boolean;
    name: string;
    nameError?: string;
    onName: (name: string) => void;
    onSubmit: () => void;
    onClose: () => void;
    children: ReactNode;
  },
) {
  return (
    <Modal
      title={title}
      closeLabel={t("ui.close")}
      onClose={onClose}
      width={width}
      footer={<SaveFooter t={t} form={formId} busy={busy} onClose={onClose} />}
    >
      <form
        id={formId}
        class="cmd-form"
        onSubmit={(e) => {
          e.preventDefault();
          onSubmit();
        }}
        noValidate
      >
        <TemplateNameField t={t} value={name} error={nameError} onValue={onName} />
        {children}
      </form>
    </Modal>
  );
}
